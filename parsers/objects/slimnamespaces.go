package objects

import (
	"math"
	"strings"
	"time"
)

// SlimNamespaces keeps the Namespaces that are not stuck compactly, so that a cluster
// of a million Active namespaces costs a name each, not a whole *Object (issue 32).
//
// No rule reads anything of an Active namespace without a deletion timestamp but that
// it exists (its name, where it was read, its creation time): such a Namespace whose
// every other field is empty, or Kubernetes' own default (the
// kubernetes.io/metadata.name label naming it, spec.finalizers ["kubernetes"]), is kept
// here as one fixed-size, pointer-free row with its name in a byte arena. Namespace
// materializes a row back into an *Object.
//
// A row keeps every field the decoder fills for such a Namespace except UID and
// Managers, which no analysis reads for it (the namespaces whose UID identifies the
// cluster, default and kube-system, stay whole). Add refuses any other Namespace: a
// phase other than Active, a deletion timestamp, finalizers, conditions, owner
// references, any other label, a text rendering, sub-second times: those stay whole
// *Objects (the differential tests compare whole reports both ways over every fixture).
type SlimNamespaces struct {
	rows  chunked[slimNamespace]
	names byteArena
	strs  []string // interned file names and API versions; 0 is ""
	ids   map[string]uint32
	ages  map[int32]*Ages // what a text rendering printed of a row's age (rare)
}

// slimNamespace is one row.
type slimNamespace struct {
	nameRef    uint64 // byteArena reference of the name
	created    int64  // CreationTimestamp, Unix seconds; math.MinInt64 = zero time
	before     uint32 // the number of whole objects (Records.Objects) before this one
	pods       uint32 // the number of slim pods (Records.SlimPods) before this one
	line       uint32
	nameLen    uint32
	file       uint32
	apiVersion uint32
	// lines of the fields Source.Fields records, after Line, plus one (0: absent)
	phaseAt, specFinAt, metaFinAt uint16
	flags                         uint8
}

const (
	nsLabelsName  = 1 << iota // Labels is {"kubernetes.io/metadata.name": Name}
	nsLabelsEmpty             // Labels is an empty, non-nil map
	nsSpecKube                // SpecFinalizers is ["kubernetes"]
	nsSpecEmpty               // SpecFinalizers is empty, not nil
	nsFieldsEmpty             // Source.Fields is an empty, non-nil map
)

// MetadataNameLabel is the label Kubernetes sets on every Namespace to its name.
const MetadataNameLabel = "kubernetes.io/metadata.name"

// NewSlimNamespaces returns an empty table.
func NewSlimNamespaces() *SlimNamespaces {
	return &SlimNamespaces{strs: []string{""}, ids: map[string]uint32{"": 0}}
}

// Len is the number of namespaces in the table.
func (t *SlimNamespaces) Len() int {
	if t == nil {
		return 0
	}
	return t.rows.len()
}

// Add keeps o as a row when it can be given back exactly (see SlimNamespaces) and
// reports whether it did; before is the number of whole objects and pods the number of
// slim pods kept before it, so the records' order can be rebuilt.
func (t *SlimNamespaces) Add(o *Object, before, pods int) bool {
	if !SlimmableNamespace(o) || before < 0 || before > math.MaxUint32 || pods < 0 || pods > math.MaxUint32 ||
		o.Source.Line < 0 || o.Source.Line > math.MaxUint32 {
		return false
	}
	r := slimNamespace{before: uint32(before), pods: uint32(pods), line: uint32(o.Source.Line), nameLen: uint32(len(o.Name)), created: math.MinInt64}
	if !o.CreationTimestamp.IsZero() {
		if o.CreationTimestamp.Nanosecond() != 0 || o.CreationTimestamp.Location() != time.UTC {
			return false
		}
		r.created = o.CreationTimestamp.Unix()
	}
	switch {
	case o.Labels == nil:
	case len(o.Labels) == 0:
		r.flags |= nsLabelsEmpty
	case len(o.Labels) == 1 && o.Labels[MetadataNameLabel] == o.Name:
		r.flags |= nsLabelsName
	default:
		return false
	}
	switch {
	case o.SpecFinalizers == nil:
	case len(o.SpecFinalizers) == 0:
		r.flags |= nsSpecEmpty
	case len(o.SpecFinalizers) == 1 && o.SpecFinalizers[0] == "kubernetes":
		r.flags |= nsSpecKube
	default:
		return false
	}
	if o.Source.Fields != nil {
		if len(o.Source.Fields) == 0 {
			r.flags |= nsFieldsEmpty
		}
		for k, l := range o.Source.Fields {
			d := l - o.Source.Line + 1
			if d < 1 || d >= math.MaxUint16 {
				return false
			}
			switch k {
			case "status.phase":
				r.phaseAt = uint16(d)
			case "spec.finalizers":
				r.specFinAt = uint16(d)
			case "metadata.finalizers":
				r.metaFinAt = uint16(d)
			default:
				return false
			}
		}
	}
	r.file, r.apiVersion = t.intern(o.Source.File), t.intern(o.APIVersion)
	r.nameRef = t.names.add(o.Name)
	t.rows.add(r)
	return true
}

