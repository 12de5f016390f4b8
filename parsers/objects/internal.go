package objects

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf8"
)

// metaKeys are the ObjectMeta fields (and TypeMeta's) that Kubernetes' internal types
// inline at the top of an object instead of under "metadata".
var metaKeys = map[string]bool{"name": true, "generateName": true, "namespace": true, "selfLink": true, "uid": true,
	"resourceVersion": true, "generation": true, "creationTimestamp": true, "deletionTimestamp": true,
	"deletionGracePeriodSeconds": true, "labels": true, "annotations": true, "ownerReferences": true,
	"initializers": true, "finalizers": true, "clusterName": true, "managedFields": true}

// externalize turns an item of a list of internal types (kubectl 1.13's cluster-info
// dump writes `{"Items": [{"name": ..., "creationTimestamp": ..., "Spec": ..., "Status": ...}]}`)
// into the versioned shape: metadata under "metadata", top-level keys with a lower-case
// first letter ("Spec" → "spec", "InvolvedObject" → "involvedObject"; deeper keys are
// matched case-insensitively by encoding/json). An item that is not a JSON object, or
// already has metadata, is returned as it is.
func externalize(raw []byte) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m["metadata"] != nil {
		return raw
	}
	meta := map[string]json.RawMessage{}
	out := map[string]json.RawMessage{}
	for k, v := range m {
		if metaKeys[k] {
			meta[k] = v
			continue
		}
		r, n := utf8.DecodeRuneInString(k)
		if r != utf8.RuneError && unicode.IsUpper(r) {
			lk := string(unicode.ToLower(r)) + k[n:]
			if _, dup := m[lk]; !dup {
				k = lk
			}
		}
		out[k] = v
	}
	if len(meta) > 0 {
		mb, err := json.Marshal(meta)
		if err != nil {
			return raw
		}
		out["metadata"] = mb
	}
	b, err := json.Marshal(out)
	if err != nil {
		return raw
	}
	// keep the item's line count, so later lines of the file keep their numbers
	if nl := bytes.Count(raw, []byte{'\n'}); nl > 0 {
		b = append(b, bytes.Repeat([]byte{'\n'}, nl)...)
	}
	return b
}
