// Package browser drives a headless Chromium over the DevTools protocol on a pipe (no
// port is opened, every host name resolves to nothing), for the tests and the
// benchmark of nsanalyze's offline page: open a page, evaluate JavaScript in it, drop
// files on it, and list every request it made.
package browser

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Find returns a headless-capable Chromium: $NSANALYZE_CHROMIUM, then the usual names
// (Debian's package is "chromium"); "" when there is none.
func Find() string {
	if p := os.Getenv("NSANALYZE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Browser is one headless Chromium with one page.
type Browser struct {
	cmd     *exec.Cmd
	w       *os.File
	mu      sync.Mutex
	next    int
	replies map[int]chan reply
	events  []Event
	session string
	done    chan struct{}
}

// Event is a DevTools event.
type Event struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type reply struct {
	result json.RawMessage
	err    json.RawMessage
}

// Start runs bin (a Chromium) headless with a fresh profile in profileDir and opens a
// blank page; downloads, when not "", is where the page's downloads are saved. The
// browser ends with ctx or Close.
func Start(ctx context.Context, bin, profileDir, downloads string) (*Browser, error) {
	toChrome, ourEnd, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	fromChrome, chromeEnd, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--disable-extensions", "--disable-default-apps", "--host-resolver-rules=MAP * ~NOTFOUND",
		"--remote-debugging-pipe", "--user-data-dir="+profileDir, "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, chromeEnd} // fd 3: Chromium reads, fd 4: it writes
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	toChrome.Close()
	chromeEnd.Close()
	b := &Browser{cmd: cmd, w: ourEnd, replies: map[int]chan reply{}, done: make(chan struct{})}
	go b.read(fromChrome)
	fail := func(err error) (*Browser, error) { b.Close(); return nil, err }
	var tg struct{ TargetID string }
	if err := b.callInto("", "Target.createTarget", map[string]any{"url": "about:blank"}, &tg); err != nil {
		return fail(err)
	}
	var s struct{ SessionID string }
	if err := b.callInto("", "Target.attachToTarget", map[string]any{"targetId": tg.TargetID, "flatten": true}, &s); err != nil {
		return fail(err)
	}
	b.session = s.SessionID
	if downloads != "" {
		if _, err := b.call("", "Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": downloads}); err != nil {
			return fail(err)
		}
	}
	for _, m := range []string{"Network.enable", "Page.enable", "Runtime.enable", "Log.enable"} {
		if _, err := b.Call(m, nil); err != nil {
			return fail(err)
		}
	}
	return b, nil
}

// Close ends the browser.
func (b *Browser) Close() {
	b.w.Close()
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
}

func (b *Browser) read(r *os.File) {
	defer close(b.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
			Event
		}
		if json.Unmarshal(msg[:len(msg)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if c := b.replies[m.ID]; c != nil {
				c <- reply{m.Result, m.Error}
				delete(b.replies, m.ID)
			}
		} else {
			b.events = append(b.events, m.Event)
		}
		b.mu.Unlock()
	}
}

// Call sends a command to the page and returns its result.
func (b *Browser) Call(method string, params any) (json.RawMessage, error) {
	return b.call(b.session, method, params)
}

func (b *Browser) callInto(session, method string, params, into any) error {
	r, err := b.call(session, method, params)
	if err != nil {
		return err
	}
	return json.Unmarshal(r, into)
}

func (b *Browser) call(session, method string, params any) (json.RawMessage, error) {
	b.mu.Lock()
	b.next++
	id := b.next
	c := make(chan reply, 1)
	b.replies[id] = c
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if _, err := b.w.Write(append(data, 0)); err != nil {
		return nil, fmt.Errorf("%s: %v", method, err)
	}
	select {
	case r := <-c:
		if r.err != nil {
			return nil, fmt.Errorf("%s: %s", method, r.err)
		}
		return r.result, nil
	case <-b.done:
		return nil, fmt.Errorf("%s: Chromium ended", method)
	case <-time.After(5 * time.Minute):
		return nil, fmt.Errorf("%s: no answer in 5 minutes", method)
	}
}

// Navigate opens url in the page.
func (b *Browser) Navigate(url string) error {
	_, err := b.Call("Page.navigate", map[string]any{"url": url})
	return err
}

// Eval evaluates a JavaScript expression in the page (a promise is awaited) and
// decodes its value into v (nil: dropped).
func (b *Browser) Eval(expr string, v any) error {
	r, err := b.Call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	if err != nil {
		return err
	}
	var out struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(r, &out); err != nil {
		return err
	}
	if out.ExceptionDetails != nil {
		return fmt.Errorf("%.100s: %s", expr, out.ExceptionDetails)
	}
	if v == nil || out.Result.Value == nil {
		return nil
	}
	return json.Unmarshal(out.Result.Value, v)
}

// String evaluates a JavaScript expression whose value is a string ("" on error).
func (b *Browser) String(expr string) string {
	var s string
	_ = b.Eval(expr, &s)
	return s
}

// ErrTimeout is returned by WaitFor when the condition did not hold in time.
var ErrTimeout = errors.New("timed out")

// WaitFor polls a JavaScript condition (an exception counts as false) until it holds
// and returns how long that took, or ErrTimeout after d.
func (b *Browser) WaitFor(cond string, d time.Duration) (time.Duration, error) {
	start := time.Now()
	for {
		var ok bool
		if err := b.Eval("(() => { try { return Boolean("+cond+") } catch (e) { return false } })()", &ok); err != nil {
			return time.Since(start), err
		}
		if ok {
			return time.Since(start), nil
		}
		if time.Since(start) > d {
			return time.Since(start), ErrTimeout
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Drop drags the files at paths onto the element the CSS selector names and drops them
// there, as a user does.
func (b *Browser) Drop(selector string, paths ...string) error {
	var pos struct{ X, Y float64 }
	sel, _ := json.Marshal(selector)
	if err := b.Eval(`(() => { const r = document.querySelector(`+string(sel)+`).getBoundingClientRect(); return {x: r.x + r.width/2, y: r.y + r.height/2}; })()`, &pos); err != nil {
		return err
	}
	data := map[string]any{"items": []any{}, "files": paths, "dragOperationsMask": 1}
	for _, typ := range []string{"dragEnter", "dragOver", "drop"} {
		if _, err := b.Call("Input.dispatchDragEvent", map[string]any{"type": typ, "x": pos.X, "y": pos.Y, "data": data}); err != nil {
			return err
		}
	}
	return nil
}

// SetFiles gives the file input the CSS selector names the files (or, for a folder
// input, the folder) at paths, as a user picking them does.
func (b *Browser) SetFiles(selector string, paths ...string) error {
	var doc struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	r, err := b.Call("DOM.getDocument", nil)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(r, &doc); err != nil {
		return err
	}
	var node struct {
		NodeID int `json:"nodeId"`
	}
	r, err = b.Call("DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": selector})
	if err != nil {
		return err
	}
	if err := json.Unmarshal(r, &node); err != nil {
		return err
	}
	_, err = b.Call("DOM.setFileInputFiles", map[string]any{"files": paths, "nodeId": node.NodeID})
	return err
}

// Requests are the URLs the page asked for (Network.requestWillBeSent), in order.
func (b *Browser) Requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, e := range b.events {
		if e.Method == "Network.requestWillBeSent" {
			var p struct {
				Request struct{ URL string } `json:"request"`
			}
			_ = json.Unmarshal(e.Params, &p)
			out = append(out, p.Request.URL)
		}
	}
	return out
}

// Logs are the browser's log entries and uncaught exceptions (a Content-Security-Policy
// violation is one), one line each.
func (b *Browser) Logs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, e := range b.events {
		if e.Method == "Log.entryAdded" || e.Method == "Runtime.exceptionThrown" {
			out = append(out, e.Method+" "+strings.TrimSpace(string(e.Params)))
		}
	}
	return out
}

// Screenshot returns a PNG of the page at the given viewport size.
func (b *Browser) Screenshot(width, height int) ([]byte, error) {
	if _, err := b.Call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}); err != nil {
		return nil, err
	}
	var r struct{ Data []byte }
	err := b.callInto(b.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	return r.Data, err
}
