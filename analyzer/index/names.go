package index

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// NameWarnings checks the names of a bundle's objects that a report may quote or put
// into a command (namespaces, object names, finalizers, the Services that APIServices
// and webhooks point at, webhook names) and returns one warning per name Kubernetes
// would have refused (shellsafe.HostileName): such a bundle was damaged or forged, and no
// command of the report uses the name. The analysis appends them to the report's
// warnings.
//
// Analyze takes them from the index, which validates every name once while it is built.
func NameWarnings(rec *bundle.Records) []diag.Warning {
	var out []diag.Warning
	invalidNames(rec, func(file string, line int, kind shellsafe.NameKind, name string) {
		out = append(out, diag.Warning{File: file, Line: line, Message: shellsafe.HostileName(kind, name)})
	})
	lookAlikes(rec, func(file string, line int, what, name, like string) {
		out = append(out, diag.Warning{File: file, Line: line, Message: lookAlikeMessage(what, name, like)})
	})
	return out
}

func lookAlikeMessage(what, name, like string) string {
	return fmt.Sprintf("%s %s looks like %s %s but is another name (it holds characters of another script, full-width, invisible or not UTF-8): what the report says of one is not about the other",
		what, shellsafe.QuoteName(name), what, shellsafe.QuoteName(like))
}

// lookAlikes calls found once for each name of the bundle's objects that reads like
// another name of the same kind (namespaces among namespaces, objects among the
// objects of their kind and namespace) without being it: "t\u043ebedeleted" with a
// Cyrillic o beside "tobedeleted". One pass, one map of skeletons.
func lookAlikes(rec *bundle.Records, found func(file string, line int, what, name, like string)) {
	// two names alike are two names with one skeleton, and a lower-case ASCII name is
	// its own skeleton: a bundle of such names only (most) holds no look-alike, which
	// one pass without a map says
	odd := false
	rec.EachObjectHead(func(o *objects.Object) {
		odd = odd || !isLowerASCII(o.Name) || !isLowerASCII(o.Namespace)
	})
	if !odd {
		return
	}
	// scope: the kind and namespace of an object, or "" and "" for namespaces (every
	// object has a kind)
	type key struct{ kind, ns, s string }
	first := map[key]string{} // scope + skeleton -> first name
	told := map[key]bool{}    // scope + name
	check := func(f string, l int, what, kind, ns, name string) {
		if name == "" {
			return
		}
		k := key{kind, ns, Skeleton(name)}
		prev, ok := first[k]
		switch {
		case !ok:
			first[k] = name
		case prev != name && !told[key{kind, ns, name}]:
			told[key{kind, ns, name}] = true
			odd, like := name, prev
			if isPlainASCII(odd) && !isPlainASCII(like) {
				odd, like = like, odd
			}
			found(f, l, what, odd, like)
		}
	}
	lastNS := "" // checking a name again changes nothing: the objects of one namespace name it once
	rec.EachObjectHead(func(o *objects.Object) {
		f, l := o.Source.File, o.Source.Line
		if o.Kind == "Namespace" {
			check(f, l, "namespace", "", "", o.Name)
		} else if o.Kind != "" {
			check(f, l, o.Kind, o.Kind, o.Namespace, o.Name)
		}
		if o.Namespace != "" && o.Namespace != lastNS {
			check(f, l, "namespace", "", "", o.Namespace)
			lastNS = o.Namespace
		}
	})
}

// isLowerASCII: every byte printable ASCII (space to '~') but the capitals.
func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return true
}

func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < 0x20 {
			return false
		}
	}
	return true
}

// Skeleton is the name as it reads: letters of other scripts that look like Latin
// ones (Cyrillic, Greek, Armenian, Latin look-alikes, full-width forms) mapped to
// them, invisible and format characters dropped, lower case. Two names with one
// skeleton look alike (after Unicode's confusables, UTS #39, for the characters a
// Kubernetes name can be mistaken for).
func Skeleton(s string) string {
	if isLowerASCII(s) {
		return s // printable ASCII without capitals reads as itself
	}
	return skeletonFold(s)
}

