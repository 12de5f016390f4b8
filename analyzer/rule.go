package analyzer

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/mechanism"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// Rule explains one way a namespace gets stuck. It is one value that declares what it
// reads, what it finds and what it fixes, in the spirit of golang.org/x/tools/go/analysis's
// Analyzer: each rule lives in its own package under analyzer/rules/ with its testdata,
// and analyzer/rules lists them in its registry.
type Rule struct {
	// Name is the cause type the rule reports (JSON causes[].type), e.g. "api-discovery-failure".
	Name string
	// Doc says what the cause is and how Kubernetes gets there (first line: a summary).
	Doc string

	// Lines are the rule's log line matchers: each declares the literal phrases its
	// lines contain and returns the keys under which a line is kept for the rule
	// (Pass.Lines). A matcher sees only the lines whose detail contains one of its
	// phrases, and the loader's prefilter is the union of every rule's phrases
	// (Phrases): a phrase and the matcher that needs it are one declaration, so the
	// prefilter cannot drop a line a matcher recognises.
	Lines []index.Match
	// Kinds are the object kinds the rule reads; the loader keeps them (KeepObject).
	Kinds []string

	// Run returns the causes found for pass.Namespace; when it finds none it may return
	// a ruled-out reason (empty string = not applicable, say nothing). Each cause claims
	// what it explains (claims.go): its Objects and Related lines, and what it claims
	// with Cause.ClaimObject, ClaimResource, ClaimGroup, ClaimFinalizer or ClaimContent.
	Run func(pass *Pass) ([]findings.Cause, string)
	// Claims are the kinds of claim the rule's causes make (claims.go): ClaimsObjects
	// for a cause that lists Objects, ClaimsFinalizers when they carry finalizers, and
	// so on. A cause claiming a kind its rule does not declare is a rule error (a
	// warning in the report), since the order is derived from these declarations.
	Claims []findings.ClaimKind
	// Yields are the kinds of claim the rule defers to: it explains only what no other
	// rule claims of them (finalizers-remaining, content-remaining: it reads the
	// namespace through Pass.Objects and Pass.Claimed...). It runs after every rule that
	// Claims one of them, except the rules that yield that kind too.
	Yields []findings.ClaimKind
	// Requires are the rules whose claims or causes this rule reads: it runs after
	// them (content-remaining reads what finalizers-remaining claimed). The run order
	// is derived from Requires, Yields and Claims (NewPlan), ties by name; the
	// registry's order is only the order causes are reported in.
	Requires []*Rule

	// Ladder returns the safe and caution rungs that act on a cause of this rule, with
	// real object names, root first; the analyzer orders them, removes duplicates and
	// ends every ladder with the /finalize last resort.
	Ladder func(pass *Pass, c *findings.Cause) []findings.RemediationStep
	// Risks, when set, returns broken pieces of the cluster that will hang the next
	// namespace deletion (latent risks), except those in reported (keys from Reported).
	Risks func(ix *index.Index, reported map[string]bool) []findings.Risk
	// Example returns a cause of this rule on placeholder names (NAMESPACE, NAME, ...),
	// adding what its ladder reads to pass.Index: what `nsanalyze explain` shows.
	Example func(pass *Pass) findings.Cause
}

// Collectors are the rules' log line matchers, for the index (index.New).
func Collectors(rules []*Rule) []index.Collector {
	out := make([]index.Collector, 0, len(rules))
	for _, r := range rules {
		out = append(out, index.Collector{Rule: r.Name, Lines: r.Lines})
	}
	return out
}

// RulePhrases returns the phrases of a rule's matchers, in declaration order.
func RulePhrases(r *Rule) []string {
	var out []string
	for _, m := range r.Lines {
		out = append(out, m.Phrases...)
	}
	return out
}

// Pass is what a rule sees: the index of the whole bundle and one stuck namespace
// (its Scope, which the mechanisms read too), the namespace object and its deletion.
type Pass struct {
	mechanism.Scope
	Rule     *Rule
	Object   *objects.Object // the Namespace object; nil when the namespace is known only from logs
	Deletion time.Time       // deletion timestamp (zero when unknown)
	// claims are what the causes found so far for Namespace claim (claims.go).
	claims *namespaceClaims
	// guard holds the invalid names the namespace's causes name (namespaceGuard).
	guard *shellsafe.Guard
	// warn collects the analysis' own warnings (premises, rule errors).
	warn *warnings
	// example is set for ExampleLadder: its placeholder names (NAMESPACE) are not
	// Kubernetes names, and are kept in the commands.
	example bool
}

// Condition returns the namespace's condition of a type, or nil.
func (p *Pass) Condition(t string) *objects.Condition {
	if p.Object == nil {
		return nil
	}
	return p.Object.Condition(t)
}

// ConditionTrue returns the condition when its status is "True".
func (p *Pass) ConditionTrue(t string) *objects.Condition {
	if c := p.Condition(t); c != nil && c.Status == "True" {
		return c
	}
	return nil
}

// Lines returns the log lines the running rule's matchers kept under key.
func (p *Pass) Lines(key string) []*logs.Entry {
	if p.Rule == nil {
		return nil
	}
	return p.Index.RuleLines(p.Rule.Name, key)
}

// LineKeys returns the keys under which the running rule's matchers kept lines, sorted.
func (p *Pass) LineKeys() []string {
	if p.Rule == nil {
		return nil
	}
	return p.Index.RuleKeys(p.Rule.Name)
}

