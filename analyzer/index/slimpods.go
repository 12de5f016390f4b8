package index

import (
	"hash/maphash"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// slimIndex indexes the pods of Records.SlimPods (rows) beside the whole objects, so
// that a bundle of 200,000 pods is never held as 200,000 *Objects: a namespace's pods
// are materialized when a rule asks for that namespace (InNamespace, Find), and
// EachOfKind("Pod") materializes them one at a time. Everything the rules see is what
// they would see with every pod whole, in the same order, with the same duplicates
// folded: the tests compare whole reports both ways over every fixture.
type slimIndex struct {
	t           *objects.SlimPods
	live        []int32            // rows that are the first copy of their pod, in order
	byNamespace map[string][]int32 // live rows by namespace
	// replaced are live rows whose content is a later copy that says more (newer): a
	// whole object, or a later row materialized.
	replaced  map[int32]*objects.Object
	cache     map[int32]*objects.Object    // rows materialized for InNamespace
	nsObjects map[string][]*objects.Object // whole objects and pods of a namespace, merged
	nsPos     map[string][]int32           // index in Records.Objects of each of ByNamespace[ns]
	podPos    []int32                      // index in Records.Objects of each of ByKind["Pod"]
}

// podCopy is the first copy of a pod: a live row, or a whole object (row < 0).
type podCopy struct {
	row int32
	obj *objects.Object
}

// indexObjects fills ByKind, ByNamespace, Namespaces, APIServices, CRDs, the slim
// index and the slim namespaces (slimnamespaces.go) from the records, folding duplicates: the same object is often dumped twice
// (an all-namespaces list and a per-namespace one); the first copy keeps its place,
// with the content of the copy that says more (newer).
func (ix *Index) indexObjects(rec *bundle.Records) {
	s := &ix.slim
	*s = slimIndex{t: rec.SlimPods, byNamespace: map[string][]int32{}, replaced: map[int32]*objects.Object{},
		cache: map[int32]*objects.Object{}, nsObjects: map[string][]*objects.Object{}, nsPos: map[string][]int32{}}
	type objectKey struct{ kind, ns, name string } // no string built per object
	seen := make(map[objectKey]*objects.Object, len(rec.Objects))
	// pods by namespace and name, hashed: 200,000 rows need no key strings
	seed := maphash.MakeSeed()
	firstPod := map[uint64]podCopy{}
	collided := map[string]podCopy{}
	key := func(ns, name string) uint64 {
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString(ns)
		h.WriteByte(0)
		h.WriteString(name)
		return h.Sum64()
	}
	nameOf := func(c podCopy) (string, string) {
		if c.row < 0 {
			return c.obj.Namespace, c.obj.Name
		}
		return s.t.Namespace(int(c.row)), s.t.Name(int(c.row))
	}
	lookup := func(ns, name string) (podCopy, bool) {
		c, ok := firstPod[key(ns, name)]
		if !ok {
			return podCopy{}, false
		}
		if cns, cname := nameOf(c); cns == ns && cname == name {
			return c, true
		}
		c, ok = collided[ns+"\x00"+name]
		return c, ok
	}
	remember := func(ns, name string, c podCopy) {
		h := key(ns, name)
		if _, taken := firstPod[h]; taken {
			collided[ns+"\x00"+name] = c
			return
		}
		firstPod[h] = c
	}
	addWhole := func(i int, o *objects.Object) {
		if o.Kind == "Pod" && o.Name != "" && s.t.Len() > 0 {
			if c, ok := lookup(o.Namespace, o.Name); ok && c.row >= 0 {
				if score(o) > score(s.content(c.row)) {
					s.replaced[c.row] = o
				}
				return
			} else if !ok {
				remember(o.Namespace, o.Name, podCopy{row: -1, obj: o})
			}
		}
		k := objectKey{o.Kind, o.Namespace, o.Name}
		if o.Kind == "Namespace" && o.Name != "" {
			if p := ix.promoteNamespace(o.Name); p != nil {
				// the first copy was slim (slimnamespaces.go): it keeps its place
				seen[k] = p
				if newer(o, p) {
					*p = *o
				}
				return
			}
		}
		if prev, ok := seen[k]; ok && o.Name != "" {
			if newer(o, prev) {
				*prev = *o
			}
			return
		}
		seen[k] = o
		ix.ByKind[o.Kind] = append(ix.ByKind[o.Kind], o)
		if o.Kind == "Pod" {
			s.podPos = append(s.podPos, int32(i))
		}
		switch o.Kind {
		case "Namespace":
			if prev, ok := ix.Namespaces[o.Name]; !ok || newer(o, prev) {
				ix.Namespaces[o.Name] = o
			}
			return
		case "APIService":
			if prev, ok := ix.APIServices[o.Name]; !ok || newer(o, prev) {
				ix.APIServices[o.Name] = o
			}
		case "CustomResourceDefinition":
			ix.CRDs[o.Name] = o
		case objects.KindVersionInfo:
			ix.KubernetesVersion = o.ServerVersion
		}
		if o.Namespace != "" {
			ix.ByNamespace[o.Namespace] = append(ix.ByNamespace[o.Namespace], o)
			s.nsPos[o.Namespace] = append(s.nsPos[o.Namespace], int32(i))
		}
	}
	addRow := func(r int) {
		ns, name := s.t.Namespace(r), s.t.Name(r)
		if c, ok := lookup(ns, name); ok {
			later := s.t.ConditionCount(r)
			if c.row < 0 {
				if later > score(c.obj) {
					*c.obj = *s.t.Pod(r)
				}
			} else if later > score(s.content(c.row)) {
				s.replaced[c.row] = s.t.Pod(r)
			}
			return
		}
		remember(ns, name, podCopy{row: int32(r)})
		s.live = append(s.live, int32(r))
		s.byNamespace[ns] = append(s.byNamespace[ns], int32(r))
	}
	ns := rec.SlimNamespaces
	ix.slimNS = make(map[string]int32, ns.Len())
	addNamespaceRow := ix.addSlimNamespace
	rows, row := s.t.Len(), 0
	nsRows, nsRow := ns.Len(), 0
	for i, o := range rec.Objects {
		for ; row < rows && s.t.Before(row) <= i; row++ {
			addRow(row)
		}
		for ; nsRow < nsRows && ns.Before(nsRow) <= i; nsRow++ {
			addNamespaceRow(nsRow)
		}
		addWhole(i, o)
	}
	for ; row < rows; row++ {
		addRow(row)
	}
	for ; nsRow < nsRows; nsRow++ {
		addNamespaceRow(nsRow)
	}
}

// score is newer's measure of how much a copy of an object says.
func score(o *objects.Object) int {
	s := len(o.Conditions)
	if !o.DeletionTimestamp.IsZero() {
		s += 100
	}
	return s
}

// newer prefers the copy of an object with more information (a deletion timestamp,
// conditions), so duplicates across dump files do not hide a stuck state.
func newer(a, b *objects.Object) bool { return score(a) > score(b) }

// content is what a live row holds for the rules, without keeping it.
func (s *slimIndex) content(row int32) *objects.Object {
	if o, ok := s.replaced[row]; ok {
		return o
	}
	if o, ok := s.cache[row]; ok {
		return o
	}
	return s.t.Pod(int(row))
}

// pod is a live row materialized once: the same *Object every time.
func (s *slimIndex) pod(row int32) *objects.Object {
	if o, ok := s.replaced[row]; ok {
		return o
	}
	o, ok := s.cache[row]
	if !ok {
		o = s.t.Pod(int(row))
		s.cache[row] = o
	}
	return o
}

// objectsIn is ByNamespace[ns] with the namespace's pods of the slim index in their
// places.
func (ix *Index) objectsIn(ns string) []*objects.Object {
	s := &ix.slim
	rows := s.byNamespace[ns]
	if len(rows) == 0 {
		return ix.ByNamespace[ns]
	}
	if l, ok := s.nsObjects[ns]; ok {
		return l
	}
	whole, pos := ix.ByNamespace[ns], s.nsPos[ns]
	out := make([]*objects.Object, 0, len(whole)+len(rows))
	j := 0
	for k, o := range whole {
		for ; j < len(rows) && s.t.Before(int(rows[j])) <= int(pos[k]); j++ {
			out = append(out, s.pod(rows[j]))
		}
		out = append(out, o)
	}
	for ; j < len(rows); j++ {
		out = append(out, s.pod(rows[j]))
	}
	s.nsObjects[ns] = out
	return out
}

// EachOfKind calls fn with every object of a kind, in the order they were read, until
// fn returns false. Pods of the slim index are materialized one at a time (fn may keep
// them).
func (ix *Index) EachOfKind(kind string, fn func(*objects.Object) bool) {
	whole := ix.ByKind[kind]
	if kind != "Pod" || len(ix.slim.live) == 0 {
		for _, o := range whole {
			if !fn(o) {
				return
			}
		}
		return
	}
	s := &ix.slim
	j := 0
	for k, o := range whole {
		for ; j < len(s.live) && s.t.Before(int(s.live[j])) <= int(s.podPos[k]); j++ {
			if !fn(s.content(s.live[j])) {
				return
			}
		}
		if !fn(o) {
			return
		}
	}
	for ; j < len(s.live); j++ {
		if !fn(s.content(s.live[j])) {
			return
		}
	}
}

// eachFileNamespace calls note with the file and namespace of every live row until it
// returns false.
func (s *slimIndex) eachFileNamespace(note func(file, ns string) bool) {
	for _, r := range s.live {
		file, ns := s.t.File(int(r)), s.t.Namespace(int(r))
		if o, ok := s.replaced[r]; ok {
			file, ns = o.Source.File, o.Namespace
		}
		if !note(file, ns) {
			return
		}
	}
}

// newestTime is the newest time of the live rows not after limit.
func (s *slimIndex) newestTime(limit time.Time) time.Time {
	var t time.Time
	for _, r := range s.live {
		var x time.Time
		if o, ok := s.replaced[r]; ok {
			for _, c := range o.Conditions {
				if !c.LastTransitionTime.After(limit) && c.LastTransitionTime.After(x) {
					x = c.LastTransitionTime
				}
			}
			if !o.DeletionTimestamp.After(limit) && o.DeletionTimestamp.After(x) {
				x = o.DeletionTimestamp
			}
		} else {
			x = s.t.NewestConditionTime(int(r), limit)
		}
		if x.After(t) {
			t = x
		}
	}
	return t
}
