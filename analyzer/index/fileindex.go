package index

import (
	"path"
	"strings"
)

// fileIndex answers the questions the rules ask about the bundle's file names (is a
// kind dumped for a namespace, which file is a namespace's dump of a resource) with
// map look-ups: built once, on first use, in one pass over the file names, so the
// cost no longer grows with files × questions (stuck namespaces each bring files and
// questions of their own).
type fileIndex struct {
	lower    []string             // the file names, lower-cased
	segments map[string]bool      // every path segment of every file
	nsDump   map[string]string    // "ns\x00base" → the first file named base in a directory named ns
	dumped   map[string]bool      // Dumped's answers by fragment
	kinds    map[string]*kindDump // KindDumped's facts by kind
}

// kindDump is what the bundle shows of one kind's dumps.
type kindDump struct {
	withObjects map[string]bool // namespaces holding an object of the kind
	multiNS     bool            // a file holds objects of several namespaces: an all-namespaces dump
	dirs        map[string]bool // directories holding a file named after the kind's plural
	allDump     bool            // such a file lies outside every namespace directory
}

func (ix *Index) files() *fileIndex {
	if ix.fileIx != nil {
		return ix.fileIx
	}
	fx := &fileIndex{segments: map[string]bool{}, nsDump: map[string]string{}, dumped: map[string]bool{}, kinds: map[string]*kindDump{}}
	for _, f := range ix.Records.Files {
		fx.lower = append(fx.lower, strings.ToLower(f))
		for _, seg := range strings.Split(f, "/") {
			fx.segments[seg] = true
		}
		k := path.Base(path.Dir(f)) + "\x00" + path.Base(f)
		if _, ok := fx.nsDump[k]; !ok {
			fx.nsDump[k] = f
		}
	}
	ix.fileIx = fx
	return fx
}

// Dumped reports whether the bundle has a file whose name contains fileFragment
// (lower case), e.g. "apiservice", even if the file holds no object.
func (ix *Index) Dumped(fileFragment string) bool {
	fx := ix.files()
	if v, ok := fx.dumped[fileFragment]; ok {
		return v
	}
	v := false
	for _, f := range fx.lower {
		if strings.Contains(f, fileFragment) {
			v = true
			break
		}
	}
	fx.dumped[fileFragment] = v
	return v
}

// NamespaceDumped reports whether the bundle has files of the namespace's own
// objects (a directory named after it), even if they are empty lists.
func (ix *Index) NamespaceDumped(ns string) bool {
	return ix.files().segments[ns] || ix.hasObjectsIn(ns)
}

// DumpFile finds the per-namespace dump of a resource ("backups.batch.example.org",
// "pods"): a file named after it in a directory named after the namespace.
func DumpFile(ix *Index, ns, resource string) string {
	fx := ix.files()
	for _, ext := range []string{".json", ".yaml", ".yml"} {
		if f, ok := fx.nsDump[ns+"\x00"+resource+ext]; ok {
			return f
		}
	}
	return ""
}

// KindDumped reports whether the bundle has a dump of a kind covering namespace ns,
// even an empty one: an object of it in ns, a dump file of it inside a directory named
// after ns (`namespaces/ns/services.json`, `ns/pods.json`), or an all-namespaces dump
// (a file of it that holds several namespaces, or that lies outside every namespace
// directory, like `cluster/services.json`).
func (ix *Index) KindDumped(ns, kind string) bool {
	fx := ix.files()
	kd := fx.kinds[kind]
	if kd == nil {
		kd = ix.kindDump(kind)
		fx.kinds[kind] = kd
	}
	return kd.withObjects[ns] || kd.multiNS || kd.dirs[ns] || kd.allDump
}

func (ix *Index) kindDump(kind string) *kindDump {
	kd := &kindDump{withObjects: map[string]bool{}, dirs: map[string]bool{}}
	perFile := map[string]string{} // file → the first namespace seen in it
	note := func(file, namespace string) bool {
		kd.withObjects[namespace] = true
		if first, ok := perFile[file]; !ok {
			perFile[file] = namespace
		} else if first != namespace {
			kd.multiNS = true
		}
		return true
	}
	for _, o := range ix.ByKind[kind] {
		note(o.Source.File, o.Namespace)
	}
	if kind == "Pod" {
		ix.slim.eachFileNamespace(note)
	}
	plural := strings.ToLower(kind) + "s"
	for _, f := range ix.Records.Files {
		base := path.Base(f)
		if !strings.HasPrefix(base, plural+".") && base != plural {
			continue
		}
		dir := path.Base(path.Dir(f))
		kd.dirs[dir] = true
		if !ix.NamespaceExists(dir) && !ix.hasObjectsIn(dir) {
			kd.allDump = true // e.g. cluster/services.json: an all-namespaces dump
		}
	}
	return kd
}
