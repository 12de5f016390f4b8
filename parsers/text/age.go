package text

import (
	"strings"
	"time"
)

// ParseAge reads a duration as kubectl prints it in AGE columns and describe output
// (k8s.io/apimachinery/pkg/util/duration HumanDuration and ShortHumanDuration: "37s",
// "5m30s", "104m", "4d13h", "2d", "3y45d", "<invalid>" for a time in the future). kubectl
// rounds down, so the real age is at least the value read. ok is false for anything
// else.
func ParseAge(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 16 {
		return 0, false
	}
	var d time.Duration
	n, digits := int64(0), 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + int64(c-'0')
			digits++
			if n > 100000 {
				return 0, false // no age of a live object: and no overflow below
			}
			continue
		case digits == 0:
			return 0, false
		}
		var unit time.Duration
		switch c {
		case 's':
			unit = time.Second
		case 'm':
			unit = time.Minute
		case 'h':
			unit = time.Hour
		case 'd':
			unit = 24 * time.Hour
		case 'y':
			unit = 365 * 24 * time.Hour
		default:
			return 0, false
		}
		d += time.Duration(n) * unit
		n, digits = 0, 0
	}
	if digits != 0 || d <= 0 {
		return 0, false // a number without its unit
	}
	return d, true
}
