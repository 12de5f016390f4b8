package objects

import (
	"bytes"
	"testing"
)

// maxFastSeeds caps the real items FuzzFastDecode starts from.
const maxFastSeeds = 400

// FuzzFastDecode checks the fast decoder on arbitrary bytes taken as one item: it
// either declines it or agrees exactly with encoding/json (the same wire struct, no
// error), and the item decodes to the same object and warnings with the fast decoder
// on and off; the bytes taken as a whole stream decode the same both ways too. Seeds
// are items of the fixtures' object files (every kind) and hand-written shapes.
func FuzzFastDecode(f *testing.F) {
	for _, s := range append(append(append([]string{}, jsonSeeds...), fastDeclined...), fastTaken...) {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"kind":"Pod","Kind":"Node"}`,
		`{"kind":"Pod","metadata":{"name":"a\u00e9","labels":{"k\u0041":null}},"spec":{"containers":[null,{"image":"i"}]}}`,
		`{"kind":"Service","spec":{"selector":{"a":"b"},"ports":[{"port":80,"targetPort":"http"}]}}`,
		`{"kind":"Lease","spec":{"holderIdentity":null,"leaseDurationSeconds":15}}`,
		`{"kind":"Pod","spec":{"volumes":[{"persistentVolumeClaim":{"claimName":"a"}},{"persistentVolumeClaim":null},{"PersistentVolumeClaim":{"ClaimName":"b"}},null]}}`,
		`{"serverVersion":{"gitVersion":"v1.30.0"}}`,
		`{"metadata":{"labels":{"a":"1"}},"metadata":{"labels":{"b":"2"}}}`,      // repeated: merged by encoding/json
		`{"spec":{"service":{"name":"a"}},"spec":{"service":{"namespace":"b"}}}`, //
		`{"status":{"conditions":[{"type":"A"},{}]},"status":{"conditions":[{"status":"x"}]}}`,
	} {
		f.Add([]byte(s))
	}
	seeds := 0
	for _, b := range fixtureSeeds(f, ".json") {
		sp := newSplitter(bytes.NewReader(b), DefaultMaxObjectBytes)
		var st splitState
		for seeds < maxFastSeeds {
			it, err := sp.next(&st)
			if err != nil {
				break
			}
			if it.raw != nil && len(it.raw) <= maxSeedBytes {
				f.Add(bytes.Clone(it.raw))
				seeds++
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		compareItem(t, data)
		if len(data) < 64<<10 {
			decodeFastAndSlow(t, "f", data, Options{})
		}
	})
}
