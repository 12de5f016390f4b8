package mail

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
)

// ticket is a support ticket as a mailbox exports it: a quoted-printable body with a
// soft-broken kubectl line, its HTML alternative, a base64 text attachment.
const ticket = `Return-Path: <ann@example.com>
From: Ann <ann@example.com>
To: support@example.com
Subject: =?UTF-8?Q?namespace_stuck_=E2=80=94_foo?=
Date: Mon, 23 Nov 2026 10:15:00 +0100
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="outer"

--outer
Content-Type: multipart/alternative; boundary="alt"

--alt
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

$ kubectl get ns
NAME   STATUS        AGE
foo    Terminating   23m
E1123 09:01:02.000000       1 namespace_controller.go:162] deletion of namespac=
e foo failed: unable to retrieve the complete list of server APIs: metrics.=
k8s.io/v1beta1: the server is currently unable to handle the request
caf=C3=A9 =3D ok
--alt
Content-Type: text/html; charset=utf-8

<p>the same, in HTML</p>
--alt--

--outer
Content-Type: text/plain; name="notes.txt"
Content-Disposition: attachment; filename="notes.txt"
Content-Transfer-Encoding: base64

TkFNRSAgIFNUQVRVUyAgICAgICAgQUdFCmJhciAgICBUZXJtaW5hdGluZyAgIDFkCg==
--outer--
`

func parse(t *testing.T, s string) ([]Part, []string) {
	t.Helper()
	var warns []string
	parts := Parse([]byte(s), func(line int, format string, args ...any) {
		warns = append(warns, fmt.Sprintf("%d: %s", line, fmt.Sprintf(format, args...)))
	})
	return parts, warns
}

// TestTicket: the plain alternative only, decoded, each line citing the file's line
// where it starts; the attachment as a file with its name; the headers decoded.
func TestTicket(t *testing.T) {
	parts, warns := parse(t, ticket)
	if len(warns) > 0 {
		t.Errorf("warnings: %q", warns)
	}
	if len(parts) != 2 {
		t.Fatalf("%d parts, want the plain body and the attachment: %+v", len(parts), parts)
	}
	body := parts[0]
	if body.Attached || body.Type != "text/plain" || body.Subject != "namespace stuck — foo" || body.Date.UTC().Hour() != 9 {
		t.Errorf("body part %+v", body)
	}
	lines := strings.Split(strings.TrimSuffix(string(body.Body), "\n"), "\n")
	want := []struct {
		text string
		line int
	}{
		{"$ kubectl get ns", 16},
		{"NAME   STATUS        AGE", 17},
		{"foo    Terminating   23m", 18},
		{"E1123 09:01:02.000000       1 namespace_controller.go:162] deletion of namespace foo failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request", 19},
		{"café = ok", 22},
	}
	if len(lines) != len(want) || len(body.Lines) != len(lines) {
		t.Fatalf("lines %q (origins %v)", lines, body.Lines)
	}
	for i, w := range want {
		if lines[i] != w.text || body.Lines[i] != w.line {
			t.Errorf("line %d: %q at %d, want %q at %d", i, lines[i], body.Lines[i], w.text, w.line)
		}
	}
	att := parts[1]
	if !att.Attached || att.Name != "notes.txt" || att.Num != 2 || att.Lines != nil || att.Line != 34 ||
		string(att.Body) != "NAME   STATUS        AGE\nbar    Terminating   1d\n" {
		t.Errorf("attachment %+v (%q)", att, att.Body)
	}
}

// TestMbox: a mailbox holds messages after `From ` lines; each has its headers and
// its lines are the file's.
func TestMbox(t *testing.T) {
	box := "From ann@example.com Mon Nov 23 10:15:00 2026\nFrom: Ann <ann@example.com>\nSubject: one\nDate: Mon, 23 Nov 2026 10:15:00 +0000\n\nfirst body\nFrom the start (not a separator: no blank line before)\n\nFrom bob@example.com Tue Nov 24 10:15:00 2026\nFrom: Bob <bob@example.com>\nSubject: two\nContent-Type: text/plain; charset=iso-8859-1\n\nsecond caf\xe9\n"
	parts, warns := parse(t, box)
	if len(warns) > 0 || len(parts) != 2 {
		t.Fatalf("parts %+v, warnings %q", parts, warns)
	}
	if parts[0].Subject != "one" || string(parts[0].Body) != "first body\nFrom the start (not a separator: no blank line before)\n\n" || parts[0].Lines[0] != 6 {
		t.Errorf("first %+v %q", parts[0], parts[0].Body)
	}
	if parts[1].Subject != "two" || string(parts[1].Body) != "second café\n" || parts[1].Lines[0] != 14 {
		t.Errorf("second %+v %q", parts[1], parts[1].Body)
	}
}

