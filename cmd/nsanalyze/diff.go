package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/spf13/pflag"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/render"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

const diffUsage = `Usage:
  nsanalyze diff [flags] OLD NEW

Compares two bundles of the same cluster, typically before and after a fix: which
namespaces were resolved, which are still stuck (with the same or other causes), which
are newly stuck, and which latent risks appeared or went away. Either bundle may be
"-" (read from standard input). -n limits the comparison to some namespaces.

Each bundle is read and analysed as "nsanalyze BUNDLE" reads it: a bundle nothing of
which reads as Kubernetes evidence is an error, as are two bundles of different
clusters (kube-system has another UID, or they share no namespace but the built-in
ones). When NEW cannot show namespace state (a cluster-info dump, a bundle of some
namespaces), a namespace stuck in OLD and absent from NEW is "not shown", never
"resolved".

Exit codes: 0 nothing is stuck in NEW (or --fail-on none), 1 something is still or
newly stuck in NEW (--fail-on risk: or a latent risk remains), 2 usage error, an
unreadable bundle or bundles of different clusters, 3 NEW cannot show namespace state
and nothing is stuck in it, 4 the diff could not be written.

Flags:
`

// Diff is the comparison of two reports (JSON: nsanalyze diff -o json).
type Diff struct {
	SchemaVersion string `json:"schemaVersion"` // "nsanalyze-diff/v1"
	// Generator names the nsanalyze that wrote the diff.
	Generator  *findings.Generator `json:"generator,omitempty"`
	Namespaces []string            `json:"namespaces,omitempty"` // the -n filter, when given
	Old        string              `json:"old"`
	New        string              `json:"new"`
	Resolved   []NSChange          `json:"resolved"`   // stuck in OLD, not in NEW
	StillStuck []NSChange          `json:"stillStuck"` // stuck in both
	NewlyStuck []NSChange          `json:"newlyStuck"` // stuck only in NEW
	// NotShown are stuck in OLD and absent from NEW when NEW cannot show namespace
	// state (NewStateReason says why): not known to be resolved.
	NotShown       []NSChange      `json:"notShown,omitempty"`
	NewStateReason string          `json:"newStateReason,omitempty"`
	RisksGone      []findings.Risk `json:"risksGone"`
	RisksNew       []findings.Risk `json:"risksNew"`
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

func causeKeys(ns findings.NamespaceReport) []string {
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
func diffReports(old, nw *findings.Report) *Diff {
	d := &Diff{SchemaVersion: "nsanalyze-diff/v1", Old: old.Bundle.Path, New: nw.Bundle.Path,
		Resolved: []NSChange{}, StillStuck: []NSChange{}, NewlyStuck: []NSChange{}, RisksGone: []findings.Risk{}, RisksNew: []findings.Risk{}}
	newNS := map[string]findings.NamespaceReport{}
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
	key := func(r findings.Risk) string { return r.Type + "\x00" + r.Object }
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
	fmt.Fprintf(w, "%d resolved, %d still stuck, %d newly stuck%s; latent risks: %d gone, %d new\n",
		len(d.Resolved), len(d.StillStuck), len(d.NewlyStuck), notShownCount(d), len(d.RisksGone), len(d.RisksNew))
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
	section(notShownTitle(d)+":", d.NotShown, func(c NSChange) {
		fmt.Fprintf(w, "  ? %s (was: %s)\n", c.Name, strings.Join(c.OldCauses, "; "))
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

// notShown moves the namespaces "resolved" to "not shown in NEW": NEW cannot show
// namespace state (reason) and lists no namespace, so a namespace absent from it may
// still be stuck.
func notShown(d *Diff, reason string) {
	for _, c := range d.Resolved {
		c.FixedCauses = []string{}
		d.NotShown = append(d.NotShown, c)
	}
	d.Resolved = []NSChange{}
	if len(d.NotShown) > 0 {
		d.NewStateReason = reason
	}
}

// notShownCount is ", N not shown in NEW" when NEW could not show some namespaces.
func notShownCount(d *Diff) string {
	if len(d.NotShown) == 0 {
		return ""
	}
	return fmt.Sprintf(", %d not shown in NEW", len(d.NotShown))
}

// notShownTitle heads the namespaces NEW cannot show.
func notShownTitle(d *Diff) string {
	t := "Not shown in NEW (stuck before; NEW cannot show namespace state"
	if d.NewStateReason != "" {
		t += ": " + d.NewStateReason
	}
	return t + ")"
}

// diffOptions are the flags of nsanalyze diff, and what Complete makes of them.
type diffOptions struct {
	output, failOn *string
	namespaces     *[]string
	redact         *bool
	load           *loadFlags

	args []string
	log  *logrus.Logger
	opts bundle.Options
}

// diffFlags declares the flags of nsanalyze diff.
func diffFlags(fs *pflag.FlagSet) runFunc {
	d := &diffOptions{
		output:     enumFlag(fs, "output", "o", "text", []string{"text", "markdown", "json"}, "output format: text|markdown|json"),
		namespaces: fs.StringSliceP("namespace", "n", nil, "only compare these namespaces (repeatable, or comma-separated); each one a bundle does not hold is named on stderr"),
		failOn:     enumFlag(fs, "fail-on", "", "stuck", []string{"stuck", "risk", "none"}, "exit 1 when NEW has: none (never)|stuck (a stuck namespace)|risk (or a latent risk)"),
		redact:     fs.Bool("redact", false, "replace customer names, domains, IPs, hostnames, UIDs, e-mail addresses, cloud account and resource ids with stable tokens"),
	}
	_ = fs.SetAnnotation("output", annAliases, []string{"md"})
	d.load = addLoadFlags(fs)
	return runOptions(d)
}

// Complete fills in what the flags and arguments imply.
func (o *diffOptions) Complete(fs *pflag.FlagSet, s IOStreams) error {
	o.args = fs.Args()
	log, err := commandLogger(fs, s.ErrOut)
	if err != nil {
		return err
	}
	o.log = log
	o.opts, err = o.load.options()
	return err
}

// Validate checks the options before anything is read.
func (o *diffOptions) Validate() error {
	if len(o.args) != 2 {
		return usageError{fmt.Errorf("expected OLD and NEW bundles, got %d arguments", len(o.args))}
	}
	switch *o.output {
	case "text", "markdown", "md", "json":
	default:
		return fmt.Errorf("unknown --output %q for diff (want text, markdown or json)", *o.output)
	}
	_, err := exitCodeFor(&findings.Report{}, *o.failOn)
	return err
}

// Run takes OLD and NEW through the pipeline, checks they are one cluster, and writes
// the diff on Out.
func (o *diffOptions) Run(s IOStreams) int {
	paths, cleanup, err := resolveStdin(o.args, s.In)
	if err != nil {
		fmt.Fprintf(s.ErrOut, "error: %v\n", err)
		return exitUsage
	}
	defer cleanup()
	old, nw := newSide(o.args[:1], paths[:1]), newSide(o.args[1:], paths[1:])
	p := &pipeline{log: o.log, opts: o.opts, load: o.load, namespaces: *o.namespaces, redact: *o.redact, args: o.args}
	if err := p.run(old, nw); err != nil {
		return reportPipelineError(s, err)
	}
	if same, why := sameCluster(clusterOf(old.rec), clusterOf(nw.rec)); !same {
		fmt.Fprintf(s.ErrOut, "error: %s and %s are bundles of different clusters: %s. diff compares two bundles of one cluster (before and after a fix); analyse each with: nsanalyze BUNDLE\n",
			o.shown(p, 0), o.shown(p, 1), o.redacted(p, why))
		return exitUsage
	}
	reports := [2]*findings.Report{old.report, nw.report}
	if *o.redact {
		reports[0].Bundle.Path, reports[1].Bundle.Path = "OLD", "NEW"
	}
	d := diffReports(reports[0], reports[1])
	if reports[1].State == findings.StateUnknown && !nw.rec.NamespaceListSeen {
		notShown(d, reports[1].StateReason)
	}
	d.Generator = generator()
	d.Namespaces = *o.namespaces
	if *o.redact {
		d.Namespaces = nil
		for _, n := range *o.namespaces {
			d.Namespaces = append(d.Namespaces, p.redactString(n))
		}
	}
	switch *o.output {
	case "json":
		_ = render.WriteJSON(s.Out, d) // no raw C1, bidi or zero-width character
	case "markdown", "md":
		render.Clean(d) // names and verdicts from the bundle: escaped as in the report
		writeDiffMarkdown(s.Out, d)
	default:
		render.Clean(d)
		writeDiffText(s.Out, d)
	}
	code, _ := exitCodeFor(reports[1], *o.failOn)
	return code // a write that failed: exitWrite (the dispatcher checks Out)
}

// shown is how an error names bundle i: as given, or OLD/NEW under --redact.
func (o *diffOptions) shown(p *pipeline, i int) string {
	if *o.redact {
		return [2]string{"OLD", "NEW"}[i]
	}
	return shellsafe.EscapeLine(o.args[i])
}

// redacted is s as a diagnostic prints it.
func (o *diffOptions) redacted(p *pipeline, s string) string {
	return shellsafe.EscapeLine(p.redactString(s))
}

func generatorText(g *findings.Generator) string {
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
	fmt.Fprintf(w, ".\n\n**%d resolved, %d still stuck, %d newly stuck%s; latent risks: %d gone, %d new.**\n\n",
		len(d.Resolved), len(d.StillStuck), len(d.NewlyStuck), notShownCount(d), len(d.RisksGone), len(d.RisksNew))
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
	table(mdEsc(notShownTitle(d)), d.NotShown, func(c NSChange) string {
		return fmt.Sprintf("| %s | %s |", mdCode(c.Name), causes(c.OldCauses))
	}, "| Namespace | Was stuck on |\n|---|---|")
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
