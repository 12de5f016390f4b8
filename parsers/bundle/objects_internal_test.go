package bundle

import "github.com/nsanalyze/nsanalyze/parsers/objects"

// allObjects is every kept object of rec, whole or slim, in the order read.
func allObjects(rec *Records) []*objects.Object {
	var out []*objects.Object
	rec.EachObject(func(o *objects.Object) { out = append(out, o) })
	return out
}