// TestDamaged: what does not parse is read as text, with a warning on its line.
func TestDamaged(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		parts    int
		warn     string
	}{
		{"cut before the closing boundary", "From: a\nDate: Mon, 23 Nov 2026 10:15:00 +0000\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nbody\n", 1, "7: multipart mail part without its closing boundary"},
		{"no boundary line", "From: a\nTo: b\nContent-Type: multipart/mixed; boundary=b\n\nbody\n", 1, "5: multipart mail part without any boundary"},
		{"bad base64", "From: a\nTo: b\nContent-Transfer-Encoding: base64\n\n!!!!\n", 1, "5: mail part 1: base64 body does not decode"},
		{"bad date", "From: a\nDate: yesterday\n\nx\n", 1, "1: mail Date header \"yesterday\" does not parse"},
		{"bad content type", "From: a\nTo: b\nContent-Type: ;;\n\nx\n", 1, "1: mail part Content-Type"},
		{"nested too deep", "From: a\nTo: b\n" + strings.Repeat("Content-Type: message/rfc822\n\n", MaxDepth+2) + "x\n", 0, "mail messages nested more than"},
	} {
		parts, warns := parse(t, tc.in)
		if len(parts) != tc.parts || len(warns) == 0 || !strings.HasPrefix(warns[0], tc.warn) && !strings.Contains(warns[0], tc.warn) {
			t.Errorf("%s: %d parts, warnings %q; want %d parts and %q", tc.name, len(parts), warns, tc.parts, tc.warn)
		}
	}
}

// TestLooks: by the headers every mail has, not by a file's name; kubectl describe
// (`Name:`, `Namespace:`) is no mail.
func TestLooks(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{ticket, true},
		{"From ann@example.com Mon Nov 23 10:15:00 2026\nFrom: a\nSubject: x\n\n", true},
		{"Received: from mx\n\tby mx2\nMessage-ID: <a@b>\nX-Thing: y\n\nbody", true},
		{"Name:         foo\nNamespace:    \nLabels:       <none>\nStatus:       Terminating\n", false},
		{"Subject: only one\n\nbody", false},
		{"From: a\nthis is prose: not a header\nTo: b\n\n", false},
		{"NAME   STATUS\n", false},
	} {
		if got := Looks([]byte(tc.head)); got != tc.want {
			t.Errorf("Looks(%.40q) = %v", tc.head, got)
		}
	}
}

// TestParseLinear: the work grows with the input whatever it repeats (boundaries,
// soft breaks, nested parts, headers, mbox separators).
func TestParseLinear(t *testing.T) {
	for _, tc := range []struct{ head, unit string }{
		{"From: a\nTo: b\nContent-Transfer-Encoding: quoted-printable\n\n", "abc=\n"},
		{"From: a\nTo: b\nContent-Type: multipart/mixed; boundary=b\n\n", "--b\nContent-Type: text/plain\n\nx\n"},
		{"From: a\nTo: b\nContent-Type: multipart/mixed; boundary=b\n\n", "--b\nContent-Type: multipart/mixed; boundary=b\n\n"},
		{"From: a\nTo: b\n", "X-H: v\n v\n"},
		{"From x\nFrom: a\n\n", "\nFrom y\nTo: b\n"},
		{"From: a\nTo: b\nContent-Transfer-Encoding: base64\n\n", "QUJD\n"},
	} {
		hostile.CheckLinear(t, fmt.Sprintf("%.30q", tc.unit), func(n int) int64 {
			parts := Parse([]byte(tc.head+strings.Repeat(tc.unit, n)), func(int, string, ...any) {})
			var c int64
			for _, p := range parts {
				c += int64(len(p.Body))
			}
			return c
		}, 5000)
	}
}

// FuzzParse: never a panic; every line a part cites is a line of the file; bodies
// no longer than the file; at most MaxParts parts.
func FuzzParse(f *testing.F) {
	f.Add(ticket)
	f.Add("From x\nFrom: a\n\nb\n\nFrom y\nContent-Type: multipart/alternative; boundary=q\n\n--q\nContent-Transfer-Encoding: quoted-printable\n\na=\n=3D\n--q--\n")
	if files, _ := filepath.Glob("../../fixtures/realworld/*/*.eml"); len(files) > 0 {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		parts := Parse([]byte(s), func(line int, format string, args ...any) {
			if line < 0 || line > strings.Count(s, "\n")+1 {
				t.Fatalf("warning on line %d: "+format, append([]any{line}, args...)...)
			}
		})
		if len(parts) > MaxParts {
			t.Fatalf("%d parts", len(parts))
		}
		lines := strings.Count(s, "\n") + 1
		for _, p := range parts {
			if len(p.Body) > 2*len(s)+1 {
				t.Fatalf("part %d: %d bytes from %d", p.Num, len(p.Body), len(s))
			}
			if p.Line < 1 || p.Line > lines {
				t.Fatalf("part %d starts on line %d of %d", p.Num, p.Line, lines)
			}
			for _, l := range p.Lines {
				if l < 1 || l > lines {
					t.Fatalf("part %d cites line %d of %d", p.Num, l, lines)
				}
			}
		}
	})
}
