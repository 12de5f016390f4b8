package render

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/redact"
)

// The house rule this file enforces: renderers, the redactor and the fingerprint read a
// report's structured fields and never the words of the sentences the analyzer wrote.
// A sentence may be copied, escaped, compared whole with another, wrapped at its spaces
// and cut at a rune count; reading its words to decide something is not allowed.
//
// scrambleText rewrites a sentence letter by letter and digit by digit (a fixed
// rotation, case kept), leaving its spaces and punctuation where they are: equal
// sentences stay equal, a prefix stays a prefix, the rune count and every separator
// stay, and no word survives. A renderer that only copies, escapes, wraps or cuts
// sentences writes the same output once letters and digits are masked (maskText); one
// that looks for a word ("only after the steps above", "collect: ", "not shown") writes
// something else, and TestNoSentenceRead names the format and the first line that
// differs.

// sentenceFields are the string fields (and string slices) that hold the analyzer's
// sentences or quoted text, by struct type name and field name. Names, commands, kinds,
// states of a closed enum, API reasons, durations (StuckFor: FmtDuration's "26m58s")
// and files are structured and stay as they are.
var sentenceFields = map[string]bool{
	"Report.Summary": true, "Report.StateReason": true,
	"DeletingNamespace.Why": true,
	"Problem.Root":          true, "Problem.Short": true, "Problem.Correlation": true, "Problem.Headline": true,
	"NamespaceReport.StuckSince": true, "NamespaceReport.Verdict": true,
	"TimelineEvent.Text":      true,
	"ConditionReport.Message": true, "ConditionReport.Meaning": true,
	"Cause.Summary": true, "Cause.Correlation": true, "Cause.Notes": true,
	"Link.Finding": true, "Link.State": true,
	"Evidence.Text":       true,
	"RemediationStep.Why": true, "RemediationStep.Does": true, "RemediationStep.Lead": true,
	"RuledOut.Reason": true,
	"Risk.Summary":    true,
	"Gap.Missing":     true, "Gap.Why": true, "Gap.Detail": true,
	"FinalizerVerdict.Clearing": true,
	"ObjectGroup.Verdict":       true,
	"NextStep.Seen":             true,
	"Warning.Message":           true,
}

// scrambleText rotates ASCII letters by 7 and digits by 3 (see above).
func scrambleText(s string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z':
			return 'a' + (c-'a'+7)%26
		case c >= 'A' && c <= 'Z':
			return 'A' + (c-'A'+7)%26
		case c >= '0' && c <= '9':
			return '0' + (c-'0'+3)%10
		}
		return c
	}, s)
}

// maskText writes every ASCII letter as a or A and every digit as 0: what is left is
// the shape of a text, which scrambling sentences must not change.
func maskText(s string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z':
			return 'a'
		case c >= 'A' && c <= 'Z':
			return 'A'
		case c >= '0' && c <= '9':
			return '0'
		}
		return c
	}, s)
}

// scrambled returns a deep copy of r whose sentence fields are scrambled, but for the
// commands the analyzer declares it wrote inside them (findings.InlineCommands): those
// are structured values, as a name is.
func scrambled(r *findings.Report) *findings.Report {
	cp := findings.CloneReport(r)
	keep := findings.InlineCommands(r)
	scrambleValue(reflect.ValueOf(cp).Elem(), func(s string) string { return scrambleKeeping(s, keep) })
	return cp
}

// scrambleKeeping scrambles s but for the occurrences of keep.
func scrambleKeeping(s string, keep []string) string {
	held := make([]bool, len(s))
	for _, k := range keep {
		for from := 0; k != ""; {
			i := strings.Index(s[from:], k)
			if i < 0 {
				break
			}
			for j := from + i; j < from+i+len(k); j++ {
				held[j] = true
			}
			from += i + len(k)
		}
	}
	var b strings.Builder
	for i, r := range s {
		if held[i] {
			b.WriteRune(r)
		} else {
			b.WriteString(scrambleText(string(r)))
		}
	}
	return b.String()
}

func scrambleValue(v reflect.Value, scramble func(string) string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			scrambleValue(v.Elem(), scramble)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			scrambleValue(v.Index(i), scramble)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fv := v.Field(i)
			if sentenceFields[t.Name()+"."+f.Name] {
				switch {
				case fv.Kind() == reflect.String:
					fv.SetString(scramble(fv.String()))
				case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.String:
					for j := 0; j < fv.Len(); j++ {
						fv.Index(j).SetString(scramble(fv.Index(j).String()))
					}
				}
				continue
			}
			scrambleValue(fv, scramble)
		}
	}
}

// firstDiff names the first line where two texts differ.
func firstMaskedDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if maskText(x) != maskText(y) {
			return "line " + itoa(i+1) + ":\n\twith the sentences: " + x + "\n\tscrambled:          " + y
		}
	}
	return ""
}

func itoa(n int) string {
	var b []byte
	for n >= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(append([]byte{byte('0' + n)}, b...))
}

