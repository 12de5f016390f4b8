package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"mime/quotedprintable"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// wrappedDiagnosis is what a report concludes: exit code, and each stuck namespace with its
// causes and what they name (the citations differ between wrappings: not compared).
func wrappedDiagnosis(t *testing.T, dir string) string {
	t.Helper()
	var out, errb bytes.Buffer
	code := run([]string{"-o", "json", "--exclude", "raw", "--exclude", "expected.json", "--exclude", "README.md", dir}, &out, &errb)
	var rep findings.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%s: report is not JSON: %v\n%s", dir, err, errb.String())
	}
	var ns []string
	for _, n := range rep.Namespaces {
		var cs []string
		for _, c := range n.Causes {
			cs = append(cs, fmt.Sprintf("%s gv=%v api=%v fin=%v hooks=%v", c.Type, c.GroupVersions, c.APIServices, c.Finalizers, c.Webhooks))
		}
		sort.Strings(cs)
		ns = append(ns, n.Name+": "+strings.Join(cs, "; "))
	}
	sort.Strings(ns)
	return fmt.Sprintf("exit %d\n%s", code, strings.Join(ns, "\n"))
}

func qpEncode(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := quotedprintable.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return strings.ReplaceAll(b.String(), "\r\n", "\n")
}

// mailOf is a ticket mail: body quoted-printable, attachments base64.
func mailOf(t *testing.T, body string, name string, attachment []byte) []byte {
	t.Helper()
	var b strings.Builder
	b.WriteString("From: Ann <ann@example.com>\nTo: support@example.com\nSubject: namespace stuck\nDate: Mon, 23 Nov 2026 10:15:00 +0100\n" +
		"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"=_b\"\n\n--=_b\nContent-Type: text/plain; charset=utf-8\n" +
		"Content-Transfer-Encoding: quoted-printable\n\n" + qpEncode(t, body) + "\n")
	if attachment != nil {
		fmt.Fprintf(&b, "--=_b\nContent-Type: application/gzip\nContent-Disposition: attachment; filename=%q\nContent-Transfer-Encoding: base64\n\n", name)
		enc := base64.StdEncoding.EncodeToString(attachment)
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\n")
	}
	b.WriteString("--=_b--\n")
	return []byte(b.String())
}

// fixtureTarGz packs the files of a fixture (expected.json, README.md and raw/ left out).
func fixtureTarGz(t *testing.T, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == "raw" {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "expected.json" || rel == "README.md" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: "bundle/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// TestTicketWrappings: the same evidence as a plain file, as an HTML page (a GitHub
// issue saved from a browser: the text in <pre>), as a Markdown ticket (fenced), as an
// e-mail (quoted-printable body), and a bundle attached to an e-mail as a .tar.gz: the
// diagnosis is the same every time.
func TestTicketWrappings(t *testing.T) {
	for _, tc := range []struct{ fixture, file string }{
		{"realworld/agones-system-2020-table-and-api-resources-stderr", "debug-notes.txt"},
		{"realworld/rook-ceph-yaml-tail-n40-fragment-content-remaining", "zsh-session.txt"},
		{"realworld/kubeflow-kfctl-cert-manager-webhook-memcache", ""},
		{"handmade/conversion-webhook", ""},
		{"handmade/text-describe-ns-trimmed", ""},
	} {
		dir := filepath.Join("..", "..", "fixtures", filepath.FromSlash(tc.fixture))
		want := wrappedDiagnosis(t, dir)
		if !strings.Contains(want, ": ") {
			t.Fatalf("%s: nothing stuck in the fixture itself:\n%s", tc.fixture, want)
		}
		wraps := map[string][]byte{"attached.eml": mailOf(t, "Hello,\n\nthe bundle is attached.\n\nAnn\n", "bundle.tar.gz", fixtureTarGz(t, dir))}
		if tc.file != "" {
			src, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			s := string(src)
			wraps["issue.html"] = []byte("<!DOCTYPE html>\n<html><head><title>Issue</title><script>var a = 1 < 2;</script></head>\n<body><nav>Issues</nav>\n" +
				"<p>The namespace hangs:</p>\n<pre><code>" + html.EscapeString(s) + "</code></pre>\n<p>Any idea?</p>\n<footer>&copy; GitHub</footer></body></html>\n")
			wraps["ticket.md"] = []byte("## What happened\n\nThe namespace hangs:\n\n```console\n" + s + "```\n\nAny idea?\n")
			// (no signature after the text: a value the paste cut open would read on into
			// it, as in the plain file with the same line appended)
			wraps["ticket.eml"] = mailOf(t, "Hello,\n\n"+s, "", nil)
			wraps["fenced.eml"] = mailOf(t, "Hello,\n\n```\n"+s+"```\n\nAnn\n", "", nil)
		}
		for name, data := range wraps {
			t.Run(tc.fixture+"/"+name, func(t *testing.T) {
				tmp := t.TempDir()
				if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
				if got := wrappedDiagnosis(t, tmp); got != want {
					t.Errorf("diagnosis of %s:\n%s\nwant (the fixture's):\n%s", name, got, want)
				}
			})
		}
	}
}
