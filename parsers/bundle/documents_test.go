package bundle_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"mime/quotedprintable"
	"sort"
	"strings"
	"testing"

	. "github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// ticketMail wraps body (quoted-printable) and attachments (base64) in a ticket mail.
func ticketMail(t *testing.T, body string, attach map[string][]byte) string {
	t.Helper()
	var qp bytes.Buffer
	w := quotedprintable.NewWriter(&qp)
	if _, err := w.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	var b strings.Builder
	b.WriteString("From: Ann <ann@example.com>\nTo: support@example.com\nSubject: [Ticket 42] namespace stuck\n" +
		"Date: Mon, 23 Nov 2026 10:15:00 +0100\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"b1\"\n\n" +
		"--b1\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n")
	b.WriteString(strings.ReplaceAll(qp.String(), "\r\n", "\n"))
	b.WriteString("\n")
	names := make([]string, 0, len(attach))
	for n := range attach {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "--b1\nContent-Type: application/octet-stream; name=%q\nContent-Disposition: attachment; filename=%q\nContent-Transfer-Encoding: base64\n\n", n, n)
		enc := base64.StdEncoding.EncodeToString(attach[n])
		for len(enc) > 76 {
			b.WriteString(enc[:76] + "\n")
			enc = enc[76:]
		}
		b.WriteString(enc + "\n")
	}
	b.WriteString("--b1--\n")
	return b.String()
}

func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not in the text", s)
	return 0
}

// TestMailTicket: a ticket exported from a mailbox is a bundle: its quoted-printable
// body is read as kubectl text citing the .eml's lines, an attached bundle (.tar.gz of
// a fixture) is opened like an archive inside the bundle and gives the objects the
// fixture gives, an attached text file is a file of its own (`ticket.eml#3/notes.txt`).
func TestMailTicket(t *testing.T) {
	fixture := "../../fixtures/handmade/conversion-webhook"
	var tgz bytes.Buffer
	gz := gzip.NewWriter(&tgz)
	var files []bfile
	for _, f := range readTree(t, fixture) {
		if f.name != "expected.json" && f.name != "README.md" {
			files = append(files, f)
		}
	}
	writeTar(t, gz, "bundle/", files)
	gz.Close()
	body := "Hello,\n\nour namespace hangs, see below and the attached bundle.\n\n$ kubectl get ns\n" +
		"NAME              STATUS        AGE\ndefault           Active        12d\nticket-ns         Terminating   23m\n\n" +
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAnot-a-real-key\n-----END RSA PRIVATE KEY-----\n\nAnn " + strings.Repeat("with a long signature ", 6) + "\n"
	eml := ticketMail(t, body, map[string][]byte{
		"bundle.tar.gz": tgz.Bytes(),
		"notes.txt":     []byte("$ kubectl get ns other\nNAME    STATUS        AGE\nother   Terminating   5m\n"),
	})
	dir := writeTree(t, t.TempDir(), []bfile{
		{name: "ticket.eml", data: []byte(eml)},
		{name: "screenshot.png", data: []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")},
		{name: "tls.txt", data: []byte("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\n")},
	})
	rec, err := Load(dir, Options{RecordReads: true})
	if err != nil {
		t.Fatal(err)
	}
	direct, err := Load(fixture, Options{Exclude: []string{"expected.json", "README.md"}})
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]string{}
	var fromAttachment []string
	for _, o := range rec.Objects {
		byFile[o.Kind+"/"+o.Name] = fmt.Sprintf("%s:%d", o.Source.File, o.Source.Line)
		if strings.HasPrefix(o.Source.File, "ticket.eml#2/bundle.tar.gz/") {
			fromAttachment = append(fromAttachment, o.Kind+"/"+o.Namespace+"/"+o.Name)
		}
	}
	if got, want := byFile["Namespace/ticket-ns"], fmt.Sprintf("ticket.eml:%d", lineOf(t, eml, "ticket-ns ")); got != want {
		t.Errorf("table row at %s, want %s (the .eml's line)", got, want)
	}
	if got, want := byFile["Namespace/other"], "ticket.eml#3/notes.txt:3"; got != want {
		t.Errorf("attached text's row at %s, want %s", got, want)
	}
	var want []string
	for _, o := range direct.Objects {
		want = append(want, o.Kind+"/"+o.Namespace+"/"+o.Name)
	}
	sort.Strings(fromAttachment)
	sort.Strings(want)
	if len(want) == 0 || strings.Join(fromAttachment, " ") != strings.Join(want, " ") {
		t.Errorf("objects of the attached bundle:\n%v\nthe fixture read directly:\n%v", fromAttachment, want)
	}
	reads := map[string]FileRead{}
	for _, r := range rec.Reads {
		reads[r.Path] = r
	}
	for path, skipped := range map[string]string{"screenshot.png": "binary (a PNG image)", "tls.txt": "a PEM private key (not read)"} {
		if r := reads[path]; r.Skipped != skipped {
			t.Errorf("%s: %+v, want skipped %q", path, r, skipped)
		}
	}
	if r := reads["ticket.eml"]; r.As != ReadKubectlText || r.Format != FormatMail {
		t.Errorf("ticket.eml read as %+v", r)
	}
	if r := reads["ticket.eml#2/bundle.tar.gz"]; r.As != ReadArchive {
		t.Errorf("the attached bundle read as %+v", r)
	}
	keyWarned := false
	for _, w := range rec.Warnings {
		if w.File == "ticket.eml" && strings.Contains(w.Message, "PEM private key block") {
			keyWarned = true
		}
		if strings.Contains(w.Message, "MIIEowIBAAKCAQEA") {
			t.Errorf("the key is quoted: %s", w)
		}
	}
	if !keyWarned {
		t.Errorf("no warning about the private key in the mail body: %v", rec.Warnings)
	}
}

// TestSavedPage: an HTML page and a Markdown ticket are read whatever their names;
// records cite the original file's lines.
func TestSavedPage(t *testing.T) {
	page := "<!DOCTYPE html>\n<html><head><title>x</title></head><body>\n<p>stuck:</p>\n<pre><code>$ kubectl get ns\nNAME   STATUS        AGE\nweb    Terminating   &lt;invalid&gt;\n</code></pre>\n</body></html>\n"
	md := "# Ticket\n\n<details><summary>get ns</summary>\n\n```console\n$ kubectl get ns\nNAME   STATUS        AGE\ndocs   Terminating   2d\n```\n</details>\n"
	dir := writeTree(t, t.TempDir(), []bfile{{name: "issue.htm.txt", data: []byte(page)}, {name: "ticket.md", data: []byte(md)}})
	rec, err := Load(dir, Options{RecordReads: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range rec.Objects {
		got[o.Name] = fmt.Sprintf("%s:%d", o.Source.File, o.Source.Line)
	}
	if got["web"] != "issue.htm.txt:6" || got["docs"] != "ticket.md:8" {
		t.Errorf("objects at %v, want web at issue.htm.txt:6, docs at ticket.md:8", got)
	}
	for _, r := range rec.Reads {
		if f := map[string]string{"issue.htm.txt": FormatHTML, "ticket.md": FormatMarkdown}[r.Path]; r.Format != f {
			t.Errorf("%s read as %+v, want format %q", r.Path, r, f)
		}
	}
}
