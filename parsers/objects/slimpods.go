package objects

import (
	"math"
	"strings"
	"time"
	"unsafe"
)

// SlimPods keeps Pods compactly, so that the memory of a big cluster's bundle follows
// what is reported rather than the number of pods (issue 16: 200,000 pods).
//
// The analysis reads a Pod that has no finalizers and no deletion timestamp only to
// resolve backends (its labels, readiness, node, restarts, waiting reasons), to match
// a finalizer's controller (name, images) and for the capture time (condition times).
// Such a pod is kept here as one fixed-size, pointer-free row; its strings are
// interned (label keys and values, node, images and condition texts repeat across a
// cluster's pods) and its name sits in a byte arena. Pod materializes the row back
// into an *Object on demand.
//
// A row keeps every field the decoder fills for a Pod except UID,
// CreationTimestamp, OwnerReferences, Managers and Pod.PodIP, which no analysis reads
// for a pod without finalizers or deletion timestamp (the differential tests compare
// whole reports with and without SlimPods over every fixture). Add refuses any pod
// whose every kept field it cannot give back exactly (finalizers, a deletion
// timestamp, field lines, a text rendering, sub-second condition times, ...): those
// stay whole *Objects.
type SlimPods struct {
	rows   chunked[slimPod]
	conds  chunked[slimCondition]
	labels chunked[uint32] // interned key, value, key, value, ...
	names  byteArena

	strs     []string // interned strings; 0 is ""
	ids      map[string]uint32
	lists    [][]string // interned string lists; 0 is nil
	listIDs  map[string]uint32
	tuples   [][4]uint32 // interned condition type, status, reason, message
	tupleIDs map[[4]uint32]uint32
}

// slimPod is one row: ids into the tables of SlimPods, no pointers.
type slimPod struct {
	nameRef    uint64 // byteArena reference of the name
	before     uint32 // the number of whole objects (Records.Objects) before this pod
	line       uint32
	nameLen    uint32
	namespace  uint32
	apiVersion uint32
	file       uint32
	phase      uint32
	node       uint32
	images     uint32
	waiting    uint32
	terminated uint32
	claims     uint32
	labelsAt   uint32
	condsAt    uint32
	restarts   int32
	labelsN    uint16 // pairs
	condsN     uint16
	flags      uint8
}

const (
	slimReady     = 1 << iota // Pod.Ready
	slimLabelsNil             // Labels is nil (not an empty map)
)

// slimCondition is one status condition: its interned texts and its time.
type slimCondition struct {
	tuple uint32
	sec   int64 // LastTransitionTime, Unix seconds; math.MinInt64 = zero time
}

// NewSlimPods returns an empty table.
func NewSlimPods() *SlimPods {
	return &SlimPods{strs: []string{""}, ids: map[string]uint32{"": 0}, lists: [][]string{nil},
		listIDs: map[string]uint32{}, tuples: [][4]uint32{{}}, tupleIDs: map[[4]uint32]uint32{{}: 0}}
}

// Len is the number of pods in the table.
func (t *SlimPods) Len() int {
	if t == nil {
		return 0
	}
	return t.rows.len()
}

// Add keeps o as a row when it can be given back exactly (see SlimPods) and reports
// whether it did; before is the number of whole objects kept before it, so the
// records' order can be rebuilt.
func (t *SlimPods) Add(o *Object, before int) bool {
	if !slimmable(o) || before < 0 || before > math.MaxUint32 || o.Source.Line < 0 || o.Source.Line > math.MaxUint32 ||
		len(o.Labels) > math.MaxUint16 || len(o.Conditions) > math.MaxUint16 || o.Pod.Restarts < math.MinInt32 || o.Pod.Restarts > math.MaxInt32 {
		return false
	}
	for i := range o.Conditions {
		c := &o.Conditions[i]
		if c.Line != 0 || c.LastTransitionTime.Nanosecond() != 0 || c.LastTransitionTime.Location() != time.UTC {
			return false
		}
	}
	r := slimPod{before: uint32(before), line: uint32(o.Source.Line), nameLen: uint32(len(o.Name)),
		namespace: t.intern(o.Namespace), apiVersion: t.intern(o.APIVersion), file: t.intern(o.Source.File),
		phase: t.intern(o.Phase), node: t.intern(o.Pod.NodeName), images: t.list(o.Pod.Images),
		waiting: t.list(o.Pod.Waiting), terminated: t.list(o.Pod.Terminated), claims: t.list(o.Pod.Claims), restarts: int32(o.Pod.Restarts),
		labelsN: uint16(len(o.Labels)), condsN: uint16(len(o.Conditions))}
	r.nameRef = t.names.add(o.Name)
	if o.Pod.Ready {
		r.flags |= slimReady
	}
	if o.Labels == nil {
		r.flags |= slimLabelsNil
	}
	r.labelsAt = uint32(t.labels.len())
	for k, v := range o.Labels {
		t.labels.add(t.intern(k))
		t.labels.add(t.intern(v))
	}
	r.condsAt = uint32(t.conds.len())
	for _, c := range o.Conditions {
		tu := [4]uint32{t.intern(c.Type), t.intern(c.Status), t.intern(c.Reason), t.intern(c.Message)}
		id, ok := t.tupleIDs[tu]
		if !ok {
			id = uint32(len(t.tuples))
			t.tuples = append(t.tuples, tu)
			t.tupleIDs[tu] = id
		}
		sec := int64(math.MinInt64)
		if !c.LastTransitionTime.IsZero() {
			sec = c.LastTransitionTime.Unix()
		}
		t.conds.add(slimCondition{id, sec})
	}
	t.rows.add(r)
	return true
}

