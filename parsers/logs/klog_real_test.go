package logs

import (
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// Real lines from the fixtures (fixtures/realdata: Kubernetes v1.34.4; fixtures/realworld: 1.26).
func TestParseRealLines(t *testing.T) {
	ref := time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)
	p := lineParser{reference: ref}
	tests := []struct {
		name     string
		line     string
		sev      string
		caller   string
		msg      string
		fields   map[string]string
		time     time.Time
		inferred bool
	}{
		{
			name: "1.34 structured Unhandled Error (KCM)",
			line: `E1129 22:26:15.581738    2557 namespace_controller.go:164] "Unhandled Error" err="deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1" logger="UnhandledError"`,
			sev:  "E", caller: "namespace_controller.go:164", msg: "Unhandled Error",
			fields:   map[string]string{"err": "deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1", "logger": "UnhandledError"},
			time:     time.Date(2026, 11, 29, 22, 26, 15, 581738000, time.UTC),
			inferred: true,
		},
		{
			name: "1.34 structured with escaped quotes (KAS aggregator)",
			line: `I1129 22:26:04.248373    2523 remote_available_controller.go:408] "changing APIService availability" name="v1beta1.metrics.k8s.io" oldStatus="Unknown" newStatus="False" message="endpointslices for service/metrics-server in \"kube-system\" have no addresses with port name \"https\"" reason="MissingEndpoints"`,
			sev:  "I", caller: "remote_available_controller.go:408", msg: "changing APIService availability",
			fields:   map[string]string{"name": "v1beta1.metrics.k8s.io", "oldStatus": "Unknown", "newStatus": "False", "message": `endpointslices for service/metrics-server in "kube-system" have no addresses with port name "https"`, "reason": "MissingEndpoints"},
			time:     time.Date(2026, 11, 29, 22, 26, 4, 248373000, time.UTC),
			inferred: true,
		},
		{
			name: "1.26 printf line (KCM)",
			line: `E0107 04:30:04.389367       1 namespace_controller.go:157] deletion of namespace client failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request`,
			sev:  "E", caller: "namespace_controller.go:157",
			msg:      "deletion of namespace client failed: unable to retrieve the complete list of server APIs: projectcalico.org/v3: the server is currently unable to handle the request",
			time:     time.Date(2026, 1, 7, 4, 30, 4, 389367000, time.UTC),
			inferred: true,
		},
		{
			name: "JSON logging (KCM, 1.34)",
			line: `{"ts":1795991729905.163,"logger":"UnhandledError","caller":"namespace/namespace_controller.go:164","msg":"Unhandled Error","err":"deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1"}`,
			sev:  "E", caller: "namespace_controller.go:164", msg: "Unhandled Error",
			fields: map[string]string{"logger": "UnhandledError", "err": "deletion of namespace tobedeleted failed: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1"},
			time:   time.UnixMilli(1795991729905).Add(163 * time.Microsecond).UTC(),
		},
		{
			name: "JSON logging info with v (KAS, 1.34)",
			line: `{"ts":1795991718325.1523,"caller":"remote/remote_available_controller.go:408","msg":"changing APIService availability","v":2,"name":"v1beta1.metrics.k8s.io","oldStatus":"Unknown","newStatus":"False","message":"endpointslices for service/metrics-server in \"kube-system\" have no addresses with port name \"https\"","reason":"MissingEndpoints"}`,
			sev:  "I", caller: "remote_available_controller.go:408", msg: "changing APIService availability",
			fields: map[string]string{"name": "v1beta1.metrics.k8s.io", "oldStatus": "Unknown", "newStatus": "False", "message": `endpointslices for service/metrics-server in "kube-system" have no addresses with port name "https"`, "reason": "MissingEndpoints"},
			time:   time.UnixMilli(1795991718325).Add(152300 * time.Nanosecond).UTC(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e Entry
			if !p.parse([]byte(tt.line), &e) {
				t.Fatalf("no header recognised")
			}
			if e.Severity != tt.sev || e.Caller != tt.caller || e.Message != tt.msg {
				t.Errorf("got sev=%q caller=%q msg=%q", e.Severity, e.Caller, e.Message)
			}
			for k, v := range tt.fields {
				if e.Fields[k] != v {
					t.Errorf("field %s = %q, want %q", k, e.Fields[k], v)
				}
			}
			if d := e.Time.Sub(tt.time); d > time.Millisecond || d < -time.Millisecond {
				t.Errorf("time %s, want %s", e.Time, tt.time)
			}
			if e.YearInferred != tt.inferred {
				t.Errorf("YearInferred = %v", e.YearInferred)
			}
		})
	}
}

func TestKlogYearBeforeReference(t *testing.T) {
	// A December line read with a January reference belongs to the year before.
	p := lineParser{reference: time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC)}
	var e Entry
	p.parse([]byte(`E1231 23:59:58.000000       1 namespace_controller.go:157] deletion of namespace x failed: boom`), &e)
	if e.Time.Year() != 2026 {
		t.Errorf("year %d, want 2026", e.Time.Year())
	}
	e = Entry{}
	p.parse([]byte(`E0101 00:00:01.000000       1 namespace_controller.go:157] deletion of namespace x failed: boom`), &e)
	if e.Time.Year() != 2027 {
		t.Errorf("year %d, want 2027", e.Time.Year())
	}
}

// TestScanContinuation checks that a match on an `err=<` continuation line gets the
// time and caller of its record, with its own line number (real KAS 1.34 lines).
func TestScanContinuation(t *testing.T) {
	log := `I1129 22:26:04.657141    2523 controller.go:667] quota admission added evaluator for: horizontalpodautoscalers.autoscaling
E1129 22:26:05.246981    2523 controller.go:102] "Unhandled Error" err=<
	loading OpenAPI spec for "v1beta1.metrics.k8s.io" failed with: failed to download v1beta1.metrics.k8s.io: failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable
	, Header: map[Content-Type:[text/plain; charset=utf-8] X-Content-Type-Options:[nosniff]]
 > logger="UnhandledError"
`
	var got []Entry
	info, err := Scan(strings.NewReader(log), "logs/kube-apiserver.log", Options{Keywords: []string{"failed with: "}, Reference: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}, &diag.Sink{}, func(e Entry) { got = append(got, e) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d entries", len(got))
	}
	e := got[0]
	if e.Line != 3 || e.Caller != "controller.go:102" || e.Severity != "E" || e.Time.Minute() != 26 || e.Component != "kube-apiserver" {
		t.Errorf("entry %+v", e)
	}
	if !strings.HasPrefix(e.Message, "loading OpenAPI spec for") {
		t.Errorf("message %q", e.Message)
	}
	if info.Lines != 5 || info.Matched != 1 {
		t.Errorf("info %+v", info)
	}
}
