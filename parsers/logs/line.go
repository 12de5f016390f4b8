package logs

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// lineParser turns one physical line into an Entry. It holds the options that decide
// how year-less times are completed.
type lineParser struct {
	reference time.Time      // klog years are chosen so that times do not lie after reference+2 days
	location  *time.Location // zone of klog times
}

// parse fills e from line. It never fails: a line in no known format becomes a plain
// message. It reports whether the line carried a klog/JSON record header (a line
// without one may be a continuation of the previous record).
func (p *lineParser) parse(line []byte, e *Entry) (hasHeader bool) {
	line = bytes.TrimRight(line, "\r\n")
	e.Text = capText(line)
	content, outer, src := stripFraming(line)
	if !outer.IsZero() {
		e.Time, e.TimeSource = outer, src
	}
	if len(content) > 0 && content[0] == '{' {
		if p.parseJSON(content, e) {
			return true
		}
	}
	if p.parseKlog(content, e) {
		return true
	}
	e.Message = string(bytes.TrimSpace(content))
	return false
}

func capText(b []byte) string {
	if len(b) > MaxTextBytes {
		return string(b[:MaxTextBytes]) + "…"
	}
	return string(b)
}

// stripFraming removes a container-runtime or collector prefix and returns the time it
// carried. Recognised: CRI (`<RFC3339Nano> stdout|stderr F|P <content>`), docker
// json-file (`{"log":...,"stream":...,"time":...}`), and a bare RFC3339 timestamp
// prefix (kubectl logs --timestamps, must-gather).
func stripFraming(line []byte) (content []byte, t time.Time, source string) {
	if len(line) > 20 && line[4] == '-' && line[7] == '-' && line[10] == 'T' && isDigit(line[0]) {
		sp := bytes.IndexByte(line, ' ')
		if sp > 0 {
			ts, err := time.Parse(time.RFC3339Nano, string(line[:sp]))
			if err == nil {
				rest := line[sp+1:]
				if bytes.HasPrefix(rest, []byte("stdout ")) || bytes.HasPrefix(rest, []byte("stderr ")) {
					rest = rest[7:]
					if sp2 := bytes.IndexByte(rest, ' '); sp2 >= 0 {
						rest = rest[sp2+1:]
					} else {
						rest = nil
					}
					return rest, ts, "cri"
				}
				return rest, ts, "timestamp-prefix"
			}
		}
	}
	if bytes.HasPrefix(line, []byte(`{"log":`)) {
		var d struct {
			Log  string `json:"log"`
			Time string `json:"time"`
		}
		if json.Unmarshal(line, &d) == nil {
			ts, _ := time.Parse(time.RFC3339Nano, d.Time)
			return []byte(strings.TrimRight(d.Log, "\n")), ts, "docker"
		}
	}
	return line, time.Time{}, ""
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// parseKlog reads `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`.
func (p *lineParser) parseKlog(b []byte, e *Entry) bool {
	// shortest header: "I0102 15:04:05.000000 1 f:1] " = 30 bytes
	if len(b) < 30 {
		return false
	}
	switch b[0] {
	case 'I', 'W', 'E', 'F':
	default:
		return false
	}
	if b[5] != ' ' || b[8] != ':' || b[11] != ':' || b[14] != '.' {
		return false
	}
	for _, i := range []int{1, 2, 3, 4, 6, 7, 9, 10, 12, 13} {
		if !isDigit(b[i]) {
			return false
		}
	}
	month, _ := strconv.Atoi(string(b[1:3]))
	day, _ := strconv.Atoi(string(b[3:5]))
	hh, _ := strconv.Atoi(string(b[6:8]))
	mm, _ := strconv.Atoi(string(b[9:11]))
	ss, _ := strconv.Atoi(string(b[12:14]))
	i := 15
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	frac := b[15:i]
	// thread id
	for i < len(b) && b[i] == ' ' {
		i++
	}
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	if i >= len(b) || b[i] != ' ' {
		return false
	}
	i++
	end := bytes.Index(b[i:], []byte("] "))
	if end < 0 {
		if bytes.HasSuffix(b, []byte("]")) {
			end = len(b) - 1 - i
		} else {
			return false
		}
	}
	caller := string(b[i : i+end])
	if !strings.Contains(caller, ":") {
		return false
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60 {
		return false
	}
	msg := b[min(i+end+2, len(b)):]
	e.Severity = string(b[0])
	e.Caller = caller
	if e.Time.IsZero() {
		nsec := 0
		if len(frac) > 0 {
			f, _ := strconv.Atoi(string(frac))
			nsec = f * int(math.Pow10(9-len(frac)))
		}
		e.Time, e.YearInferred = p.completeYear(time.Month(month), day, hh, mm, ss, nsec)
		e.TimeSource = "klog"
	}
	parseMessage(msg, e)
	return true
}

// completeYear chooses the year of a klog time: the reference's year, or the year
// before when that would put the time more than two days after the reference (a log
// from December read with a January reference).
func (p *lineParser) completeYear(month time.Month, day, hh, mm, ss, nsec int) (time.Time, bool) {
	loc := p.location
	if loc == nil {
		loc = time.UTC
	}
	ref := p.reference
	if ref.IsZero() {
		ref = time.Now()
	}
	t := time.Date(ref.Year(), month, day, hh, mm, ss, nsec, loc)
	if t.After(ref.Add(48 * time.Hour)) {
		t = time.Date(ref.Year()-1, month, day, hh, mm, ss, nsec, loc)
	}
	return t.UTC(), true
}

// parseMessage reads a klog message: structured (`"msg" k=v ...`) or printf text.
func parseMessage(msg []byte, e *Entry) {
	if len(msg) > 0 && msg[0] == '"' {
		if s, rest, ok := readQuoted(msg); ok {
			e.Message = s
			e.Fields = parseKV(rest)
			return
		}
	}
	e.Message = string(bytes.TrimSpace(msg))
}

// readQuoted reads a Go-quoted string at the start of b.
func readQuoted(b []byte) (string, []byte, bool) {
	esc := false
	for i := 1; i < len(b); i++ {
		switch {
		case esc:
			esc = false
		case b[i] == '\\':
			esc = true
		case b[i] == '"':
			s, err := strconv.Unquote(string(b[:i+1]))
			if err != nil {
				return string(b[1:i]), b[i+1:], true
			}
			return s, b[i+1:], true
		}
	}
	return "", b, false
}

// parseKV reads klog's ` key=value` pairs. Values are Go-quoted strings, bare tokens,
// or `<` (a multi-line block whose lines follow on the next physical lines).
func parseKV(b []byte) map[string]string {
	var m map[string]string
	for {
		b = bytes.TrimLeft(b, " ")
		eq := bytes.IndexByte(b, '=')
		if eq <= 0 {
			return m
		}
		key := string(b[:eq])
		if strings.ContainsAny(key, " \"") {
			return m
		}
		b = b[eq+1:]
		var val string
		switch {
		case len(b) > 0 && b[0] == '"':
			s, rest, ok := readQuoted(b)
			if !ok {
				val, b = string(b), nil
			} else {
				val, b = s, rest
			}
		default:
			sp := bytes.IndexByte(b, ' ')
			if sp < 0 {
				sp = len(b)
			}
			val, b = string(b[:sp]), b[sp:]
		}
		if m == nil {
			m = map[string]string{}
		}
		m[key] = val
	}
}

// parseJSON reads component-base JSON logging: {"ts":<ms>,"caller":"dir/file.go:N","msg":...,"err":...}.
func (p *lineParser) parseJSON(b []byte, e *Entry) bool {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return false
	}
	msg, hasMsg := m["msg"].(string)
	if !hasMsg {
		return false
	}
	e.Message = msg
	if ts, ok := m["ts"].(float64); ok && e.Time.IsZero() {
		sec, frac := math.Modf(ts / 1000)
		e.Time = time.Unix(int64(sec), int64(frac*1e9)).UTC()
		e.TimeSource = "json"
	}
	if c, ok := m["caller"].(string); ok {
		if i := strings.LastIndexByte(c, '/'); i >= 0 {
			c = c[i+1:]
		}
		e.Caller = c
	}
	if _, ok := m["v"]; ok {
		e.Severity = "I"
	} else {
		e.Severity = "E"
	}
	for k, v := range m {
		switch k {
		case "ts", "msg", "caller", "v":
			continue
		}
		if e.Fields == nil {
			e.Fields = map[string]string{}
		}
		switch x := v.(type) {
		case string:
			e.Fields[k] = x
		default:
			enc, _ := json.Marshal(x)
			e.Fields[k] = string(enc)
		}
	}
	return true
}
