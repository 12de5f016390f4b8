package index

import (
	"index/suffixarray"
	"strings"
	"sync"
	"unsafe"

	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// LineHolds reports whether text, the text of log entry e (its Detail, say), holds
// sub: strings.Contains(text, sub). A rule asking this of one long line for each of
// the thousands of group/versions the line names (a 100 KB discovery error) scanned
// the line once per name: quadratic in the names. Texts of longTextBytes or more are
// indexed once (a suffix array, linear to build), and each question then costs the
// length of sub times the log of the text's.
func LineHolds(e *logs.Entry, text, sub string) bool {
	if len(text) < longTextBytes || e == nil || sub == "" {
		lineBytes.Add(len(text))
		return strings.Contains(text, sub)
	}
	lineLookups.Inc()
	return len(textIndexOf(e, text).Lookup(unsafe.Slice(unsafe.StringData(sub), len(sub)), 1)) > 0
}

// longTextBytes: shorter texts are scanned (one scan costs less than an index).
const longTextBytes = 16 << 10

var (
	lineLookups = work.New("long-line look-ups")
	lineBytes   = work.New("line bytes scanned for a name")
)

// textIndexes holds the indexes of the last long texts asked about (a few: a rule asks
// of the lines of one cause at a time), by entry and text length: the text of one
// entry (its Detail) may be a new string at each call.
var textIndexes struct {
	sync.Mutex
	m map[textKey]*suffixarray.Index
}

type textKey struct {
	e *logs.Entry
	n int
}

const maxTextIndexes = 8

func textIndexOf(e *logs.Entry, text string) *suffixarray.Index {
	k := textKey{e, len(text)}
	textIndexes.Lock()
	defer textIndexes.Unlock()
	if ix := textIndexes.m[k]; ix != nil {
		return ix
	}
	if len(textIndexes.m) >= maxTextIndexes || textIndexes.m == nil {
		textIndexes.m = map[textKey]*suffixarray.Index{}
	}
	ix := suffixarray.New([]byte(text))
	textIndexes.m[k] = ix
	return ix
}
