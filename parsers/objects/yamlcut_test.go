package objects

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// cutNamespaceYAML is fixtures/realworld/k8s-92858-*'s Namespace (kubernetes#92858, 2020)
// up to inside its third condition's single-quoted message, closed here so that it
// can be cut at every byte of that message.
const cutNamespaceYAML = `apiVersion: v1
kind: Namespace
metadata:
  creationTimestamp: "2020-07-06T02:33:50Z"
  deletionTimestamp: "2020-07-06T02:36:59Z"
  name: monitoring
spec:
  finalizers:
  - kubernetes
status:
  conditions:
  - lastTransitionTime: "2020-07-06T02:37:50Z"
    message: All resources successfully discovered
    reason: ResourcesDiscovered
    status: "False"
    type: NamespaceDeletionDiscoveryFailure
  - lastTransitionTime: "2020-07-06T02:37:50Z"
    message: All legacy kube types successfully parsed
    reason: ParsedGroupVersions
    status: "False"
    type: NamespaceDeletionGroupVersionParsingFailure
  - lastTransitionTime: "2020-07-06T02:37:50Z"
    message: 'Failed to delete all resource types, 3 remaining: Delete https://apiserver.cluster.local:6443/apis/monitoring.coreos.com/v1/namespaces/monitoring/prometheusrules:
      stream error: stream ID 190291; INTERNAL_ERROR, Delete https://apiserver.cluster.local:6443/apis/monitoring.coreos.com/v1/namespaces/monitoring/servicemonitors:
      stream error'
    reason: ContentDeletionFailed
    status: "True"
    type: NamespaceDeletionContentFailure
  phase: Terminating
`

// TestYAMLCutInQuotedValue: a YAML document cut anywhere inside a quoted value (the
// retrieval's cut of kubernetes#92858, at every byte of the message) is read as far as
// it goes: the metadata, spec and the conditions before the cut whole, with a warning
// at the line the cut value starts on; the whole document reads as before, without one.
func TestYAMLCutInQuotedValue(t *testing.T) {
	open := strings.Index(cutNamespaceYAML, "message: 'Failed") + len("message: '")
	end := strings.Index(cutNamespaceYAML, "stream error'\n") + len("stream error")
	msgLine := strings.Count(cutNamespaceYAML[:open], "\n") + 1
	for at := open; at <= end; at++ {
		in := cutNamespaceYAML[:at]
		w := &diag.Sink{}
		var objs []*Object
		DecodeYAML(strings.NewReader(in), "ns.yaml", Options{}, w, func(o *Object) { objs = append(objs, o) })
		if len(objs) != 1 {
			t.Fatalf("cut at byte %d: %d objects, warnings %v", at, len(objs), w.List)
		}
		o := objs[0]
		if o.Name != "monitoring" || o.DeletionTimestamp.IsZero() || len(o.SpecFinalizers) != 1 ||
			o.Condition("NamespaceDeletionDiscoveryFailure") == nil || o.Condition("NamespaceDeletionGroupVersionParsingFailure") == nil {
			t.Fatalf("cut at byte %d: %s deletion %v finalizers %v conditions %v", at, o.Name, o.DeletionTimestamp, o.SpecFinalizers, o.Conditions)
		}
		if len(w.List) != 1 || w.List[0].Line != msgLine || !strings.Contains(w.List[0].Message, "read as far as") {
			t.Fatalf("cut at byte %d: warnings %v, want one at line %d", at, w.List, msgLine)
		}
	}
	w := &diag.Sink{}
	var objs []*Object
	DecodeYAML(strings.NewReader(cutNamespaceYAML), "ns.yaml", Options{}, w, func(o *Object) { objs = append(objs, o) })
	if len(objs) != 1 || len(w.List) != 0 || objs[0].Condition("NamespaceDeletionContentFailure") == nil || objs[0].Phase != "Terminating" {
		t.Fatalf("whole document: %d objects, warnings %v", len(objs), w.List)
	}
}

// TestYAMLCutWork: a document that no prefix makes valid (a tab-indented key before
// every line) is tried at yamlCutTries cut points at most, however long: a bounded
// number of decodes of a prefix (counted, not timed), at n and 2n lines.
func TestYAMLCutWork(t *testing.T) {
	for _, n := range []int{1000, 2000} {
		var b strings.Builder
		b.WriteString("kind: Namespace\n\tbad: x\n")
		for i := 0; i < n; i++ {
			b.WriteString("  key: v\n")
		}
		before := yamlPrefixDecodes.Load()
		js, _ := readYAMLPrefix([]byte(b.String()))
		if got := yamlPrefixDecodes.Load() - before; js != nil || got > yamlCutTries || got == 0 {
			t.Fatalf("%d lines: %d prefixes decoded, read %q", n, got, js)
		}
	}
}