// CorePhrases are the log phrases the analyzer itself needs, whatever the rules: the
// namespace controller's failures and completions (which namespaces are stuck), its
// (re)starts, and the components' start-up lines (the Kubernetes version).
var CorePhrases = []string{
	"eletion of namespace",                                // KCM namespace controller: 1.16+ "deletion of namespace X failed", 1.35 "Deletion of namespace failed" namespace=X
	"unexpected items still remain in namespace",          // namespace deleter, per resource (bare in 1.8-1.15 KCM lines)
	"failed to delete pods for namespace",                 // KEP-5080 ordered namespace deletion (1.33+, backports)
	"pods still remain, delaying deletion",                // KEP-5080 V(5) line
	"Namespace has been deleted",                          // namespace controller: a namespace finished
	"ensuring all content is removed from this namespace", // API server: an operation refused in a namespace being deleted (kubectl stderr)
	"is being terminated",                                 // NamespaceLifecycle admission: content created in a namespace being deleted (kubemsg.ParseNamespaceTerminating)
	"Termination is in progress",                          // API server before 1.0: the Conflict of an update of a namespace being deleted (kubemsg.ParseNamespaceTerminating)
	kubemsg.NewFinalizersForbidden,                        // API server: an update adding finalizers to an object being deleted (kubectl patch stderr)
	kubemsg.TerraformStillDestroying,                      // Terraform: a delete still running (kubemsg.ParseTerraformNamespaceWait)
	"Starting namespace controller",                       // namespace controller (re)started
	"successfully acquired lease",                         // leader election (KCM restarts)
	`version="v1.`,                                        // component start-up, structured ("Starting" version=...)
	"Version: v1.",                                        // component start-up, printf (before structured logging)
}

// corePhrases are CorePhrases and the cloud controllers' phrases (kubemsg.CloudPhrases).
func corePhrases() []string {
	return append(append([]string{}, CorePhrases...), kubemsg.CloudPhrases()...)
}

// Phrases returns the log prefilter derived from the rules: CorePhrases and the
// phrases of every rule's matchers, without duplicates, in a stable order.
func Phrases(rules []*Rule) []string {
	seen := map[string]bool{}
	var out []string
	add := func(ps []string) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	add(corePhrases())
	for _, r := range rules {
		add(RulePhrases(r))
	}
	return out
}

// coreKinds are the kinds the analyzer reads whatever the rules.
var coreKinds = []string{"Namespace", "Project", objects.KindVersionInfo}

// KeepObject returns the loader's keep decision derived from the rules: the kinds any
// rule (or the core) reads, Warning events and events about Namespaces (the timeline),
// and every object with finalizers or a deletion timestamp. The rest are only counted,
// so memory follows what matters, not the size of the bundle.
func KeepObject(rules []*Rule) func(*objects.Object) bool {
	kinds := map[string]bool{}
	for _, k := range coreKinds {
		kinds[k] = true
	}
	for _, r := range rules {
		for _, k := range r.Kinds {
			kinds[k] = true
		}
	}
	return func(o *objects.Object) bool {
		if o.Kind == "Event" {
			return o.Event != nil && (o.Event.Type == "Warning" || o.Event.Involved.Kind == "Namespace")
		}
		if kinds[o.Kind] {
			return true
		}
		return len(o.Finalizers) > 0 || !o.DeletionTimestamp.IsZero()
	}
}

// Validate checks a registry: names unique and well formed, every rule documented with
// a run function, a ladder and an example, its kinds of claim known, the rules it
// requires registered, and an order derivable from the declarations (no cycle).
func Validate(rules []*Rule) error {
	byName := map[string]*Rule{}
	for _, r := range rules {
		switch {
		case r.Name == "" || strings.ToLower(r.Name) != r.Name || strings.ContainsAny(r.Name, " _"):
			return fmt.Errorf("rule %q: the name must be a lower-case, dash-separated cause type", r.Name)
		case r.Name == findings.CauseUndetermined:
			return fmt.Errorf("rule %q: %q is reserved for the analyzer", r.Name, findings.CauseUndetermined)
		case byName[r.Name] != nil:
			return fmt.Errorf("rule %q registered twice", r.Name)
		case strings.TrimSpace(r.Doc) == "":
			return fmt.Errorf("rule %q has no Doc", r.Name)
		case r.Run == nil:
			return fmt.Errorf("rule %q has no Run", r.Name)
		case r.Ladder == nil:
			return fmt.Errorf("rule %q has no Ladder", r.Name)
		case r.Example == nil:
			return fmt.Errorf("rule %q has no Example", r.Name)
		}
		for _, k := range append(append([]findings.ClaimKind{}, r.Claims...), r.Yields...) {
			if !slices.Contains(findings.AllClaimKinds, k) {
				return fmt.Errorf("rule %q: unknown kind of claim %q", r.Name, k)
			}
		}
		byName[r.Name] = r
	}
	for _, r := range rules {
		for _, q := range r.Requires {
			if q == nil || byName[q.Name] != q {
				return fmt.Errorf("rule %q requires a rule that is not registered", r.Name)
			}
		}
	}
	_, err := NewPlan(rules)
	return err
}

// RuleByName returns the rule of a registry that reports a cause type, or nil.
func RuleByName(rules []*Rule, name string) *Rule {
	for _, r := range rules {
		if r.Name == name {
			return r
		}
	}
	return nil
}
