package findings

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxSummary is the most characters the report's one-line summary holds (a ticket title).
const MaxSummary = 200

// CutSummary cuts s to at most n characters at a word boundary, with "…" when cut:
// never inside a word ("dial tcp 10.…"), never leaving a quotation open, never ending
// on a dangling separator or small word ("… reason=", "… the", ", "); parentheses
// left open by the cut are closed after the "…".
func CutSummary(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	for room := n - 1; room > 0; room-- {
		kept := cutWords(runes, room)
		closers := strings.Count(kept, "(") - strings.Count(kept, ")")
		if closers < 0 {
			closers = 0
		}
		if utf8.RuneCountInString(kept)+1+closers <= n {
			if kept == "" {
				return string(runes[:n-1]) + "…"
			}
			return kept + "…" + strings.Repeat(")", closers)
		}
	}
	return string(runes[:n-1]) + "…"
}

// cutWords keeps the words of runes that fit in room characters, without a dangling end.
func cutWords(runes []rune, room int) string {
	cut := room
	for cut > 0 && !unicode.IsSpace(runes[cut]) {
		cut--
	}
	kept := strings.TrimRightFunc(string(runes[:cut]), unicode.IsSpace)
	for {
		before := kept
		kept = strings.TrimRight(kept, " ,;:=(→-")
		for _, w := range []string{" the", " a", " an", " of", " to", " by", " in", " and", " or", " is", " its", " for", " from", " with", " at", " on"} {
			kept = strings.TrimSuffix(kept, w)
		}
		if strings.Count(kept, `"`)%2 == 1 {
			if q := strings.LastIndex(kept, `"`); q > 0 {
				kept = strings.TrimRightFunc(kept[:q], unicode.IsSpace)
			}
		}
		if kept == before {
			return kept
		}
	}
}

// FitText composes s to at most n characters without cutting its end: the decisive
// words of a finding come last ("... dial tcp 10.0.0.1:443: connect: connection
// refused", "phase Pending, not Ready, not scheduled"), so when s is too long its
// middle goes, at the separators of its clauses (": ", "; ", ", "), marked " … ", and
// the first clause and as many of the last ones as fit are kept whole. Only when the
// first and last clauses alone do not fit are words dropped from the middle, the same
// way. The result never ends in "…".
func FitText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	segs := splitClauses(s)
	if len(segs) > 1 {
		first := segs[0]
		kept := ""
		for i := len(segs) - 1; i > 0; i-- {
			try := segs[i] + kept
			if utf8.RuneCountInString(first)+utf8.RuneCountInString(" … ")+utf8.RuneCountInString(strings.TrimLeft(try, ":;, ")) > n {
				break
			}
			kept = try
		}
		if kept != "" {
			return strings.TrimRight(first, ":;, ") + " … " + strings.TrimLeft(kept, ":;, ")
		}
	}
	// words: the first and the last that fit, the middle elided
	words := strings.Fields(s)
	width := func(ws []string) int { return utf8.RuneCountInString(strings.Join(ws, " ")) }
	var head, tail []string
	if len(words) > 1 && utf8.RuneCountInString(words[0])+3+utf8.RuneCountInString(words[len(words)-1]) <= n {
		head = words[:1]
		for i, j := 1, len(words)-1; i <= j; {
			if width(head)+3+width(append([]string{words[j]}, tail...)) > n {
				break
			}
			tail = append([]string{words[j]}, tail...)
			j--
			if i > j || width(append(head, words[i]))+3+width(tail) > n {
				break
			}
			head = append(head, words[i])
			i++
		}
		if len(head)+len(tail) == len(words) {
			return strings.Join(words, " ")
		}
		return strings.TrimRight(strings.Join(head, " "), ":;, ") + " … " + strings.Join(tail, " ")
	}
	// the first word alone is too long: the last words that fit
	for j := len(words) - 1; j >= 0 && 2+width(append([]string{words[j]}, tail...)) <= n; j-- {
		tail = append([]string{words[j]}, tail...)
	}
	if len(tail) > 0 {
		return "… " + strings.Join(tail, " ")
	}
	r := []rune(s)
	return string(r[len(r)-n:]) // one word longer than the room: its end, where the decisive part is
}

// splitClauses splits s before each ": ", "; " and ", " outside quotes and brackets,
// each piece keeping its leading separator.
func splitClauses(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s)-1; i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case (c == ':' || c == ';' || c == ',') && s[i+1] == ' ' && depth == 0 && !quoted && i > start:
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

// MaxShort is the most characters a problem's short form (Problem.Short) holds.
const MaxShort = 140