// slimmable reports whether o is a Pod whose fields a row holds, apart from those it
// deliberately drops.
func slimmable(o *Object) bool {
	return o.Kind == "Pod" && o.Pod != nil && len(o.Finalizers) == 0 && o.DeletionTimestamp.IsZero() &&
		o.SpecFinalizers == nil && o.Source.Fields == nil && o.Source.Rendering == "" && o.ServerVersion == "" &&
		o.APIService == nil && o.Service == nil && o.Endpoints == nil && o.Workload == nil && o.Webhooks == nil &&
		o.CRD == nil && o.Event == nil && o.Lease == nil && o.Name != "" && len(o.Name) <= MaxStringBytes
}

// Head materializes only what identifies row i: kind, API version, name, namespace,
// source and node (for walks over every object's names, which need no labels or
// conditions).
func (t *SlimPods) Head(i int) *Object {
	r := t.rows.at(i)
	return &Object{APIVersion: t.strs[r.apiVersion], Kind: "Pod", Name: t.name(r), Namespace: t.strs[r.namespace],
		Source: Source{File: t.strs[r.file], Line: int(r.line)}, Pod: &PodInfo{NodeName: t.strs[r.node]}}
}

// Pod materializes row i as a new *Object.
func (t *SlimPods) Pod(i int) *Object {
	r := t.rows.at(i)
	o := t.Head(i)
	o.Phase = t.strs[r.phase]
	o.Pod.Ready, o.Pod.Restarts = r.flags&slimReady != 0, int(r.restarts)
	o.Pod.Images, o.Pod.Waiting, o.Pod.Terminated = t.copyList(r.images), t.copyList(r.waiting), t.copyList(r.terminated)
	o.Pod.Claims = t.copyList(r.claims)
	if r.flags&slimLabelsNil == 0 {
		o.Labels = make(map[string]string, r.labelsN)
		for j := 0; j < int(r.labelsN); j++ {
			at := int(r.labelsAt) + 2*j
			o.Labels[t.strs[t.labels.at(at)]] = t.strs[t.labels.at(at+1)]
		}
	}
	if r.condsN > 0 {
		o.Conditions = make([]Condition, r.condsN)
		for j := range o.Conditions {
			c := t.conds.at(int(r.condsAt) + j)
			tu := t.tuples[c.tuple]
			o.Conditions[j] = Condition{Type: t.strs[tu[0]], Status: t.strs[tu[1]], Reason: t.strs[tu[2]], Message: t.strs[tu[3]]}
			if c.sec != math.MinInt64 {
				o.Conditions[j].LastTransitionTime = time.Unix(c.sec, 0).UTC()
			}
		}
	}
	return o
}

// Namespace, Name and Before read row i without materializing it.
func (t *SlimPods) Namespace(i int) string { return t.strs[t.rows.at(i).namespace] }

// Name is the name of row i.
func (t *SlimPods) Name(i int) string { return t.name(t.rows.at(i)) }

// File is the file row i was read from.
func (t *SlimPods) File(i int) string { return t.strs[t.rows.at(i).file] }

// Before is the number of whole objects the records kept before row i.
func (t *SlimPods) Before(i int) int { return int(t.rows.at(i).before) }