// TestNoSentenceRead renders every fixture's report in every format (text with and
// without colour, Markdown, JSON, HTML, the reply note) from the report as analysed and
// from a copy whose sentences are scrambled, and requires the same output once letters
// and digits are masked; it requires the same fingerprint of every cause; and it
// requires the redactor to rewrite each string of the report in place, composing none
// (every string of a redacted copy is the redaction of the same string of the report).
// With -short, the redaction is checked on the golden bundles and every eighth fixture
// (it is two thirds of the test's time); the long run checks every fixture's.
func TestNoSentenceRead(t *testing.T) {
	golden := map[string]bool{}
	for _, b := range formatBundles {
		golden[b] = true
	}
	for i, b := range allFixtures(t) {
		redaction := !testing.Short() || i%8 == 0 || golden[b]
		t.Run(b, func(t *testing.T) {
			rec, r := fixtureRecords(t, b)
			s := scrambled(r)
			if reflect.DeepEqual(r, s) && r.Summary != "" {
				t.Fatal("scrambling changed nothing")
			}
			for _, f := range append(append([]string{}, OutputFormats...), "color") {
				var want, got bytes.Buffer
				o := Options{Color: f == "color"}
				format := f
				if f == "color" {
					format = "text"
				}
				if err := RenderWith(&want, r, format, o); err != nil {
					t.Fatal(err)
				}
				if err := RenderWith(&got, s, format, o); err != nil {
					t.Fatal(err)
				}
				if w, g := maskText(want.String()), maskText(got.String()); w != g {
					t.Errorf("%s: the output depends on the words of a sentence, %s", f, firstMaskedDiff(want.String(), got.String()))
				}
			}
			for i := range r.Namespaces {
				for j := range r.Namespaces[i].Causes {
					c, sc := &r.Namespaces[i].Causes[j], &s.Namespaces[i].Causes[j]
					if a, b := findings.Fingerprint(c), findings.Fingerprint(sc); a != b {
						t.Errorf("namespace %s cause %s: the fingerprint depends on the words of a sentence: %s, scrambled %s",
							r.Namespaces[i].Name, c.Type, a, b)
					}
				}
			}
			if !redaction {
				return
			}
			red := redact.New()
			red.Records(rec)
			red.Report(s)
			got := red.Apply(s)
			want := findings.CloneReport(s)
			for i := range want.Problems {
				want.Problems[i].ReadableFingerprint = ""
			}
			for i := range want.Namespaces {
				for j := range want.Namespaces[i].Causes {
					want.Namespaces[i].Causes[j].Related = nil // the log lines behind the evidence: dropped
					// the analysis' bookkeeping (a cause's own ladder, its claims): dropped
					want.Namespaces[i].Causes[j].Ladder, want.Namespaces[i].Causes[j].Claimed = nil, nil
				}
			}
			want.Bundle.Path = "(redacted)"
			kept := map[string]bool{}
			for _, p := range s.Problems {
				kept[p.Fingerprint] = true
				for _, k := range p.KnownIssues {
					for _, v := range []string{k.ID, k.Title, k.URL, k.Pattern, k.Fix, k.Source} {
						kept[v] = true
					}
				}
			}
			mapStrings(reflect.ValueOf(want).Elem(), func(v string) string {
				if kept[v] || v == "(redacted)" {
					return v
				}
				return red.String(v)
			})
			if d := firstFieldDiff(reflect.ValueOf(want).Elem(), reflect.ValueOf(got).Elem(), "report"); d != "" {
				t.Errorf("the redactor composes a field instead of redacting it in place: %s", d)
			}
		})
	}
}

// mapStrings rewrites every string reachable through exported fields, in place.
func mapStrings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(f(v.String()))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			mapStrings(v.Elem(), f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				mapStrings(v.Field(i), f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			mapStrings(v.Index(i), f)
		}
	}
}

// firstFieldDiff names the first exported field where a and b differ ("" when none).
func firstFieldDiff(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			return path + ": nil on one side"
		}
		if a.IsNil() {
			return ""
		}
		return firstFieldDiff(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		if a.Type().String() == "time.Time" {
			if !a.Interface().(time.Time).Equal(b.Interface().(time.Time)) {
				return path
			}
			return ""
		}
		for i := 0; i < a.NumField(); i++ {
			if a.Type().Field(i).IsExported() {
				if d := firstFieldDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
					return d
				}
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + ": " + itoa(a.Len()) + " entries, " + itoa(b.Len()) + " redacted"
		}
		for i := 0; i < a.Len(); i++ {
			if d := firstFieldDiff(a.Index(i), b.Index(i), path+"["+itoa(i)+"]"); d != "" {
				return d
			}
		}
		return ""
	case reflect.String:
		if a.String() != b.String() {
			return path + ": want " + a.String() + "\n\tgot  " + b.String()
		}
		return ""
	}
	if a.CanInterface() && !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return path
	}
	return ""
}
