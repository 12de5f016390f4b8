package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	redactpkg "github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/render"

	"github.com/nsanalyze/nsanalyze/analyzer/rules"

	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

const diffUsage = `Usage:
  nsanalyze diff [flags] OLD NEW

Compares two bundles of the same cluster, typically before and after a fix: which
namespaces were resolved, which are still stuck (with the same or other causes), which
are newly stuck, and which latent risks appeared or went away. Either bundle may be
"-" (read from standard input). -n limits the comparison to some namespaces.

Exit codes: 0 nothing is stuck in NEW (or --fail-on none), 1 something is still or
newly stuck in NEW (--fail-on risk: or a latent risk remains), 2 usage error or an
unreadable bundle.

Flags:
`

// Diff is the comparison of two reports (JSON: nsanalyze diff -o json).
type Diff struct {
	SchemaVersion string `json:"schemaVersion"` // "nsanalyze-diff/v1"
	// Generator names the nsanalyze that wrote the diff.
	Generator  *analyzer.Generator `json:"generator,omitempty"`
	Namespaces []string            `json:"namespaces,omitempty"` // the -n filter, when given
	Old        string              `json:"old"`
	New        string              `json:"new"`
	Resolved   []NSChange          `json:"resolved"`   // stuck in OLD, not in NEW
	StillStuck []NSChange          `json:"stillStuck"` // stuck in both
	NewlyStuck []NSChange          `json:"newlyStuck"` // stuck only in NEW
	RisksGone  []analyzer.Risk     `json:"risksGone"`
	RisksNew   []analyzer.Risk     `json:"risksNew"`
}

// NSChange is one namespace in a diff.
type NSChange struct {
	Name        string   `json:"name"`
	OldCauses   []string `json:"oldCauses"`
	NewCauses   []string `json:"newCauses"`
	FixedCauses []string `json:"fixedCauses"` // in OLD, not in NEW
	AddedCauses []string `json:"addedCauses"` // in NEW, not in OLD
	StuckFor    string   `json:"stuckFor,omitempty"`
	Verdict     string   `json:"verdict,omitempty"` // NEW's verdict (OLD's when resolved)
}

