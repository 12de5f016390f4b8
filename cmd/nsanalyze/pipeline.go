package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	redactpkg "github.com/nsanalyze/nsanalyze/analyzer/redact"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	ipipeline "github.com/nsanalyze/nsanalyze/cmd/internal/pipeline"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
)

// pipeline is what every command does with its bundles, in one place, so the analysis,
// diff and scan cannot drift apart: load → readable → one cluster → analyse → known
// issues → scrub secrets → redact → diagnostics. Rendering is the command's.
type pipeline struct {
	log        *logrus.Logger // nil: no diagnostics (scan keeps them in its result lines)
	progress   io.Writer      // where the progress indicator draws (nil: none)
	opts       bundle.Options
	load       *loadFlags
	namespaces []string // -n
	redact     bool
	// args are every bundle of the command line as given, which --redact hides.
	args []string
	// rd is the mapping of --redact once run has learned every side.
	rd *redactpkg.Redactor
}

// redactString is s as a diagnostic may print it: without secrets, and under --redact
// with the run's tokens.
func (p *pipeline) redactString(s string) string {
	if p.rd != nil {
		return p.rd.String(s)
	}
	return redactpkg.Secrets(s)
}

// side is one view through the pipeline: one bundle, or the bundles of the command
// line read as one (the analysis), and what became of it.
type side struct {
	name  string   // as messages name it: the arguments as given ("-" for stdin)
	args  []string // the arguments as given
	paths []string // what is read (a spool file for "-")
	// spools maps a spool file to "-", so no message names the temporary copy.
	spools map[string]string
	rec    *bundle.Records
	report *findings.Report
	// missing are the -n names the bundle does not hold (before --redact).
	missing []string
	// archives are the folders among the side's bundles that hold several archives,
	// each maybe a bundle of its own, with how many.
	archives map[string]int
	// read and analysed are how long reading and analysing (to --redact) took.
	read, analysed time.Duration
}

// pipelineError is a failure of the pipeline with the exit code it means.
type pipelineError struct {
	code int
	msg  string // already escaped and, under --redact, redacted
	// unreadable: nothing of the bundle reads as Kubernetes evidence.
	unreadable bool
}

func (e *pipelineError) Error() string { return e.msg }

