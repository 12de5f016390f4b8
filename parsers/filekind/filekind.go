// Package filekind tells, from a file's first bytes and never from its name, the files
// of a bundle that are not text to read: images, PDF documents and other binary formats
// by their magic bytes, and PEM blocks (a certificate, and above all a private key,
// which is never read) by their armour lines. Text of any name is read.
package filekind

import (
	"bytes"
	"strings"
)

var magics = []struct {
	magic []byte
	what  string
}{
	{[]byte("\x89PNG\r\n\x1a\n"), "a PNG image"},
	{[]byte("\xff\xd8\xff"), "a JPEG image"},
	{[]byte("GIF87a"), "a GIF image"},
	{[]byte("GIF89a"), "a GIF image"},
	{[]byte("%PDF-"), "a PDF document"},
	{[]byte("II*\x00"), "a TIFF image"},
	{[]byte("MM\x00*"), "a TIFF image"},
	{[]byte("\x00\x00\x01\x00"), "an icon"},
	{[]byte("wOFF"), "a web font"},
	{[]byte("wOF2"), "a web font"},
}

// Binary names what a file is when its first bytes are those of a binary format it
// knows ("a PNG image", "a PDF document", ...: what tickets attach); "" otherwise (the
// content decides then: other binary files are told by their bytes, objects.Sniff).
func Binary(head []byte) string {
	for _, m := range magics {
		if bytes.HasPrefix(head, m.magic) {
			return m.what
		}
	}
	if len(head) >= 12 && bytes.HasPrefix(head, []byte("RIFF")) && string(head[8:12]) == "WEBP" {
		return "a WebP image"
	}
	if t := bytes.TrimLeft(head, " \t\r\n"); bytes.HasPrefix(t, []byte("<svg")) ||
		bytes.HasPrefix(t, []byte("<?xml")) && bytes.Contains(t[:min(len(t), 512)], []byte("<svg")) {
		return "an SVG image"
	}
	if len(head) >= 2 && head[0] == 0x30 && head[1] == 0x82 {
		return "a DER certificate or key" // ASN.1 SEQUENCE with a two-byte length
	}
	return ""
}

// PEM names the PEM block a file starts with ("a PEM private key", "a PEM
// certificate", ...), "" when its first non-blank line is no PEM armour line.
func PEM(head []byte) string {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if !bytes.HasPrefix(t, []byte("-----BEGIN ")) {
		return ""
	}
	line := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		line = t[:i]
	}
	label := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(string(line), "-----BEGIN ")), "-----")
	switch {
	case strings.Contains(label, "PRIVATE KEY"):
		return "a PEM private key"
	case strings.Contains(label, "CERTIFICATE"):
		return "a PEM certificate"
	}
	return "a PEM block (" + label + ")"
}

// MaskPrivateKeys blanks the lines of the PEM private key blocks in lines, armour lines
// included (the line count stays, so every other line keeps its number), and returns
// how many blocks it blanked. A block without its END line is blanked to the end.
func MaskPrivateKeys(lines []string) int {
	n := 0
	in := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !in && strings.HasPrefix(t, "-----BEGIN ") && strings.Contains(t, "PRIVATE KEY-----") {
			in = true
			n++
		}
		if in {
			lines[i] = ""
			if strings.HasPrefix(t, "-----END ") {
				in = false
			}
		}
	}
	return n
}
