package filekind

import (
	"strings"
	"testing"
)

// TestBinary: formats tickets attach, told by their first bytes whatever the name.
func TestBinary(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"},
		{"\xff\xd8\xff\xe0\x00\x10JFIF", "a JPEG image"},
		{"%PDF-1.7\n%\xe2\xe3\xcf\xd3", "a PDF document"},
		{"RIFF\x10\x00\x00\x00WEBPVP8 ", "a WebP image"},
		{"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">", "an SVG image"},
		{"0\x82\x03\x1e0\x82\x02\x06", "a DER certificate or key"},
		{"NAME   STATUS   AGE\n", ""},
		{"<!DOCTYPE html>", ""},
		{"BM is not enough", ""},
	} {
		if got := Binary([]byte(tc.head)); got != tc.want {
			t.Errorf("Binary(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}

// TestPEM: a file that starts with a PEM block; a private key of any algorithm.
func TestPEM(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE\n", "a PEM private key"},
		{"\n  -----BEGIN OPENSSH PRIVATE KEY-----\r\nb3Bl\n", "a PEM private key"},
		{"-----BEGIN PRIVATE KEY-----\n", "a PEM private key"},
		{"-----BEGIN CERTIFICATE-----\nMIID\n", "a PEM certificate"},
		{"-----BEGIN CERTIFICATE REQUEST-----\n", "a PEM certificate"},
		{"-----BEGIN PUBLIC KEY-----\n", "a PEM block (PUBLIC KEY)"},
		{"I1123 cert.go:1] -----BEGIN CERTIFICATE-----", ""},
		{"apiVersion: v1\n", ""},
	} {
		if got := PEM([]byte(tc.head)); got != tc.want {
			t.Errorf("PEM(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}

// TestMaskPrivateKeys: key blocks blanked, armour included, line count kept;
// certificates and the text around kept.
func TestMaskPrivateKeys(t *testing.T) {
	in := "a\n-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\nMIID\n-----END CERTIFICATE-----\nb\n  -----BEGIN PRIVATE KEY-----\ncut here"
	lines := strings.Split(in, "\n")
	n := MaskPrivateKeys(lines)
	want := "a\n\n\n\n-----BEGIN CERTIFICATE-----\nMIID\n-----END CERTIFICATE-----\nb\n\n"
	if n != 2 || strings.Join(lines, "\n") != want {
		t.Errorf("%d blocks, %q; want 2, %q", n, strings.Join(lines, "\n"), want)
	}
}

// FuzzKinds: never a panic; masking keeps the line count and never adds text.
func FuzzKinds(f *testing.F) {
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----\n")
	f.Add("\x89PNG\r\n\x1a\n")
	f.Fuzz(func(t *testing.T, s string) {
		Binary([]byte(s))
		PEM([]byte(s))
		lines := strings.Split(s, "\n")
		n := len(lines)
		MaskPrivateKeys(lines)
		if len(lines) != n || len(strings.Join(lines, "\n")) > len(s) {
			t.Fatalf("masking changed the line count or grew the text")
		}
	})
}
