package mail

import (
	netmail "net/mail"
	"testing"
	"time"
)

var dateSeeds = []string{
	"Mon, 02 Jan 2006 15:04:05 -0700",
	"Thu, 20 Nov 1997 09:55:06 MDT",
	"Thu, 20 Nov 1997 09:55:06 MDT (MDT)",
	"Tue, 1 Jul 2003 10:52:37 +0200 (CEST)",
	"21 Nov 97 09:55:06 GMT",
	"Fri, 21 Nov 1997 09:55 UT",
	"  Wed, 5 Jun 2024 08:01:02 +0000",
	"Mon, 2 Dec 2026 14:03:00 -0800 (PST) trailing",
	"Mon, 02 Jan 2006 15:04:05 -0700 (unclosed",
	"Mon, 02 Jan 2006 15:04:05 -07",
	"Mon, 02 Jan 2006\r\n 15:04:05 -0700",
	"Mon, 02 Jan 2006 15:04:05\r -0700",
	"not a date",
	"",
	"T",
	"2024-06-05T08:01:02Z",
}

// TestParseDate: the Date headers of real mail (and broken ones) parse as net/mail
// parses them.
func TestParseDate(t *testing.T) {
	for _, s := range dateSeeds {
		checkParseDate(t, s)
	}
	if d, err := parseDate("Tue, 1 Jul 2003 10:52:37 +0200 (CEST)"); err != nil || !d.Equal(time.Date(2003, 7, 1, 8, 52, 37, 0, time.UTC)) {
		t.Errorf("parseDate = %v, %v", d, err)
	}
}

func checkParseDate(t *testing.T, s string) {
	t.Helper()
	got, err := parseDate(s)
	want, werr := netmail.ParseDate(s)
	if (err == nil) != (werr == nil) || !got.Equal(want) || got.Location().String() != want.Location().String() {
		t.Errorf("parseDate(%q) = %v, %v; net/mail: %v, %v", s, got, err, want, werr)
	}
}

// FuzzParseDate: any header value parses as net/mail parses it, or fails as it does.
func FuzzParseDate(f *testing.F) {
	for _, s := range dateSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkParseDate(t, s) })
}
