package mail

import (
	"errors"
	"strings"
	"time"
)

// parseDate parses a Date header as net/mail's ParseDate does (RFC 5322 section 3.3,
// with its obsolete zones and a trailing comment), without net/mail: that package
// brings package net with it, which the browser build of nsanalyze does not need
// (FuzzParseDate holds the two equal).
func parseDate(date string) (time.Time, error) {
	// CR and LF must match and are tolerated anywhere in the date field
	date = strings.ReplaceAll(date, "\r\n", "")
	if strings.Contains(date, "\r") {
		return time.Time{}, errors.New("mail: header has a CR without LF")
	}
	s := strings.TrimLeft(date, " \t")
	// zone = (FWS ( "+" / "-" ) 4DIGIT) / obs-zone: 5 bytes unless obsolete
	if i := strings.IndexAny(s, "+-"); i != -1 && len(s) >= i+5 {
		date, s = s[:i+5], s[i+5:]
	} else {
		i := strings.Index(s, "T")
		if i == 0 {
			// "Thu, ..." itself starts with a T: the zone's is the next ("MDT")
			if i = strings.Index(s[1:], "T"); i != -1 {
				i++
			}
		}
		if i != -1 && len(s) >= i+5 {
			date, s = s[:i+1], s[i+1:]
		}
	}
	if !skipComments(s) {
		return time.Time{}, errors.New("mail: misformatted parenthetical comment")
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, date); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("mail: header could not be parsed")
}

// skipComments reports whether the comments at the start of s (CFWS: spaces, tabs and
// parenthesised comments, nested, with backslash escapes) are well formed; what
// follows them is not looked at.
func skipComments(s string) bool {
	s = strings.TrimLeft(s, " \t")
	for len(s) > 0 && s[0] == '(' {
		s = s[1:]
		depth := 1
		for len(s) > 0 && depth > 0 {
			switch {
			case s[0] == '\\' && len(s) > 1:
				s = s[1:]
			case s[0] == '(':
				depth++
			case s[0] == ')':
				depth--
			}
			s = s[1:]
		}
		if depth > 0 {
			return false
		}
		s = strings.TrimLeft(s, " \t")
	}
	return true
}

// dateLayouts are the layouts of RFC 5322 section 3.3 that net/mail tries, in its
// order: an optional day of the week, a day of one or two digits, a year of four or
// two, optional seconds, and a numeric, abbreviated or "UT" zone.
var dateLayouts = func() []string {
	var out []string
	for _, dow := range []string{"", "Mon, "} {
		for _, day := range []string{"2", "02"} {
			for _, year := range []string{"2006", "06"} {
				for _, second := range []string{":05", ""} {
					for _, zone := range []string{"-0700", "MST", "UT"} {
						out = append(out, dow+day+" Jan "+year+" 15:04"+second+" "+zone)
					}
				}
			}
		}
	}
	return out
}()