// SlimmableNamespace reports whether o is a Namespace that is not being deleted and
// holds nothing but its name, where it was read and Kubernetes' defaults (Add may still
// refuse one whose times or lines a row cannot hold).
func SlimmableNamespace(o *Object) bool {
	return o.Kind == "Namespace" && o.Phase == "Active" && o.DeletionTimestamp.IsZero() && !o.DeletionShown &&
		o.Name != "" && len(o.Name) <= MaxStringBytes && o.Name != "default" && o.Name != "kube-system" && o.Namespace == "" &&
		len(o.Finalizers) == 0 && o.Conditions == nil && o.OwnerReferences == nil && o.Source.Rendering == "" &&
		o.ServerVersion == "" && o.KubeletVersion == "" && o.Ages == nil && o.APIService == nil && o.Service == nil &&
		o.Endpoints == nil && o.Pod == nil && o.Workload == nil && o.Webhooks == nil && o.CRD == nil && o.Event == nil && o.Lease == nil
}

// Namespace materializes row i as a new *Object.
func (t *SlimNamespaces) Namespace(i int) *Object {
	r := t.rows.at(i)
	name := t.name(r)
	o := &Object{APIVersion: t.strs[r.apiVersion], Kind: "Namespace", Name: name, Phase: "Active",
		Source: Source{File: t.strs[r.file], Line: int(r.line)}, Ages: t.ages[int32(i)]}
	if r.created != math.MinInt64 {
		o.CreationTimestamp = time.Unix(r.created, 0).UTC()
	}
	switch {
	case r.flags&nsLabelsName != 0:
		o.Labels = map[string]string{MetadataNameLabel: name}
	case r.flags&nsLabelsEmpty != 0:
		o.Labels = map[string]string{}
	}
	switch {
	case r.flags&nsSpecKube != 0:
		o.SpecFinalizers = []string{"kubernetes"}
	case r.flags&nsSpecEmpty != 0:
		o.SpecFinalizers = []string{}
	}
	if r.flags&nsFieldsEmpty != 0 || r.phaseAt != 0 || r.specFinAt != 0 || r.metaFinAt != 0 {
		o.Source.Fields = map[string]int{}
		for _, f := range []struct {
			at   uint16
			name string
		}{{r.phaseAt, "status.phase"}, {r.specFinAt, "spec.finalizers"}, {r.metaFinAt, "metadata.finalizers"}} {
			if f.at != 0 {
				o.Source.Fields[f.name] = int(r.line) + int(f.at) - 1
			}
		}
	}
	return o
}

// Head materializes only what a walk over names reads of row i: API version, kind,
// name, phase, source file and line, and spec.finalizers (no labels, field lines,
// creation time or ages).
func (t *SlimNamespaces) Head(i int) *Object {
	r := t.rows.at(i)
	o := &Object{APIVersion: t.strs[r.apiVersion], Kind: "Namespace", Name: t.name(r), Phase: "Active",
		Source: Source{File: t.strs[r.file], Line: int(r.line)}}
	switch {
	case r.flags&nsSpecKube != 0:
		o.SpecFinalizers = []string{"kubernetes"}
	case r.flags&nsSpecEmpty != 0:
		o.SpecFinalizers = []string{}
	}
	return o
}

// Name is the name of row i. It shares the table's memory (no copy): a million names
// kept in a map cost no string each.
func (t *SlimNamespaces) Name(i int) string {
	r := t.rows.at(i)
	return t.names.view(r.nameRef, int(r.nameLen))
}

// Before is the number of whole objects the records kept before row i.
func (t *SlimNamespaces) Before(i int) int { return int(t.rows.at(i).before) }

// Pods is the number of slim pods the records kept before row i.
func (t *SlimNamespaces) Pods(i int) int { return int(t.rows.at(i).pods) }

// SetAges records what a text rendering printed of row i's age (Object.Ages).
func (t *SlimNamespaces) SetAges(i int, a *Ages) {
	if t.ages == nil {
		t.ages = map[int32]*Ages{}
	}
	t.ages[int32(i)] = a
}

// RenameFiles rewrites the file of rows from..Len()-1, and of their Ages, with rename
// (the bundle loader strips a wrapper directory or prefixes a bundle label).
func (t *SlimNamespaces) RenameFiles(from int, rename func(string) string) {
	done := map[uint32]uint32{}
	for i := from; i < t.rows.len(); i++ {
		r := t.rows.ptr(i)
		id, ok := done[r.file]
		if !ok {
			id = t.intern(rename(t.strs[r.file]))
			done[r.file] = id
		}
		r.file = id
		if a := t.ages[int32(i)]; a != nil {
			c := *a
			c.File = rename(c.File)
			t.ages[int32(i)] = &c
		}
	}
}

func (t *SlimNamespaces) name(r slimNamespace) string { return t.names.get(r.nameRef, int(r.nameLen)) }

func (t *SlimNamespaces) intern(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	s = strings.Clone(s)
	id := uint32(len(t.strs))
	t.strs = append(t.strs, s)
	t.ids[s] = id
	return id
}
