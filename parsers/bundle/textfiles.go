package bundle

import (
	"io"
	"sort"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/objects"
	"github.com/nsanalyze/nsanalyze/parsers/text"
)

// NamespaceList is one listing of every namespace of a cluster found in a bundle.
type NamespaceList struct {
	File string
	Line int
	// Namespaces is how many it lists.
	Namespaces int
	// Rendering is "" for a JSON/YAML file, text.RenderingTable for a `kubectl get ns` table.
	Rendering string
	// Command is the command that printed it, when the file says (a prompt line, a sos file name).
	Command string
}

// nsCount follows the Namespace objects of one file, to tell a list of every namespace
// from one namespace's dump.
type nsCount struct {
	n        int
	line     int
	wellKnow bool // default or kube-system is among them: every cluster has them
}

func (l *loader) countNamespace(o *objects.Object) {
	c := l.nsFiles[o.Source.File]
	if c == nil {
		c = &nsCount{line: o.Source.Line}
		l.nsFiles[o.Source.File] = c
	}
	c.n++
	if o.Name == "default" || o.Name == "kube-system" {
		c.wellKnow = true
	}
}

// text reads a file of kubectl text renderings (parsers/text): its objects join the
// others, its stderr lines the logs (component "kubectl").
func (l *loader) text(m member, name string, r io.Reader) {
	h := pathHint(name)
	res := text.Parse(r, m.rel, text.Options{Logs: l.logOptions(m.rel), Command: h.Command}, l.warn)
	l.textResult(m, res)
}

// textResult adds what the text reader read from one file to the bundle's records.
func (l *loader) textResult(m member, res *text.Result) {
	l.textFiles[m.rel] = true
	// emitted once the bundle's JSON and YAML are: where the same object is also
	// dumped, the dump (with its timestamps and finalizers) comes first
	l.textObjs = append(l.textObjs, res.Objects...)
	if len(res.Objects) > 0 {
		l.objFiles[m.rel] = true
	}
	for _, nl := range res.NamespaceLists {
		l.nsLists = append(l.nsLists, NamespaceList{File: m.rel, Line: nl.Line, Namespaces: nl.Rows, Rendering: nl.Rendering, Command: nl.Command})
	}
	l.rec.Messages = append(l.rec.Messages, res.Messages...)
	if res.Log != nil {
		res.Log.Mtime = m.mtime
		l.logFiles = append(l.logFiles, &logFile{f: res.Log, rel: m.rel})
	}
}

// emitTextObjects records the objects of the text files, after every other object of
// the bundle; an object the bundle also dumps as JSON or YAML is not repeated from its
// text rendering (a table row has no labels, timestamps or finalizers, and is often an
// older snapshot).
func (l *loader) emitTextObjects() {
	if len(l.textObjs) == 0 {
		return
	}
	kinds := map[string]bool{}
	for _, o := range l.textObjs {
		kinds[o.Kind] = true
	}
	dumped := map[string]bool{}
	whole := map[string]*objects.Object{}
	wholeAt := map[string]int{}
	for k, o := range l.rec.Objects[l.objStart:] {
		if kinds[o.Kind] {
			dumped[o.Kind+"/"+o.Namespace+"/"+o.Name] = true
			whole[o.Kind+"/"+o.Namespace+"/"+o.Name] = o
			wholeAt[o.Kind+"/"+o.Namespace+"/"+o.Name] = l.objStart + k
		}
	}
	// the slim namespaces' rows that are the last copy of their namespace
	slim := map[string]int{}
	t := l.rec.SlimNamespaces
	if kinds["Namespace"] {
		for i := l.nsStart; i < t.Len(); i++ {
			key := "Namespace//" + t.Name(i)
			dumped[key] = true
			if at, ok := wholeAt[key]; !ok || t.Before(i) > at {
				slim[key] = i
			}
		}
	}
	for _, o := range l.textObjs {
		if o.Ages == nil {
			continue
		}
		key := o.Kind + "/" + o.Namespace + "/" + o.Name
		if i, ok := slim[key]; ok {
			d := t.Namespace(i)
			l.ageBound(o, d)
			if d.Ages == nil {
				t.SetAges(i, o.Ages) // the dump's copy keeps what the rendering said
			}
		} else if d := whole[key]; d != nil {
			l.ageBound(o, d)
			if d.Ages == nil {
				d.Ages = o.Ages
			}
		}
	}
	if kinds["Pod"] {
		for i := l.podStart; i < l.rec.SlimPods.Len(); i++ {
			dumped["Pod/"+l.rec.SlimPods.Namespace(i)+"/"+l.rec.SlimPods.Name(i)] = true
		}
	}
	emit := l.emitter("", "")
	for _, o := range l.textObjs {
		if !dumped[o.Kind+"/"+o.Namespace+"/"+o.Name] {
			emit(o)
		} else if l.reads != nil {
			l.read(o.Source.File).Dumped++
		}
	}
	l.textObjs = nil
}

// ageBound records what a rendering's ages say of the capture time, given the dump of
// the same object: it was printed at least Age after the creationTimestamp and at
// least TerminatingFor after the deletionTimestamp (kubectl rounds ages down).
func (l *loader) ageBound(text, dump *objects.Object) {
	a := text.Ages
	add := func(ref time.Time, d time.Duration, field string) {
		if ref.IsZero() || d <= 0 {
			return
		}
		l.rec.CaptureBounds = append(l.rec.CaptureBounds, CaptureBound{Time: ref.Add(d), File: a.File, Line: a.Line,
			Object: dump.Kind + " " + dump.Name, ObjectFile: dump.Source.File, Field: field, Age: d})
	}
	add(dump.CreationTimestamp, a.Age, "metadata.creationTimestamp")
	add(dump.DeletionTimestamp, a.TerminatingFor, "metadata.deletionTimestamp")
}

// namespaceLists adds the bundle's namespace listings to the records: those of text
// files, and every object file holding the well-known namespaces among several.
func (l *loader) namespaceLists(strip func(string) string) {
	for f, c := range l.nsFiles {
		if !l.textFiles[f] && c.n >= 2 && c.wellKnow {
			l.nsLists = append(l.nsLists, NamespaceList{File: f, Line: c.line, Namespaces: c.n})
		}
	}
	for _, nl := range l.nsLists {
		nl.File = strip(nl.File)
		l.rec.NamespaceLists = append(l.rec.NamespaceLists, nl)
	}
	sort.Slice(l.rec.NamespaceLists, func(i, j int) bool {
		a, b := l.rec.NamespaceLists[i], l.rec.NamespaceLists[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	if len(l.rec.NamespaceLists) > 0 {
		l.rec.NamespaceListSeen = true
	}
	for _, f := range sortedKeys(l.textFiles) {
		l.rec.TextFiles = append(l.rec.TextFiles, strip(f))
	}
}
