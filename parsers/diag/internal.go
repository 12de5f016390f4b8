package diag

import (
	"fmt"
	"strings"
)

// InternalError starts the warning a parser gives when it catches a bug of its own (a
// panic) while reading a file: the rest of that file is skipped, everything else is
// still read and analysed, and the user is asked to report it.
const InternalError = "internal error (a bug in nsanalyze; please report it with this message)"

// Catch, deferred directly (`defer warn.Catch(path)`), turns a panic of the function
// that deferred it into an InternalError warning for path. The warning is never
// suppressed by Limit.
func (s *Sink) Catch(file string) {
	if r := recover(); r != nil {
		s.Internal(file, r)
	}
}

// Internal records a recovered panic r as an InternalError warning for file.
func (s *Sink) Internal(file string, r any) {
	s.List = append(s.List, Warning{File: CapName(file), Message: InternalErrorText(r) + "; the rest of this file is skipped"})
	s.kinds = append(s.kinds, "")
}

// InternalErrorText is the message for a recovered panic value.
func InternalErrorText(r any) string {
	return fmt.Sprintf("%s: %v", InternalError, r)
}

// IsInternal reports whether w records a caught bug (tests and fuzz targets fail on it).
func IsInternal(w Warning) bool { return strings.Contains(w.Message, InternalError) }
