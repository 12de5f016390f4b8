package objects

import (
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"sigs.k8s.io/yaml"
)

// A JSON document cut by the retrieval (a ticket's paste, a `| head`, a file copied
// while it was written) still says what it says up to the cut: a Namespace cut inside
// status.conditions has its name, deletionTimestamp and finalizers. closeTruncated
// makes such a prefix valid JSON by dropping the value the cut left incomplete and
// closing every object and array still open, so the decoder reads it as far as it goes.

// truncatedMsg is the warning of an object read as far as the input goes.
const truncatedMsg = "input ends inside an object (truncated file?): it is read as far as it goes, the objects before it whole"

// closeTruncated returns raw (the start of a JSON object that the input ends inside)
// cut after its last complete member or element and closed, or nil when nothing of it
// can be kept. Two passes over raw: linear.
func closeTruncated(raw []byte) []byte {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	// only the JSON before the first byte that cannot continue it: what follows a syntax
	// error is not a cut the retrieval made, and would leave no cut valid (one scan, into
	// an empty struct: nothing is allocated for the values)
	var none struct{}
	var se *json.SyntaxError
	if err := json.Unmarshal(raw, &none); errors.As(err, &se) && se.Offset > 0 && se.Offset < int64(len(raw)) {
		raw = raw[:se.Offset-1]
	}
	// pass 1: the last place a cut leaves valid JSON once the open brackets are closed:
	// right after an opening bracket, before a comma between members or elements, or
	// right after a closing bracket
	cut := -1
	depth := 0
	var str JSONString
	var prev byte // the last byte outside strings and spaces
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if str.In {
			str.Feed(c)
			continue
		}
		p := prev
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			prev = c
		}
		if str.Feed(c) {
			continue // an opening quote
		}
		switch c {
		case '{', '[':
			depth++
			if depth > maxTruncatedDepth {
				return nil
			}
			if p != ',' && p != '[' {
				cut = i + 1 // a member's value opened (an element cut inside it is dropped whole)
			}
		case '}', ']':
			depth--
			if depth <= 0 {
				return nil // not truncated after all (the splitter saw the end)
			}
			cut = i + 1
		case ',':
			cut = i
		}
	}
	if cut <= 0 {
		return nil
	}
	// pass 2: the brackets open at the cut
	var stack []byte
	str = JSONString{}
	for i := 0; i < cut; i++ {
		c := raw[i]
		if str.Feed(c) {
			continue
		}
		switch c {
		case '{', '[':
			stack = append(stack, c)
		case '}', ']':
			stack = stack[:len(stack)-1]
		}
	}
	out := make([]byte, 0, cut+len(stack)+1)
	out = append(out, raw[:cut]...)
	for k := len(stack) - 1; k >= 0; k-- {
		if stack[k] == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	return out
}

// maxTruncatedDepth bounds the nesting closeTruncated restores (the decoder's own
// nesting cap refuses deeper documents anyway).
const maxTruncatedDepth = 10000

// nameOfCut finds the name of an object cut before its metadata.name (kubectl sorts
// the keys: annotations, finalizers and labels come first) where the API server or
// kubectl wrote it elsewhere in the object: a Namespace's kubernetes.io/metadata.name
// label (set by the API server to the name, 1.21+), or the object kubectl apply
// recorded in the kubectl.kubernetes.io/last-applied-configuration annotation (apply
// finds the object by that name). "" when neither is there; from says which it was.
func nameOfCut(raw []byte, kind, namespace string) (name, ns, from string) {
	var o struct {
		Metadata struct {
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return "", namespace, ""
	}
	if n := o.Metadata.Labels["kubernetes.io/metadata.name"]; kind == "Namespace" && len(content.IsDNS1123Label(n)) == 0 {
		return n, namespace, "its label kubernetes.io/metadata.name, which the API server sets to the name (1.21+)"
	}
	var applied struct {
		Kind     string `json:"kind"`
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	la := o.Metadata.Annotations["kubectl.kubernetes.io/last-applied-configuration"]
	// the first JSON value of it: what follows (kubectl's "\n", an "n" once Markdown ate
	// the backslash) is not the object
	if la == "" || json.NewDecoder(strings.NewReader(la)).Decode(&applied) != nil || applied.Kind != kind || applied.Metadata.Name == "" ||
		len(content.IsDNS1123Subdomain(applied.Metadata.Name)) > 0 {
		return "", namespace, ""
	}
	if namespace == "" {
		namespace = applied.Metadata.Namespace
	}
	return applied.Metadata.Name, namespace, "its annotation kubectl.kubernetes.io/last-applied-configuration"
}

// JSONString follows, byte by byte, whether JSON text is inside a string literal (the
// text readers' bracket counting skips what it holds).
type JSONString struct{ In, esc bool }

// Feed takes the next byte and reports whether it belongs to a string literal (its
// quotes and escapes included), so the caller skips it.
func (s *JSONString) Feed(c byte) bool {
	switch {
	case s.esc:
		s.esc = false
	case s.In && c == '\\':
		s.esc = true
	case c == '"':
		s.In = !s.In
	default:
		return s.In
	}
	return true
}

// yamlCutTries bounds how many cut points a YAML document that does not parse is tried
// at (each one decode of a prefix of it: linear).
const yamlCutTries = 8

// yamlPrefixDecodes counts the prefixes readYAMLPrefix decodes (TestYAMLCutWork).
var yamlPrefixDecodes atomic.Int64

// readYAMLPrefix reads a YAML document that does not parse as far as it goes: the
// retrieval cut it inside a value (a quoted condition message left open at the end,
// "found unexpected end of stream"), or its last lines are damaged. It tries the
// document cut before each of its last yamlCutTries lines that start a mapping key or
// a list item (the value being written there is the one the cut left incomplete),
// latest first, and returns the JSON of the first prefix that parses to an object with
// what the document said before that line whole, and the 0-based line it was cut at;
// nil when no prefix does.
func readYAMLPrefix(src []byte) (js []byte, cutLine int) {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	tries := 0
	for k := len(starts) - 1; k >= 1 && tries < yamlCutTries; k-- {
		l := src[starts[k]:]
		if e := bytesIndexNL(l); e >= 0 {
			l = l[:e]
		}
		if !yamlKeyLine(l) {
			continue
		}
		tries++
		yamlPrefixDecodes.Add(1)
		out, err := yaml.YAMLToJSON(src[:starts[k]])
		if err == nil && len(out) > 0 && out[0] == '{' {
			return out, k
		}
	}
	return nil, 0
}

func bytesIndexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// yamlKeyLine reports a line that starts a mapping key ("  message: ...", "key:") or a
// list item ("- lastTransitionTime: ...", "- kubernetes").
func yamlKeyLine(l []byte) bool {
	t := strings.TrimLeft(string(l), " ")
	if strings.HasPrefix(t, "- ") || t == "-" {
		return true
	}
	i := 0
	for i < len(t) && (t[i] >= 'a' && t[i] <= 'z' || t[i] >= 'A' && t[i] <= 'Z' || t[i] >= '0' && t[i] <= '9' || strings.IndexByte("_.-/\"'", t[i]) >= 0) {
		i++
	}
	return i > 0 && i < len(t) && t[i] == ':' && (i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\r')
}