// ConditionCount is the number of status conditions of row i.
func (t *SlimPods) ConditionCount(i int) int { return int(t.rows.at(i).condsN) }

// NewestConditionTime is the newest condition time of row i that is not after limit
// (zero when none).
func (t *SlimPods) NewestConditionTime(i int, limit time.Time) time.Time {
	r := t.rows.at(i)
	var newest time.Time
	for j := 0; j < int(r.condsN); j++ {
		c := t.conds.at(int(r.condsAt) + j)
		if c.sec == math.MinInt64 {
			continue
		}
		if x := time.Unix(c.sec, 0).UTC(); !x.After(limit) && x.After(newest) {
			newest = x
		}
	}
	return newest
}

// RenameFiles rewrites the file of rows from..Len()-1 with rename (the bundle loader
// strips a wrapper directory or prefixes a bundle label).
func (t *SlimPods) RenameFiles(from int, rename func(string) string) {
	done := map[uint32]uint32{}
	for i := from; i < t.rows.len(); i++ {
		r := t.rows.ptr(i)
		id, ok := done[r.file]
		if !ok {
			id = t.intern(rename(t.strs[r.file]))
			done[r.file] = id
		}
		r.file = id
	}
}

func (t *SlimPods) name(r slimPod) string { return t.names.get(r.nameRef, int(r.nameLen)) }

func (t *SlimPods) intern(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	s = strings.Clone(s) // do not keep the decoder's larger buffers alive
	id := uint32(len(t.strs))
	t.strs = append(t.strs, s)
	t.ids[s] = id
	return id
}

// A list id with listOne set is a one-string list: the id of that string (most pods
// run one container, whose image would otherwise cost a list of its own).
const listOne = 1 << 31

func (t *SlimPods) list(l []string) uint32 {
	if l == nil {
		return 0
	}
	if len(l) == 1 {
		if id := t.intern(l[0]); id < listOne {
			return listOne | id
		}
	}
	key := strings.Join(l, "\x00") + "\x00" // "\x00" alone is the empty, non-nil list
	if id, ok := t.listIDs[key]; ok {
		return id
	}
	c := make([]string, len(l))
	for i, s := range l {
		c[i] = t.strs[t.intern(s)]
	}
	id := uint32(len(t.lists))
	t.lists = append(t.lists, c)
	t.listIDs[key] = id
	return id
}

// copyList gives a list back as a slice of its own (callers may append to it).
func (t *SlimPods) copyList(id uint32) []string {
	if id == 0 {
		return nil
	}
	if id&listOne != 0 {
		return []string{t.strs[id&^listOne]}
	}
	return append([]string{}, t.lists[id]...)
}

// chunked is an append-only slice in fixed chunks: growing it never copies what it
// holds, so a table of 200,000 rows never needs twice its size while it grows.
type chunked[T any] struct {
	chunks [][]T
	n      int
}

const chunkLen = 4096

func (c *chunked[T]) add(v T) {
	if c.n%chunkLen == 0 {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
	}
	last := len(c.chunks) - 1
	c.chunks[last] = append(c.chunks[last], v)
	c.n++
}

func (c *chunked[T]) len() int     { return c.n }
func (c *chunked[T]) at(i int) T   { return c.chunks[i/chunkLen][i%chunkLen] }
func (c *chunked[T]) ptr(i int) *T { return &c.chunks[i/chunkLen][i%chunkLen] }

// byteArena holds strings in 1 MB blocks; a reference is block<<32 | offset.
type byteArena struct{ blocks [][]byte }

const arenaBlock = 1 << 20

func (a *byteArena) add(s string) uint64 {
	n := len(a.blocks)
	if n == 0 || len(a.blocks[n-1])+len(s) > cap(a.blocks[n-1]) {
		a.blocks = append(a.blocks, make([]byte, 0, max(arenaBlock, len(s))))
		n++
	}
	b := a.blocks[n-1]
	off := len(b)
	a.blocks[n-1] = append(b, s...)
	return uint64(n-1)<<32 | uint64(off)
}

// view is get without a copy: the arena's bytes never change once added.
func (a *byteArena) view(ref uint64, n int) string {
	if n == 0 {
		return ""
	}
	b := a.blocks[ref>>32]
	off := int(ref & math.MaxUint32)
	return unsafe.String(&b[off], n)
}

func (a *byteArena) get(ref uint64, n int) string {
	b := a.blocks[ref>>32]
	off := int(ref & math.MaxUint32)
	return string(b[off : off+n])
}