func causeKeys(ns analyzer.NamespaceReport) []string {
	var out []string
	for _, c := range ns.Causes {
		k := c.Type
		var what []string
		what = append(what, c.APIServices...)
		what = append(what, c.Webhooks...)
		what = append(what, c.Finalizers...)
		if len(what) > 0 {
			k += " (" + strings.Join(what, ", ") + ")"
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	out := []string{}
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// diffReports compares OLD and NEW by namespace name, cause (type and what it names)
// and latent risk (type and object).
func diffReports(old, nw *analyzer.Report) *Diff {
	d := &Diff{SchemaVersion: "nsanalyze-diff/v1", Old: old.Bundle.Path, New: nw.Bundle.Path,
		Resolved: []NSChange{}, StillStuck: []NSChange{}, NewlyStuck: []NSChange{}, RisksGone: []analyzer.Risk{}, RisksNew: []analyzer.Risk{}}
	newNS := map[string]analyzer.NamespaceReport{}
	for _, ns := range nw.Namespaces {
		newNS[ns.Name] = ns
	}
	oldNS := map[string]bool{}
	for _, o := range old.Namespaces {
		oldNS[o.Name] = true
		oc := causeKeys(o)
		n, ok := newNS[o.Name]
		if !ok {
			d.Resolved = append(d.Resolved, NSChange{Name: o.Name, OldCauses: oc, NewCauses: []string{}, FixedCauses: oc,
				AddedCauses: []string{}, Verdict: o.Verdict})
			continue
		}
		nc := causeKeys(n)
		d.StillStuck = append(d.StillStuck, NSChange{Name: o.Name, OldCauses: oc, NewCauses: nc, FixedCauses: minus(oc, nc),
			AddedCauses: minus(nc, oc), StuckFor: n.StuckFor, Verdict: n.Verdict})
	}
	for _, n := range nw.Namespaces {
		if !oldNS[n.Name] {
			nc := causeKeys(n)
			d.NewlyStuck = append(d.NewlyStuck, NSChange{Name: n.Name, OldCauses: []string{}, NewCauses: nc, FixedCauses: []string{},
				AddedCauses: nc, StuckFor: n.StuckFor, Verdict: n.Verdict})
		}
	}
	key := func(r analyzer.Risk) string { return r.Type + "\x00" + r.Object }
	oldR, newR := map[string]bool{}, map[string]bool{}
	for _, r := range old.Risks {
		oldR[key(r)] = true
	}
	for _, r := range nw.Risks {
		newR[key(r)] = true
		if !oldR[key(r)] {
			d.RisksNew = append(d.RisksNew, r)
		}
	}
	for _, r := range old.Risks {
		if !newR[key(r)] {
			d.RisksGone = append(d.RisksGone, r)
		}
	}
	return d
}

func writeDiffText(w io.Writer, d *Diff) {
	fmt.Fprintf(w, "nsanalyze diff: %s -> %s\n", d.Old, d.New)
	fmt.Fprintf(w, "by %s", generatorText(d.Generator))
	if len(d.Namespaces) > 0 {
		fmt.Fprintf(w, "; namespaces %s only", strings.Join(d.Namespaces, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%d resolved, %d still stuck, %d newly stuck; latent risks: %d gone, %d new\n",
		len(d.Resolved), len(d.StillStuck), len(d.NewlyStuck), len(d.RisksGone), len(d.RisksNew))
	section := func(title string, list []NSChange, show func(NSChange)) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, c := range list {
			show(c)
		}
	}
	section("Resolved (stuck before, not any more):", d.Resolved, func(c NSChange) {
		fmt.Fprintf(w, "  + %s (was: %s)\n", c.Name, strings.Join(c.OldCauses, "; "))
	})
	section("Still stuck:", d.StillStuck, func(c NSChange) {
		state := "same causes"
		if len(c.FixedCauses) > 0 || len(c.AddedCauses) > 0 {
			state = "causes changed"
		}
		fmt.Fprintf(w, "  = %s, stuck for %s, %s: %s\n", c.Name, atLeast(c.StuckFor), state, strings.Join(c.NewCauses, "; "))
		for _, f := range c.FixedCauses {
			fmt.Fprintf(w, "      fixed: %s\n", f)
		}
		for _, a := range c.AddedCauses {
			fmt.Fprintf(w, "      new:   %s\n", a)
		}
	})
	section("Newly stuck:", d.NewlyStuck, func(c NSChange) {
		fmt.Fprintf(w, "  ! %s, stuck for %s: %s\n", c.Name, atLeast(c.StuckFor), strings.Join(c.NewCauses, "; "))
	})
	if len(d.RisksGone) > 0 {
		fmt.Fprintf(w, "\nLatent risks gone:\n")
		for _, r := range d.RisksGone {
			fmt.Fprintf(w, "  + [%s] %s\n", r.Type, r.Object)
		}
	}
	if len(d.RisksNew) > 0 {
		fmt.Fprintf(w, "\nNew latent risks:\n")
		for _, r := range d.RisksNew {
			fmt.Fprintf(w, "  ! [%s] %s: %s\n", r.Type, r.Object, r.Summary)
		}
	}
}

// atLeast says how long a namespace has been stuck: a bundle records no capture time, so
// the age measured to its newest timestamp is a lower bound.
func atLeast(s string) string {
	if s == "" {
		return "?"
	}
	return "at least " + s
}

// diffOptions are the flags of nsanalyze diff.
type diffOptions struct {
	output, failOn *string
	namespaces     *[]string
	redact         *bool
	load           *loadFlags
}

// diffFlags declares the flags of nsanalyze diff.
func diffFlags(fs *pflag.FlagSet) runFunc {
	d := &diffOptions{
		output:     enumFlag(fs, "output", "o", "text", []string{"text", "markdown", "json"}, "output format: text|markdown|json"),
		namespaces: fs.StringSliceP("namespace", "n", nil, "only compare these namespaces (repeatable, or comma-separated)"),
		failOn:     enumFlag(fs, "fail-on", "", "stuck", []string{"stuck", "risk", "none"}, "exit 1 when NEW has: none (never)|stuck (a stuck namespace)|risk (or a latent risk)"),
		redact:     fs.Bool("redact", false, "replace customer names, domains, IPs, hostnames, UIDs, e-mail addresses, cloud account and resource ids with stable tokens"),
	}
	_ = fs.SetAnnotation("output", annAliases, []string{"md"})
	d.load = addLoadFlags(fs)
	return d.run
}

func (o *diffOptions) run(fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	output, namespaces, failOn, redact, load := o.output, o.namespaces, o.failOn, o.redact, o.load
	log, err := commandLogger(fs, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(stderr, "error: expected OLD and NEW bundles, got %d arguments\n\n", fs.NArg())
		fs.Usage()
		return exitUsage
	}
	switch *output {
	case "text", "markdown", "md", "json":
	default:
		fmt.Fprintf(stderr, "error: unknown --output %q for diff (want text, markdown or json)\n", *output)
		return exitUsage
	}
	if _, err := exitCodeFor(&analyzer.Report{}, *failOn); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	opts, err := load.options()
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	paths, cleanup, err := resolveStdin(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return exitUsage
	}
	defer cleanup()
	var reports [2]*analyzer.Report
	var recs [2]*bundle.Records
	for i, p := range paths {
		name := fs.Arg(i)
		rec, err := bundle.Load(p, opts)
		if rec != nil && !*redact {
			logBundle(log, rec) // under --redact, once the tokens are known
		}
		if err != nil {
			msg := name + ": " + redactpkg.Secrets(err.Error())
			if *redact {
				erd := newRedactor(fs.Args(), *namespaces)
				erd.Records(rec)
				erd.Text(msg)
				setLogFilter(log, erd.String)
				if rec != nil {
					logBundle(log, rec)
				}
				msg = erd.String(msg)
			}
			fmt.Fprintf(stderr, "error: %s\n", analyzer.EscapeLine(msg))
			return exitUsage
		}
		rec.Path = name
		recs[i] = rec
		reports[i] = analyzer.Analyze(rec, analyzer.Options{Rules: rules.All, Namespaces: *namespaces})
	}
	reports[0], reports[1] = redactpkg.Scrub(reports[0]), redactpkg.Scrub(reports[1])
	var rd *redactpkg.Redactor
	if *redact {
		// one mapping for both bundles, so the same name has the same token on both sides
		rd = newRedactor(fs.Args(), *namespaces)
		rd.Records(recs[0])
		rd.Records(recs[1])
		rd.Report(reports[0])
		rd.Report(reports[1])
		r0, r1 := rd.Apply(reports[0]), rd.Apply(reports[1])
		r0.Bundle.Path, r1.Bundle.Path = "OLD", "NEW"
		reports[0], reports[1] = r0, r1
		setLogFilter(log, rd.String)
		logBundle(log, recs[0])
		logBundle(log, recs[1])
	}
	d := diffReports(reports[0], reports[1])
	d.Generator = generator()
	d.Namespaces = *namespaces
	if rd != nil {
		d.Namespaces = nil
		for _, n := range *namespaces {
			d.Namespaces = append(d.Namespaces, rd.String(n))
		}
	}
	ew := &errWriter{w: stdout}
	switch *output {
	case "json":
		_ = render.WriteJSON(ew, d) // no raw C1, bidi or zero-width character
	case "markdown", "md":
		render.Clean(d) // names and verdicts from the bundle: escaped as in the report
		writeDiffMarkdown(ew, d)
	default:
		render.Clean(d)
		writeDiffText(ew, d)
	}
	if ew.err != nil {
		fmt.Fprintf(stderr, "error: cannot write the diff: %s\n", analyzer.EscapeLine(ew.err.Error()))
		return exitUsage // a diff that was not written is never a verdict
	}
	code, _ := exitCodeFor(reports[1], *failOn)
	return code
}

func generatorText(g *analyzer.Generator) string {
	if g == nil {
		return "nsanalyze"
	}
	s := g.Name + " " + g.Version
	if g.Revision != "" {
		s += " (revision " + g.Revision + ")"
	}
	return s
}

// mdEsc and mdCode are render's Markdown escapers: one escaper for every Markdown
// nsanalyze writes.
func mdEsc(s string) string { return render.MarkdownText(s) }

func mdCode(s string) string { return render.MarkdownCode(s) }

// writeDiffMarkdown writes the diff for a ticket: a one-line summary, then a table per
// kind of change.
func writeDiffMarkdown(w io.Writer, d *Diff) {
	fmt.Fprintf(w, "# nsanalyze diff\n\n%s → %s, by %s", mdCode(d.Old), mdCode(d.New), mdEsc(generatorText(d.Generator)))
	if len(d.Namespaces) > 0 {
		var ns []string
		for _, n := range d.Namespaces {
			ns = append(ns, mdCode(n))
		}
		fmt.Fprintf(w, "; namespaces %s only", strings.Join(ns, ", "))
	}
	fmt.Fprintf(w, ".\n\n**%d resolved, %d still stuck, %d newly stuck; latent risks: %d gone, %d new.**\n\n",
		len(d.Resolved), len(d.StillStuck), len(d.NewlyStuck), len(d.RisksGone), len(d.RisksNew))
	table := func(title string, list []NSChange, row func(NSChange) string, head string) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(w, "## %s\n\n%s\n", title, head)
		for _, c := range list {
			fmt.Fprintln(w, row(c))
		}
		fmt.Fprintln(w)
	}
	causes := func(cs []string) string {
		if len(cs) == 0 {
			return "-"
		}
		var out []string
		for _, c := range cs {
			out = append(out, mdEsc(c))
		}
		return strings.Join(out, "; ")
	}
	table("Resolved (stuck before, not any more)", d.Resolved, func(c NSChange) string {
		return fmt.Sprintf("| %s | %s |", mdCode(c.Name), causes(c.OldCauses))
	}, "| Namespace | Was stuck on |\n|---|---|")
	table("Still stuck", d.StillStuck, func(c NSChange) string {
		return fmt.Sprintf("| %s | %s | %s | %s | %s |", mdCode(c.Name), atLeast(c.StuckFor), causes(c.NewCauses), causes(c.FixedCauses), causes(c.AddedCauses))
	}, "| Namespace | Stuck for | Causes now | Fixed | New |\n|---|---|---|---|---|")
	table("Newly stuck", d.NewlyStuck, func(c NSChange) string {
		return fmt.Sprintf("| %s | %s | %s |", mdCode(c.Name), atLeast(c.StuckFor), causes(c.NewCauses))
	}, "| Namespace | Stuck for | Causes |\n|---|---|---|")
	if len(d.RisksGone) > 0 {
		fmt.Fprintf(w, "## Latent risks gone\n\n")
		for _, r := range d.RisksGone {
			fmt.Fprintf(w, "- **%s** %s\n", mdEsc(r.Type), mdCode(r.Object))
		}
		fmt.Fprintln(w)
	}
	if len(d.RisksNew) > 0 {
		fmt.Fprintf(w, "## New latent risks\n\n")
		for _, r := range d.RisksNew {
			fmt.Fprintf(w, "- **%s** %s: %s\n", mdEsc(r.Type), mdCode(r.Object), mdEsc(r.Summary))
		}
		fmt.Fprintln(w)
	}
}