// run takes every side through the pipeline. Under --redact one mapping covers all
// sides (the same name has the same token on both sides of a diff) and the
// diagnostics wait until it is known. An unreadable side, a load error or a side that
// mixes clusters is an error (exitUsage) naming the side.
func (p *pipeline) run(sides ...*side) error {
	var rd *redactpkg.Redactor
	if p.redact {
		rd = ipipeline.NewRedactor(p.args, p.namespaces)
		p.rd = rd
	}
	// fail logs what the sides read so far said, then returns the error, redacted
	fail := func(err *pipelineError, learn string) error {
		if rd != nil {
			for _, s := range sides {
				if s.rec != nil {
					rd.Records(s.rec)
				}
			}
			rd.Text(learn)
			if p.log != nil {
				setLogFilter(p.log, rd.String)
				for _, s := range sides {
					if s.rec != nil {
						logBundle(p.log, s.rec)
					}
				}
			}
			err.msg = rd.String(err.msg)
		}
		err.msg = shellsafe.EscapeLine(err.msg)
		return err
	}
	for _, s := range sides {
		start := time.Now()
		var prog *progress
		if p.progress != nil {
			prog = startProgress(p.progress, s.paths, true)
		}
		rec, err := bundle.LoadAll(s.paths, p.opts)
		if prog != nil {
			prog.Stop()
		}
		s.read = time.Since(start)
		if rec != nil {
			rec.Path = s.name // "-" for standard input, not the spool file
			s.rec = rec
			if rd == nil && p.log != nil {
				logBundle(p.log, rec)
			}
		}
		if err != nil {
			msg := s.unspool(redactpkg.Secrets(err.Error()))
			if !strings.Contains(msg, s.name) {
				msg = s.name + ": " + msg
			}
			return fail(&pipelineError{code: exitUsage, msg: msg}, msg)
		}
		if p.log != nil {
			p.log.WithFields(logrus.Fields{"objects": rec.ObjectCount, "logFiles": len(rec.LogFiles), "logEntries": len(rec.Entries),
				"elapsed": time.Since(start).Round(time.Millisecond)}).Info("bundle read")
		}
		if !ipipeline.Readable(rec) {
			return fail(&pipelineError{code: exitUsage, unreadable: true, msg: fmt.Sprintf("nothing in %s could be read as a Kubernetes support bundle (%d files looked at: no Kubernetes object, component log or kubectl output; see the warnings above). Collect one with: nsanalyze collect > collect.sh && sh collect.sh",
				s.name, len(rec.Files))}, "")
		}
		if ids := clusterOf(rec); len(ids.uids) > 1 {
			what := s.name + " holds bundles"
			if len(s.paths) > 1 {
				what = "the bundles " + s.name + " are"
			}
			return fail(&pipelineError{code: exitUsage, msg: fmt.Sprintf("%s of %d different clusters (%s): a report is about one cluster; analyse one bundle at a time, or count the problems of all of them with: nsanalyze scan %s",
				what, len(ids.uids), ids.describe(s.unspool), strings.Join(p.args, " "))}, "")
		}
		if p.log != nil {
			s.archives = severalArchives(s)
		}
		t := time.Now()
		s.report = ipipeline.Report(rec, p.namespaces, p.load.catalog) // rules, known issues, secrets removed
		s.missing = s.report.NotInBundle
		s.report.Generator = generator()
		s.analysed = time.Since(t)
	}
	if rd != nil {
		for _, s := range sides {
			rd.Records(s.rec)
		}
		for _, s := range sides {
			rd.Report(s.report)
		}
		for _, s := range sides {
			t := time.Now()
			s.report = rd.Apply(s.report)
			s.analysed += time.Since(t)
		}
		if p.log != nil {
			setLogFilter(p.log, rd.String)
			for _, s := range sides {
				logBundle(p.log, s.rec)
			}
		}
	}
	if p.log != nil {
		for _, s := range sides {
			where := "the bundle"
			if len(sides) > 1 {
				where = s.name
			}
			for dir, n := range s.archives {
				p.log.Warnf("%s holds %d archives, read as one bundle of one cluster; if they are bundles of different clusters, analyse each on its own, or count their problems with: nsanalyze scan %s", dir, n, dir)
			}
			for _, n := range s.missing {
				// kubectl: Error from server (NotFound): namespaces "x" not found
				p.log.Warnf("-n %s: namespace %q is not in %s (neither a Namespace object nor a log line of the namespace controller names it)", n, n, where)
			}
		}
	}
	return nil
}

// severalArchives returns the directories among the side's bundles that hold two or
// more archives (scan would take each for a bundle): read as one view, they may be
// bundles of several clusters that show no kube-system UID.
func severalArchives(s *side) map[string]int {
	out := map[string]int{}
	for _, a := range s.args {
		if st, err := os.Stat(a); err != nil || !st.IsDir() {
			continue
		}
		found, err := findBundles(a)
		if err != nil {
			continue
		}
		n := 0
		for _, f := range found {
			if hasSuffix(f, archiveExts) {
				n++
			}
		}
		if n >= 2 {
			out[a] = n
		}
	}
	return out
}

// unspool replaces the path of a spool file in a message with "-".
func (s *side) unspool(msg string) string {
	for path, name := range s.spools {
		msg = strings.ReplaceAll(msg, path, name)
	}
	return msg
}

// newSide is the side of the bundles args (as given), read from paths.
func newSide(args, paths []string) *side {
	s := &side{name: strings.Join(args, ", "), args: args, paths: paths, spools: map[string]string{}}
	for i, p := range paths {
		if i < len(args) && args[i] != p {
			s.spools[p] = args[i]
		}
	}
	return s
}