// skeletonFold is Skeleton without its ASCII shortcut (the test holds the two equal).
func skeletonFold(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0xff01 && r <= 0xff5e: // full-width ASCII
			r -= 0xfee0
		case shellsafe.Unsafe(r) || unicode.Is(unicode.Mn, r):
			continue
		}
		if c, ok := confusables[r]; ok {
			r = c
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// confusables maps characters that look like a Latin letter or digit to it (from
// Unicode's confusables.txt, the letters of names).
var confusables = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'һ': 'h', 'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o',
	'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ɡ': 'g', 'ү': 'y',
	'А': 'a', 'В': 'b', 'Е': 'e', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o', 'Р': 'p', 'С': 'c', 'Т': 't', 'Х': 'x', 'Ү': 'y',
	'Ѕ': 's', 'І': 'i', 'Ј': 'j', 'Ԁ': 'd',
	// Greek
	'α': 'a', 'ο': 'o', 'ν': 'v', 'ι': 'i', 'κ': 'k', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'ε': 'e', 'η': 'n', 'μ': 'u',
	'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Ζ': 'z', 'Η': 'h', 'Ι': 'i', 'Κ': 'k', 'Μ': 'm', 'Ν': 'n', 'Ο': 'o', 'Ρ': 'p', 'Τ': 't',
	'Υ': 'y', 'Χ': 'x',
	// Armenian, Latin look-alikes, symbols
	'օ': 'o', 'ս': 'u', 'ց': 'g', 'ı': 'i', 'ɑ': 'a', 'ℓ': 'l', 'ǀ': 'l', 'ⅼ': 'l', 'ⅰ': 'i', 'ⅽ': 'c', 'ⅾ': 'd', 'ⅿ': 'm',
	'‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '−': '-', '․': '.', 'ꓸ': '.',
}

// invalidNames calls found once for each name of the bundle's objects that Kubernetes
// would have refused.
func invalidNames(rec *bundle.Records, found func(file string, line int, kind shellsafe.NameKind, name string)) {
	seen := map[string]bool{}
	check := func(file string, line int, kind shellsafe.NameKind, name string) {
		if name == "" || shellsafe.ValidName(kind, name) {
			return
		}
		key := kind.String() + "\x00" + name
		if seen[key] {
			return
		}
		seen[key] = true
		found(file, line, kind, name)
	}
	rec.EachObjectHead(func(o *objects.Object) {
		f, l := o.Source.File, o.Source.Line
		switch o.Kind {
		case "Namespace":
			check(f, l, shellsafe.NamespaceName, o.Name)
		case "APIService":
			check(f, l, shellsafe.APIServiceName, o.Name)
		case "", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding":
			// RBAC names are path segments ("system:controller:x"), never put into commands
			if o.Kind != "" && !validPathSegment(o.Name) {
				check(f, l, shellsafe.ObjectName, o.Name)
			}
		default:
			check(f, l, shellsafe.ObjectName, o.Name)
		}
		if o.Namespace != "" {
			check(f, l, shellsafe.NamespaceName, o.Namespace)
		}
		for _, fin := range o.Finalizers {
			check(f, l, shellsafe.FinalizerName, fin)
		}
		for _, fin := range o.SpecFinalizers {
			check(f, l, shellsafe.FinalizerName, fin)
		}
		if o.APIService != nil && o.APIService.Service != nil {
			check(f, l, shellsafe.NamespaceName, o.APIService.Service.Namespace)
			check(f, l, shellsafe.ObjectName, o.APIService.Service.Name)
		}
		for _, w := range o.Webhooks {
			check(f, l, shellsafe.ObjectName, w.Name)
			if w.Service != nil {
				check(f, l, shellsafe.NamespaceName, w.Service.Namespace)
				check(f, l, shellsafe.ObjectName, w.Service.Name)
			}
		}
		if o.CRD != nil && o.CRD.ConversionService != nil {
			check(f, l, shellsafe.NamespaceName, o.CRD.ConversionService.Namespace)
			check(f, l, shellsafe.ObjectName, o.CRD.ConversionService.Name)
		}
	})
}

// validPathSegment is apimachinery's path-segment rule for RBAC names, plus no control
// or invisible characters.
func validPathSegment(s string) bool {
	return s != "." && s != ".." && !strings.ContainsAny(s, "/%\n\r") && !shellsafe.NeedsEscape(s)
}
