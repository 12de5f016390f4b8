package text

import (
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/damage"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// wrappedTables are kubectl tables as tickets paste them: rows wider than a chat or mail
// client's lines.
var wrappedTables = []string{
	"$ kubectl get pods -n web -o wide\n" +
		"NAME    READY   STATUS        RESTARTS   AGE   IP           NODE       NOMINATED NODE   READINESS GATES\n" +
		"web-0   1/1     Terminating   0          12d   10.42.3.7    worker-3   <none>           <none>\n" +
		"web-1   1/1     Terminating   0          12d   10.42.3.8    worker-3   <none>           <none>\n",
	"# kubectl get pods -n longhorn-system\n" +
		"NAME                                                READY   STATUS        RESTARTS   AGE\n" +
		"instance-manager-580a03a9f49ab50e2bb345653bfff98c   1/1     Terminating   0          18m\n" +
		"instance-manager-914b7784dda286455b6fc3dbbc2e4771   1/1     Terminating   0          18m\n",
}

// TestTableWrapped: a kubectl table a client wrapped at spaces, at any width from its
// widest cell (with its padding) to its widest row, reads as the table (the header's rest is the header's,
// a row's rest is the row's), quoted or not.
func TestTableWrapped(t *testing.T) {
	for _, in := range wrappedTables {
		want := digest(Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{}))
		widest, cell := 0, 0
		for _, l := range strings.Split(in, "\n") {
			widest = max(widest, len(l))
			for _, c := range strings.Fields(l) {
				cell = max(cell, len(c))
			}
		}
		for w := cell + 4; w < widest; w++ { // (a word longer than the line is cut, not wrapped)
			for _, quote := range []bool{false, true} {
				d := damage.Damage{Steps: []damage.Step{damage.Wrap(w, damage.Word)}}
				if quote {
					d = damage.Damage{Steps: []damage.Step{damage.Mail(w, 1)}}
				}
				got := digest(Parse(strings.NewReader(d.Apply(in)), "t.txt", Options{}, &diag.Sink{}))
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s:\n got: %s\nwant: %s\ninput:\n%s", d.Name(), strings.Join(got, "\n      "), strings.Join(want, "\n      "), d.Apply(in))
				}
			}
		}
	}
}

// wrappedYAML is a Namespace as `kubectl get ns -o yaml` prints it, with the long
// annotation values tickets carry.
const wrappedYAML = `$ kubectl get namespace cattle-global-data -o yaml
apiVersion: v1
kind: Namespace
metadata:
  annotations:
    cattle.io/status: '{"Conditions":[{"Type":"ResourceQuotaInit","Status":"True","Message":"","LastUpdateTime":"2021-09-17T20:43:31Z"},{"Type":"InitialRolesPopulated","Status":"True","Message":"","LastUpdateTime":"2021-09-17T20:43:32Z"}]}'
    lifecycle.cattle.io/create.namespace-auth: "true"
    openshift.io/sa.scc.supplemental-groups: 1001390000/10000
  creationTimestamp: "2021-09-17T20:43:25Z"
  deletionTimestamp: "2021-09-20T18:36:45Z"
  finalizers:
  - controller.cattle.io/namespace-auth
  name: cattle-global-data
spec: {}
status:
  phase: Terminating
`

// TestYAMLWrapped: a YAML document a client wrapped at spaces (hyphenated or not), its
// lines' rests at the margin, reads as the document: each rest goes back after the line
// it was cut from, at any width parsers/paste measures (60 columns on) to the widest line.
// (A terminal's cut inside a single-quoted value is FOUND.md §9's, in fixtures/damage.)
func TestYAMLWrapped(t *testing.T) {
	want := digest(Parse(strings.NewReader(wrappedYAML), "t.txt", Options{}, &diag.Sink{}))
	if !strings.Contains(strings.Join(want, "\n"), "Namespace /cattle-global-data") {
		t.Fatalf("the undamaged document reads %v", want)
	}
	for w := 60; w < 240; w++ {
		for _, mode := range []damage.WrapMode{damage.Word, damage.Hyphen} {
			d := damage.Wrap(w, mode)
			in := d.Apply(wrappedYAML)
			got := digest(Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{}))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s:\n got: %s\nwant: %s\ninput:\n%s", d.Name, strings.Join(got, "\n      "), strings.Join(want, "\n      "), in)
			}
		}
	}
}

// cutJSON is a Namespace as `kubectl get ns -o json` prints it, with the long values
// tickets carry (a last-applied configuration, a condition message).
const cutJSON = `$ kubectl get namespace rook-ceph-system -o json
{
    "apiVersion": "v1",
    "kind": "Namespace",
    "metadata": {
        "annotations": {
            "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"annotations\":{},\"name\":\"rook-ceph-system\",\"namespace\":\"\"}}\n",
            "openshift.io/sa.scc.uid-range": "1000440000/10000"
        },
        "creationTimestamp": "2019-02-09T13:37:33Z",
        "deletionTimestamp": "2019-02-09T14:35:59Z",
        "name": "rook-ceph-system",
        "uid": "da82f47a-2c6f-11e9-8392-12645b59c006"
    },
    "spec": {
        "finalizers": [
            "kubernetes"
        ]
    },
    "status": {
        "conditions": [
            {
                "lastTransitionTime": "2019-02-09T14:36:05Z",
                "message": "Some resources are remaining: cephclusters.ceph.rook.io has 1 resource instances, pods. has 2 resource instances",
                "reason": "SomeResourcesRemain",
                "status": "True",
                "type": "NamespaceContentRemaining"
            }
        ],
        "phase": "Terminating"
    }
}
`

// TestJSONStringCut: a JSON document whose lines a terminal cut at any width, inside
// its strings too, reads as the document: JSON has no line break inside a string, so a
// string's rest is on the next line whatever the width (FOUND.md §5). Outside strings
// a cut falls between tokens or inside a key's quotes.
func TestJSONStringCut(t *testing.T) {
	want := digest(Parse(strings.NewReader(cutJSON), "t.txt", Options{}, &diag.Sink{}))
	if !strings.Contains(strings.Join(want, "\n"), "rook-ceph-system") || !strings.Contains(strings.Join(want, "\n"), "SomeResourcesRemain") {
		t.Fatalf("the undamaged document reads %v", want)
	}
	for w := 20; w < 200; w++ {
		for _, quote := range []bool{false, true} {
			d := damage.Damage{Steps: []damage.Step{damage.Wrap(w, damage.Cut)}}
			if quote {
				d.Steps = append(d.Steps, damage.Quote(1, false))
			}
			in := d.Apply(cutJSON)
			got := digest(Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{}))
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s:\n got: %s\nwant: %s", d.Name(), strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
		}
	}
}
