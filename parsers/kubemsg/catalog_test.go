package kubemsg

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func joinGVs(fs []GroupVersionError) string {
	var gvs []string
	for _, f := range fs {
		gvs = append(gvs, f.GroupVersion)
	}
	return strings.Join(gvs, ",")
}

// catalogParsers run the parser a catalogue form names and report what it returned,
// under the keys the forms' "want" uses.
var catalogParsers = map[string]func(string) map[string]string{
	"NamespaceConditionOfMessage": func(s string) map[string]string {
		t, st, ok := NamespaceConditionOfMessage(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "type": t, "status": st}
	},
	"ParseDiscoveryFailure": func(s string) map[string]string {
		fs := ParseDiscoveryFailure(s)
		out := map[string]string{"gvs": joinGVs(fs)}
		if len(fs) > 0 {
			out["err0"] = fs[0].Err
		}
		return out
	},
	"ParseNamespaceDeletionFailure": func(s string) map[string]string {
		ns, e, ok := ParseNamespaceDeletionFailure(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": ns, "err": e}
	},
	"ParseNamespaceDeleted": func(s string) map[string]string {
		ns, ok := ParseNamespaceDeleted(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": ns}
	},
	"ParseContentStillRemains": func(s string) map[string]string {
		ns, gvr, ok := ParseContentStillRemains(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": ns, "gvr": gvr.String()}
	},
	"ParseOrderedDeletionFailure": func(s string) map[string]string {
		ns, e, ok := ParseOrderedDeletionFailure(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": ns, "err": e}
	},
	"ParsePodsStillRemain": func(s string) map[string]string {
		ns, ok := ParsePodsStillRemain(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": ns}
	},
	"ParseContentFailure": func(s string) map[string]string {
		n, e, ok := ParseContentFailure(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "count": strconv.Itoa(n), "err": e}
	},
	"ParseContentRemaining": func(s string) map[string]string {
		var items []string
		for _, r := range ParseContentRemaining(s) {
			items = append(items, fmt.Sprintf("%s.%s=%d", r.Resource, r.Group, r.Count))
		}
		return map[string]string{"ok": strconv.FormatBool(len(items) > 0), "items": strings.Join(items, ",")}
	},
	"ParseFinalizersRemaining": func(s string) map[string]string {
		var items []string
		for _, f := range ParseFinalizersRemaining(s) {
			items = append(items, fmt.Sprintf("%s=%d", f.Finalizer, f.Count))
		}
		return map[string]string{"ok": strconv.FormatBool(len(items) > 0), "items": strings.Join(items, ",")}
	},
	"ParseMemcacheFailure": func(s string) map[string]string {
		f, ok := ParseMemcacheFailure(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "gv": f.GroupVersion, "err": f.Err}
	},
	"ParseMetricsAPIFailure": func(s string) map[string]string {
		f, ok := ParseMetricsAPIFailure(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "api": f.API, "group": f.Group}
	},
	"ParseConversionFailure": func(s string) map[string]string {
		f, ok := ParseConversionFailure(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "gv": f.GroupVersion, "kind": f.Kind}
	},
	"ParseWebhookFailures": func(s string) map[string]string {
		var names []string
		for _, w := range ParseWebhookFailures(s) {
			names = append(names, w.Webhook)
		}
		return map[string]string{"ok": strconv.FormatBool(len(names) > 0), "webhooks": strings.Join(names, ",")}
	},
	"ParseAPIServiceFailure": func(s string) map[string]string {
		f, ok := ParseAPIServiceFailure(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "apiservice": f.APIService, "source": f.Source}
	},
	"ParseAPIServiceAvailabilityChange": func(s string) map[string]string {
		a, ok := ParseAPIServiceAvailabilityChange(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "apiservice": a.APIService, "new": a.NewStatus, "reason": a.Reason}
	},
	"ParseErrorResolving": func(s string) map[string]string {
		ns, name, ok := ParseErrorResolving(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": ns, "name": name}
	},
	"ParseAdmissionDenials": func(s string) map[string]string {
		var names, policies []string
		for _, d := range ParseAdmissionDenials(s) {
			names = append(names, d.Webhook)
			if d.Policy != "" {
				policies = append(policies, d.Policy)
			}
		}
		return map[string]string{"ok": strconv.FormatBool(len(names) > 0), "webhooks": strings.Join(names, ","), "policies": strings.Join(policies, ",")}
	},
	"ParseRequestLog": func(s string) map[string]string {
		r, ok := ParseRequestLog(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": r.Namespace, "code": strconv.Itoa(r.Code),
			"controller": strconv.FormatBool(r.NamespaceControllerDenied())}
	},
	"ParseFeatureGateRefusal": func(s string) map[string]string {
		r, ok := ParseFeatureGateRefusal(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "gate": r.Gate, "kind": r.Kind, "value": r.Value}
	},
	"ParseCRDWaiting": func(s string) map[string]string {
		w, ok := ParseCRDWaiting(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "resource": w.Resource, "group": w.Group, "count": strconv.Itoa(w.Count)}
	},
	"IsCRDTerminatingRefusal": func(s string) map[string]string {
		verb, ok := IsCRDTerminatingRefusal(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "verb": verb}
	},
	"ParseNewFinalizersForbidden": func(s string) map[string]string {
		r, ok := ParseNewFinalizersForbidden(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "kind": r.Kind, "name": r.Name, "finalizers": r.Finalizers}
	},
	"ParseNamespaceTerminating": func(s string) map[string]string {
		ns, ok := ParseNamespaceTerminating(s)
		return map[string]string{"ok": strconv.FormatBool(ok), "namespace": ns}
	},
	"ClassifyError": func(s string) map[string]string {
		return map[string]string{"code": ClassifyError(s).Code}
	},
}

var minorVersion = regexp.MustCompile(`^v1\.(\d+)$`)

func minor(t *testing.T, v string) int {
	t.Helper()
	m := minorVersion.FindStringSubmatch(v)
	if m == nil {
		t.Fatalf("version %q is not v1.N", v)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestCatalog runs every catalogued example line through the log prefilter and through
// the parser its form names, and checks the catalogue's data.
func TestCatalog(t *testing.T) {
	c, err := Catalog()
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := minor(t, c.Versions.From), minor(t, c.Versions.To)
	if lo != 8 || hi != 38 {
		t.Errorf("catalogue covers %s..%s, want v1.8..v1.38", c.Versions.From, c.Versions.To)
	}
	ids := map[string]bool{}
	forms := 0
	for _, m := range c.Messages {
		if m.ID == "" || ids[m.ID] || len(m.Forms) == 0 {
			t.Errorf("message %q: empty or duplicate id, or no forms", m.ID)
		}
		ids[m.ID] = true
		for _, f := range m.Forms {
			forms++
			t.Run(m.ID+"/"+f.ID, func(t *testing.T) {
				if ids[f.ID] {
					t.Errorf("duplicate id %q", f.ID)
				}
				ids[f.ID] = true
				from, to := minor(t, f.From), minor(t, f.To)
				if from > to || from < lo || to > hi {
					t.Errorf("range %s..%s outside %s..%s", f.From, f.To, c.Versions.From, c.Versions.To)
				}
				if f.Format == "" || f.Example == "" || f.Origin == "" || f.Rendering == "" || len(f.Source) == 0 {
					t.Errorf("incomplete form %+v", f)
				}
				for _, s := range f.Source {
					if repo, path, ok := strings.Cut(s, ":"); !ok || !strings.HasPrefix(repo, "kubernetes/") || path == "" {
						t.Errorf("source %q is not repository:path", s)
					}
				}
				if f.Channel == "stderr" && !strings.Contains(f.Component+m.Emitter, "kubectl") {
					t.Errorf("a stderr form names no kubectl in its component or emitter")
				}
				if f.Kubectl != "" && !strings.Contains(f.Kubectl, "v1.") {
					t.Errorf("kubectl %q names no kubectl version", f.Kubectl)
				}
				switch f.Channel {
				case "log", "stderr", "text":
					// the prefilter derived from the rules lets it through:
					// analyzer/rules TestCatalogLinesPassPrefilter
				case "object":
					// a status condition message (APIService Available): in logs it only
					// appears inside lines the prefilter keeps ("changing APIService
					// availability", "failed with: "), checked below
				default:
					t.Errorf("unknown channel %q", f.Channel)
				}
				parse, ok := catalogParsers[f.Parser]
				if !ok {
					t.Fatalf("unknown parser %q", f.Parser)
				}
				got := parse(f.Example)
				if len(f.Want) == 0 {
					t.Fatalf("form has no want")
				}
				if o, has := got["ok"]; has && o != "true" {
					t.Errorf("%s missed the example %q", f.Parser, f.Example)
				}
				for k, want := range f.Want {
					switch {
					case k == "err_prefix":
						if !strings.HasPrefix(got["err"], want) {
							t.Errorf("%s: err = %q, want prefix %q", f.Parser, got["err"], want)
						}
					case got[k] != want:
						t.Errorf("%s: %s = %q, want %q (all: %v)", f.Parser, k, got[k], want, got)
					}
				}
			})
		}
	}
	if forms < 60 {
		t.Errorf("only %d forms", forms)
	}
}

// TestCatalogCoverage checks that each message's forms leave no version gap between
// the first and last version the message exists in, and that the families issue #12
// names are catalogued over the versions they exist in.
func TestCatalogCoverage(t *testing.T) {
	c, err := Catalog()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{
		"namespace-deletion-failed":   {8, 38},
		"namespace-deleted":           {8, 38},
		"deleter-supported-resources": {8, 38},
		"kcm-available-resources":     {8, 28},
		"content-still-remains":       {8, 38},
		"ordered-deletion":            {33, 38},
		"namespace-conditions":        {16, 38},
		"discovery-incomplete":        {8, 38},
		"memcache":                    {8, 38},
		"gc-discovery":                {8, 38},
		"quota-discovery":             {9, 38},
		"hpa-metrics":                 {8, 38},
		"kubectl-stderr":              {8, 38},
		"conversion-webhook":          {13, 38},
		"admission-webhook":           {8, 38},
		"admission-denied":            {8, 38},
		"request-log":                 {14, 38},
		"apiservice-failed":           {8, 38},
		"apiservice-availability":     {22, 38},
		"aggregator-proxy":            {10, 38},
		"apiservice-condition":        {8, 38},
		"feature-gate-refusal":        {34, 38},
		"crd-finalizer":               {8, 38},
		"crd-terminating-create":      {22, 38},
		"namespace-terminating":       {8, 38},
	}
	seen := map[string]bool{}
	for _, m := range c.Messages {
		seen[m.ID] = true
		covered := map[int]bool{}
		first, last := 99, 0
		for _, f := range m.Forms {
			a, b := minor(t, f.From), minor(t, f.To)
			for v := a; v <= b; v++ {
				covered[v] = true
			}
			first, last = min(first, a), max(last, b)
		}
		var gaps []string
		for v := first; v <= last; v++ {
			if !covered[v] {
				gaps = append(gaps, "v1."+strconv.Itoa(v))
			}
		}
		// quota-discovery 1.31-1.34 is the discovery-list form's "Unhandled Error" line
		if m.ID == "quota-discovery" {
			gaps = slicesWithout(gaps, "v1.31", "v1.32", "v1.33", "v1.34")
		}
		if len(gaps) > 0 {
			t.Errorf("%s: no form for %v", m.ID, gaps)
		}
		if w, ok := want[m.ID]; ok && (first != w[0] || last != w[1]) {
			t.Errorf("%s: forms cover v1.%d..v1.%d, want v1.%d..v1.%d", m.ID, first, last, w[0], w[1])
		}
	}
	var missing []string
	for id := range want {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("families not catalogued: %v", missing)
	}
}

func slicesWithout(in []string, drop ...string) []string {
	var out []string
	for _, s := range in {
		keep := true
		for _, d := range drop {
			if s == d {
				keep = false
			}
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated part of docs/messages.md from catalog.json")

const docsPath = "../../docs/messages.md"
const docsMarker = "\n## Catalogue\n"

// catalogMarkdown renders the catalogue as the per-family tables of docs/messages.md.
func catalogMarkdown(c *MessageCatalog) string {
	var b strings.Builder
	esc := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	for _, m := range c.Messages {
		fmt.Fprintf(&b, "\n### `%s`: %s\n\n", m.ID, m.Title)
		b.WriteString("Emitted by: " + m.Emitter + ".")
		if m.Note != "" {
			b.WriteString(" " + m.Note)
		}
		b.WriteString("\n\n| form | versions | format | source | channel | parser |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, f := range m.Forms {
			var src []string
			for _, s := range f.Source {
				repo, path, _ := strings.Cut(s, ":")
				src = append(src, "`"+repo+"` "+path)
			}
			channel := f.Channel
			if f.Component != "" {
				channel += " (" + esc(f.Component) + ")"
			}
			fmt.Fprintf(&b, "| `%s` | %s–%s | `%s` | %s | %s | `%s` |\n", f.ID, f.From, f.To, esc(f.Format), esc(strings.Join(src, "<br>")), channel, f.Parser)
		}
		b.WriteString("\n")
		for _, f := range m.Forms {
			var extra []string
			if f.Call != "" {
				extra = append(extra, "call `"+f.Call+"`")
			}
			if f.Lines != "" {
				extra = append(extra, "line "+f.Lines)
			}
			line := "- `" + f.ID + "`: " + f.Rendering + "."
			if len(extra) > 0 {
				line += " " + strings.Join(extra, "; ") + "."
			}
			if f.Kubectl != "" {
				line += " kubectl: " + f.Kubectl + "."
			}
			if f.Note != "" {
				line += " " + f.Note
			}
			fmt.Fprintf(&b, "%s\n  Example (%s):\n  ```\n  %s\n  ```\n", line, f.Origin, f.Example)
		}
	}
	return b.String()
}

// TestCatalogDocumented: the part of docs/messages.md after "## Catalogue" is generated
// from catalog.json (go test ./parsers/kubemsg/ -run TestCatalogDocumented -update-docs).
func TestCatalogDocumented(t *testing.T) {
	doc, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal("docs/messages.md (generated from catalog.json) is missing:", err)
	}
	c, err := Catalog()
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(doc), docsMarker)
	if i < 0 {
		t.Fatalf("docs/messages.md has no %q section", strings.TrimSpace(docsMarker))
	}
	want := string(doc[:i]) + docsMarker + catalogMarkdown(c)
	if string(doc) == want {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(docsPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/messages.md is not generated from catalog.json; run go test ./parsers/kubemsg/ -run TestCatalogDocumented -update-docs")
}