// identity is what the records show of the cluster they come from.
type identity struct {
	// uids maps each UID of the namespaces kube-system and default (never deleted, so
	// one UID per cluster) to the first file that shows it.
	uids map[string]string
	// namespaces are the names of the Namespace objects (nil when there is none).
	namespaces map[string]bool
	version    string
}

// clusterOf is the identity of the cluster (or clusters) of the records. kube-system
// and default are never deleted, so two UIDs of the same one are two clusters.
func clusterOf(rec *bundle.Records) identity {
	id := identity{uids: map[string]string{}, version: rec.ServerVersion}
	byName := map[string]map[string]string{}
	rec.EachSlimNamespace(func(name string) { // Active, neither kube-system nor default
		if id.namespaces == nil {
			id.namespaces = map[string]bool{}
		}
		id.namespaces[name] = true
	})
	for _, o := range rec.Objects {
		if o.Kind != "Namespace" || o.Name == "" {
			continue
		}
		if id.namespaces == nil {
			id.namespaces = map[string]bool{}
		}
		id.namespaces[o.Name] = true
		if o.UID == "" || (o.Name != "kube-system" && o.Name != "default") {
			continue
		}
		if byName[o.Name] == nil {
			byName[o.Name] = map[string]string{}
		}
		if _, ok := byName[o.Name][o.UID]; !ok {
			byName[o.Name][o.UID] = o.Source.File
		}
	}
	// kube-system when shown (every layout dumps it), else default
	for _, n := range []string{"kube-system", "default"} {
		if len(byName[n]) > 0 {
			for uid, f := range byName[n] {
				id.uids[n+" "+uid] = f
			}
			break
		}
	}
	return id
}

// describe lists the UIDs and where each is shown.
func (id identity) describe(unspool func(string) string) string {
	var out []string
	for k, f := range id.uids {
		name, uid, _ := strings.Cut(k, " ")
		out = append(out, fmt.Sprintf("namespace %s has UID %s in %s", name, uid, unspool(f)))
	}
	sort.Strings(out)
	if len(out) > 3 {
		out = append(out[:3], fmt.Sprintf("and %d more", len(out)-3))
	}
	return strings.Join(out, "; ")
}

// builtinNamespaces exist in every cluster: sharing them says nothing of identity.
var builtinNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true, "kube-node-lease": true}

// sameCluster says whether two sides show the same cluster, and if not, why: the
// UIDs of kube-system (or default) differ, or, without UIDs, both list namespaces and
// share none but the built-in ones.
func sameCluster(a, b identity) (bool, string) {
	if len(a.uids) == 1 && len(b.uids) == 1 {
		for ka := range a.uids {
			for kb := range b.uids {
				na, ua, _ := strings.Cut(ka, " ")
				nb, ub, _ := strings.Cut(kb, " ")
				if na == nb && ua != ub {
					return false, fmt.Sprintf("namespace %s has UID %s in OLD and %s in NEW", na, ua, ub)
				}
				if na == nb {
					return true, ""
				}
			}
		}
	}
	own := func(id identity) []string {
		var out []string
		for n := range id.namespaces {
			if !builtinNamespaces[n] {
				out = append(out, n)
			}
		}
		sort.Strings(out)
		return out
	}
	oa, ob := own(a), own(b)
	if len(oa) == 0 || len(ob) == 0 {
		return true, ""
	}
	for _, n := range oa {
		if b.namespaces[n] {
			return true, ""
		}
	}
	why := fmt.Sprintf("they share no namespace but the built-in ones (OLD: %s; NEW: %s)", firstFew(oa), firstFew(ob))
	if a.version != "" && b.version != "" && a.version != b.version {
		why += fmt.Sprintf(", and their servers are %s and %s", a.version, b.version)
	}
	return false, why
}

func firstFew(v []string) string {
	if len(v) > 4 {
		return strings.Join(v[:4], ", ") + fmt.Sprintf(" and %d more", len(v)-4)
	}
	return strings.Join(v, ", ")
}
