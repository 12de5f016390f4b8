package gen

import (
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"
)

// planted is one real error line, written at its time among the noise.
type planted struct {
	t      time.Time
	sev    byte
	caller string
	msg    string
}

// logWriter writes a klog text log of about target bytes whose times run from the
// plan's Start to End in proportion to the bytes written.
type logWriter struct {
	p       *plan
	w       io.Writer
	r       *rand.Rand
	b       []byte
	target  int64
	written int64
	pid     int
	sched   []planted
	err     error
}

func (p *plan) newLog(w io.Writer, r *rand.Rand, target int64, pid int, sched []planted) *logWriter {
	sort.SliceStable(sched, func(i, j int) bool { return sched[i].t.Before(sched[j].t) })
	return &logWriter{p: p, w: w, r: r, target: target, pid: pid, sched: sched, b: make([]byte, 0, 4096)}
}

func (l *logWriter) now() time.Time {
	span := l.p.End.Sub(l.p.Start) - time.Minute
	f := float64(l.written) / float64(l.target)
	if f > 1 {
		f = 1
	}
	return l.p.Start.Add(time.Duration(f * float64(span)))
}

// header starts a klog line: `I1129 22:26:04.248373    2523 file.go:123] `.
func (l *logWriter) header(t time.Time, sev byte, caller string) {
	b := append(l.b, sev)
	b = appendN(b, int(t.Month()), 2)
	b = appendN(b, t.Day(), 2)
	b = append(b, ' ')
	b = appendN(b, t.Hour(), 2)
	b = append(b, ':')
	b = appendN(b, t.Minute(), 2)
	b = append(b, ':')
	b = appendN(b, t.Second(), 2)
	b = append(b, '.')
	b = appendN(b, t.Nanosecond()/1000, 6)
	b = append(b, ' ')
	pid := strconv.Itoa(l.pid)
	for i := len(pid); i < 7; i++ {
		b = append(b, ' ')
	}
	b = append(b, pid...)
	b = append(b, ' ')
	b = append(b, caller...)
	l.b = append(b, "] "...)
}

func appendN(b []byte, v, width int) []byte {
	var tmp [12]byte
	i := len(tmp)
	for ; width > 0 || v > 0; width-- {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, tmp[i:]...)
}

// line writes a full klog line.
func (l *logWriter) line(t time.Time, sev byte, caller string, msg ...string) {
	l.header(t, sev, caller)
	for _, m := range msg {
		l.b = append(l.b, m...)
	}
	l.b = append(l.b, '\n')
	l.flush()
}

// raw writes a line without header (a continuation line).
func (l *logWriter) raw(s ...string) {
	for _, m := range s {
		l.b = append(l.b, m...)
	}
	l.b = append(l.b, '\n')
	l.flush()
}

func (l *logWriter) flush() {
	if len(l.b) < 3000 {
		return
	}
	l.flushNow()
}

func (l *logWriter) flushNow() {
	if l.err == nil && len(l.b) > 0 {
		n, err := l.w.Write(l.b)
		l.written += int64(n)
		l.err = err
	}
	l.b = l.b[:0]
}

// run writes flags, then noise with the planted lines at their times.
func (l *logWriter) run(flags []string, noise func(t time.Time)) error {
	t := l.p.Start
	for i, f := range flags {
		l.line(t.Add(time.Duration(i)*7*time.Microsecond), 'I', "flags.go:64", "FLAG: ", f)
	}
	next := 0
	for l.written < l.target && l.err == nil {
		t := l.now()
		for next < len(l.sched) && !l.sched[next].t.After(t) {
			s := l.sched[next]
			l.line(s.t.Add(time.Duration(l.r.IntN(1e6))*time.Microsecond), s.sev, s.caller, s.msg)
			next++
		}
		noise(t.Add(time.Duration(l.r.IntN(1000)) * time.Microsecond))
	}
	for ; next < len(l.sched); next++ {
		s := l.sched[next]
		l.line(s.t.Add(time.Duration(l.r.IntN(1e6))*time.Microsecond), s.sev, s.caller, s.msg)
	}
	l.flushNow()
	return l.err
}

// every returns times from a to b spaced by d with up to 10% jitter.
func every(r *rand.Rand, a, b time.Time, d time.Duration) []time.Time {
	var out []time.Time
	for t := a; t.Before(b); t = t.Add(d + time.Duration(r.Int64N(int64(d/10)+1))) {
		out = append(out, t)
	}
	return out
}

// q quotes a klog structured value (Go syntax, as klog writes it).
func q(s string) string { return strconv.Quote(s) }

var apiserverFlags = []string{"--admission-control=\"[]\"", "--advertise-address=\"10.0.0.10\"", "--allow-privileged=\"true\"",
	"--anonymous-auth=\"true\"", "--api-audiences=\"[https://kubernetes.default.svc.cluster.local]\"", "--apiserver-count=\"1\"",
	"--audit-log-maxage=\"0\"", "--audit-log-path=\"\"", "--authorization-mode=\"[Node,RBAC]\"", "--client-ca-file=\"/etc/kubernetes/pki/ca.crt\"",
	"--enable-admission-plugins=\"[NodeRestriction]\"", "--enable-aggregator-routing=\"false\"", "--enable-bootstrap-token-auth=\"true\"",
	"--etcd-servers=\"[https://127.0.0.1:2379]\"", "--kubelet-preferred-address-types=\"[InternalIP,ExternalIP,Hostname]\"",
	"--proxy-client-cert-file=\"/etc/kubernetes/pki/front-proxy-client.crt\"", "--requestheader-allowed-names=\"[front-proxy-client]\"",
	"--secure-port=\"6443\"", "--service-account-issuer=\"[https://kubernetes.default.svc.cluster.local]\"",
	"--service-cluster-ip-range=\"10.96.0.0/12\"", "--tls-cert-file=\"/etc/kubernetes/pki/apiserver.crt\"", "--v=\"2\""}

var kcmFlags = []string{"--allocate-node-cidrs=\"true\"", "--authentication-kubeconfig=\"/etc/kubernetes/controller-manager.conf\"",
	"--bind-address=\"127.0.0.1\"", "--cluster-cidr=\"10.244.0.0/16\"", "--cluster-name=\"prod-eu-1\"", "--concurrent-namespace-syncs=\"10\"",
	"--controllers=\"[*,bootstrapsigner,tokencleaner]\"", "--leader-elect=\"true\"", "--namespace-sync-period=\"5m0s\"",
	"--resource-quota-sync-period=\"5m0s\"", "--root-ca-file=\"/etc/kubernetes/pki/ca.crt\"", "--use-service-account-credentials=\"true\"", "--v=\"2\""}

var (
	resources  = []string{"pods", "configmaps", "secrets", "services", "endpoints", "events", "serviceaccounts", "leases", "deployments", "replicasets", "jobs", "endpointslices"}
	userAgents = []string{"kube-controller-manager/v1.34.4 (linux/amd64) kubernetes/2ed2f66/system:serviceaccount:kube-system:replicaset-controller",
		"kubelet/v1.34.4 (linux/amd64) kubernetes/2ed2f66", "kube-scheduler/v1.34.4 (linux/amd64) kubernetes/2ed2f66/scheduler",
		"kubectl/v1.34.4 (linux/amd64) kubernetes/2ed2f66", "argocd-application-controller/v0.0.0 (linux/amd64) kubernetes/$Format",
		"prometheus/2.53.1", "coredns/v0.0.0 (linux/amd64) kubernetes/$Format", "Go-http-client/2.0"}
	flowSchemas = [][2]string{{"workload-high", "kube-system-service-accounts"}, {"system", "system-nodes"}, {"workload-low", "service-accounts"},
		{"global-default", "global-default"}, {"leader-election", "kube-controller-manager"}}
)

func (l *logWriter) srcIP() string {
	return "10.0.0." + strconv.Itoa(10+l.r.IntN(20)) + ":" + strconv.Itoa(30000+l.r.IntN(30000))
}

func (l *logWriter) latency() string {
	return strconv.Itoa(l.r.IntN(40)) + "." + strconv.Itoa(100000+l.r.IntN(899999)) + "ms"
}

func (p *plan) writeAPIServerLog(w io.Writer, r *rand.Rand, target int64) error {
	var s []planted
	add := func(t time.Time, sev byte, caller, msg string) { s = append(s, planted{t, sev, caller, msg}) }
	// KEDA removed: its APIService loses its service.
	add(p.KedaGone, 'I', "remote_available_controller.go:408", `"changing APIService availability" name="`+apiExternal+
		`" oldStatus="True" newStatus="False" message=`+q(`service/keda-operator-metrics-apiserver in "keda" is not present`)+` reason="ServiceNotFound"`)
	for _, t := range every(r, p.KedaGone.Add(2*time.Second), p.End.Add(-time.Minute), time.Minute) {
		add(t, 'E', "controller.go:113", `"Unhandled Error" err=`+q(`loading OpenAPI spec for "`+apiExternal+`" failed with: Error, could not get list of group versions for APIService`)+` logger="UnhandledError"`)
	}
	// metrics-server crash-loops: discovery checks fail.
	add(p.MetricsDown, 'I', "remote_available_controller.go:408", `"changing APIService availability" name="`+apiMetrics+
		`" oldStatus="True" newStatus="False" message=`+q(p.metricsFailure())+` reason="FailedDiscoveryCheck"`)
	for _, t := range every(r, p.MetricsDown.Add(time.Second), p.End.Add(-time.Minute), 30*time.Second) {
		add(t, 'E', "remote_available_controller.go:448", `"Unhandled Error" err=`+q(apiMetrics+" failed with: "+p.metricsFailure())+` logger="UnhandledError"`)
	}
	for _, t := range every(r, p.MetricsDown.Add(3*time.Second), p.End.Add(-time.Minute), time.Minute) {
		add(t, 'E', "controller.go:113", `"Unhandled Error" err=`+q(`loading OpenAPI spec for "`+apiMetrics+`" failed with: Error, could not get list of group versions for APIService`)+` logger="UnhandledError"`)
	}
	l := p.newLog(w, r, target, 2523, s)
	return l.run(apiserverFlags, func(t time.Time) { l.apiserverNoise(t) })
}

func (l *logWriter) apiserverNoise(t time.Time) {
	r := l.r
	ns := pick(r, l.p.Namespaces)
	res := pick(r, resources)
	switch x := r.IntN(1000); {
	case x < 560:
		verb, uri, code := "GET", "/api/v1/namespaces/"+ns+"/"+res+"/"+pick(r, apps)+"-"+alnum(r, 5), "200"
		switch y := r.IntN(10); {
		case y < 3:
			verb, uri = "LIST", "/api/v1/namespaces/"+ns+"/"+res+"?limit=500&resourceVersion=0"
		case y < 5:
			verb, uri = "WATCH", "/api/v1/"+res+"?allowWatchBookmarks=true&resourceVersion="+strconv.Itoa(1e6+r.IntN(9e6))+"&timeout=7m"+strconv.Itoa(r.IntN(60))+"s&timeoutSeconds="+strconv.Itoa(300+r.IntN(300))+"&watch=true"
		case y < 6:
			verb, code = "PUT", "200"
			uri = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/" + pick(r, l.p.Nodes) + "?timeout=10s"
		case y < 7:
			verb, code = "PATCH", "200"
			uri = "/api/v1/namespaces/" + ns + "/pods/" + pick(r, apps) + "-" + alnum(r, 5) + "/status"
		case y < 8 && r.IntN(4) == 0:
			code = "404"
		}
		fs := pick(r, flowSchemas)
		l.line(t, 'I', "httplog.go:134", `"HTTP" verb="`, verb, `" URI="`, uri, `" latency="`, l.latency(), `" userAgent="`, pick(r, userAgents),
			`" audit-ID="`, uuid(r), `" srcIP="`, l.srcIP(), `" apf_pl="`, fs[0], `" apf_fs="`, fs[1], `" apf_iseats=1 apf_fseats=0 apf_additionalLatency="0s" apf_execution_time="`,
			l.latency(), `" resp=`, code)
	case x < 610:
		id := strconv.Itoa(1e9 + r.IntN(1e9))
		a := uuid(r)
		total := strconv.Itoa(500 + r.IntN(3000))
		clock := t.Format("15:04:05.000")
		l.line(t, 'I', "trace.go:236", "Trace[", id, `]: "List" accept:application/json, */*,audit-id:`, a, ",client:10.0.0.", strconv.Itoa(10+r.IntN(20)),
			",api-group:,api-version:v1,name:,subresource:,namespace:", ns, ",protocol:HTTP/2.0,resource:", res, ",scope:namespace,url:/api/v1/namespaces/", ns, "/", res,
			",user-agent:", pick(r, userAgents), ",verb:LIST (", t.Format("02-Jan-2006 15:04:05.000"), ") (total time: ", total, "ms):")
		l.raw("Trace[", id, `]: ["List(recursive=true) etcd3" audit-id:`, a, ",key:/", res, "/", ns, ",resourceVersion:,resourceVersionMatch:,limit:500,continue: ", total, "ms (", clock, ")]")
		l.raw("Trace[", id, `]: ---"Writing http response done" count:`, strconv.Itoa(r.IntN(5000)), " 0ms (", clock, ")")
		l.raw("Trace[", id, "]: [", total, ".", strconv.Itoa(100+r.IntN(899)), "ms] [", total, "ms] END")
	case x < 700:
		l.line(t, 'I', "get.go:261", `"Starting watch" path="/api/v1/namespaces/`, ns, "/", res, `" resourceVersion="`, strconv.Itoa(1e6+r.IntN(9e6)),
			`" labels="" fields="" timeout="`, strconv.Itoa(5+r.IntN(5)), "m", strconv.Itoa(r.IntN(60)), `s"`)
	case x < 770:
		l.line(t, 'I', "handler.go:143", `kube-apiserver: GET "/apis/`, pick(r, []string{"apps", "batch", "networking.k8s.io", "policy", "cert-manager.io"}), `/v1" satisfied by nonGoRestful`)
	case x < 820:
		l.line(t, 'I', "controller.go:615", "quota admission added evaluator for: ", res)
	case x < 850:
		l.line(t, 'I', "alloc.go:330", `"allocated clusterIPs" service="`, ns, "/", pick(r, apps), "-", alnum(r, 4), `" clusterIPs={"IPv4":"10.96.`, strconv.Itoa(r.IntN(256)), ".", strconv.Itoa(1+r.IntN(254)), `"}`)
	case x < 890:
		l.line(t, 'W', "watcher.go:338", "watch chan error: etcdserver: mvcc: required revision has been compacted")
	case x < 920:
		l.line(t, 'E', "status.go:71", `"Unhandled Error" err="apiserver received an error that is not an metav1.Status: context.deadlineExceededError{}: context deadline exceeded" logger="UnhandledError"`)
	case x < 940:
		l.line(t, 'E', "writers.go:122", `"Unhandled Error" err="apiserver was unable to write a JSON response: http: Handler timeout" logger="UnhandledError"`)
	case x < 960:
		l.line(t, 'I', "cacher.go:847", `cacher (`, res, `): 1 objects queued in incoming channel.`)
	case x < 985:
		l.line(t, 'I', "controller.go:126", "OpenAPI AggregationController: action for item v1beta1.custom.metrics.k8s.io: Nothing (removed from the queue).")
	default:
		l.line(t, 'W', "reflector.go:561", "storage/cacher.go:/", res, ": failed to list *unstructured.Unstructured: etcdserver: request timed out")
	}
}

func (p *plan) writeKCMLog(w io.Writer, r *rand.Rand, target int64) error {
	var s []planted
	add := func(t time.Time, sev byte, caller, msg string) { s = append(s, planted{t, sev, caller, msg}) }
	add(p.Start.Add(5*time.Second), 'I', "leaderelection.go:271", "successfully acquired lease kube-system/kube-controller-manager")
	add(p.Start.Add(8*time.Second), 'I', "namespace_controller.go:202", `"Starting namespace controller" logger="namespace-controller"`)
	// Namespaces deleted cleanly before KEDA was removed.
	for i, n := range p.Ephemeral {
		t := p.Start.Add(time.Minute + time.Duration(i)*p.KedaGone.Sub(p.Start.Add(2*time.Minute))/time.Duration(len(p.Ephemeral)))
		add(t, 'I', "namespace_controller.go:187", `"Namespace has been deleted" logger="namespace-controller" namespace="`+n+`"`)
	}
	extOnly := "unable to retrieve the complete list of server APIs: " + gvExternal + ": stale GroupVersion discovery: " + gvExternal
	gcExt := `groups="map[\"` + gvExternal + `\":\"stale GroupVersion discovery: ` + gvExternal + `\"]"`
	gcBoth := `groups="map[\"` + gvExternal + `\":\"stale GroupVersion discovery: ` + gvExternal + `\" \"` + gvMetrics + `\":\"stale GroupVersion discovery: ` + gvMetrics + `\"]"`
	for _, t := range every(r, p.KedaGone.Add(20*time.Second), p.End.Add(-time.Minute), time.Minute) {
		g, e := gcExt, extOnly
		if t.After(p.MetricsDown) {
			g, e = gcBoth, discoveryErr
		}
		add(t, 'I', "garbagecollector.go:787", `"failed to discover some groups" logger="garbage-collector-controller" `+g)
		if t.Minute()%5 == 0 {
			add(t.Add(time.Second), 'E', "resource_quota_controller.go:446", `"Unhandled Error" err=`+q(e)+` logger="UnhandledError"`)
		}
	}
	// The stuck namespaces: the namespace controller retries every few minutes.
	for _, ns := range p.Stuck {
		for _, t := range every(r, ns.Deleted.Add(5*time.Second), p.End.Add(-time.Minute), 5*time.Minute) {
			add(t, 'E', "namespace_controller.go:164", `"Unhandled Error" err=`+q("deletion of namespace "+ns.Name+" failed: "+discoveryErr)+` logger="UnhandledError"`)
		}
	}
	// HPAs cannot read metrics once metrics-server is down.
	for i, hpa := range []string{"payments-prod/api", "checkout-prod/web"} {
		for _, t := range every(r, p.MetricsDown.Add(time.Duration(10+i*7)*time.Second), p.End.Add(-time.Minute), time.Minute) {
			add(t, 'E', "horizontal.go:279", `"Unhandled Error" err="failed to compute desired number of replicas based on listed metrics for Deployment/`+hpa+
				`: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)" logger="UnhandledError"`)
		}
	}
	l := p.newLog(w, r, target, 2557, s)
	return l.run(kcmFlags, func(t time.Time) { l.kcmNoise(t) })
}

func (l *logWriter) kcmNoise(t time.Time) {
	r := l.r
	ns := pick(r, l.p.Namespaces)
	a := pick(r, apps)
	hash := hexStr(r, 10)
	dur := strconv.Itoa(20+r.IntN(900)) + "." + strconv.Itoa(100+r.IntN(899)) + "µs"
	switch x := r.IntN(1000); {
	case x < 300:
		l.line(t, 'I', "replica_set.go:679", `"Finished syncing" logger="replicaset-controller" kind="ReplicaSet" key="`, ns, "/", a, "-", hash, `" duration="`, dur, `"`)
	case x < 450:
		l.line(t, 'I', "event.go:389", `"Event occurred" object="`, ns, "/", a, "-", hash, `" fieldPath="" kind="ReplicaSet" apiVersion="apps/v1" type="Normal" reason="SuccessfulCreate" message="Created pod: `,
			a, "-", hash, "-", alnum(r, 5), `"`)
	case x < 560:
		l.line(t, 'I', "endpoints_controller.go:348", `"Finished syncing service endpoints" logger="endpoints-controller" service="`, ns, "/", a, `" startTime="`,
			t.Format("2006-01-02 15:04:05.000000000 -0700 MST"), `"`)
	case x < 660:
		l.line(t, 'I', "deployment_controller.go:605", `"Finished syncing deployment" logger="deployment-controller" deployment="`, ns, "/", a, `" duration="`, dur, `"`)
	case x < 700:
		l.line(t, 'W', "reflector.go:561", "k8s.io/client-go/metadata/metadatainformer/informer.go:138: failed to list *v1.PartialObjectMetadata: the server could not find the requested resource")
	case x < 730:
		l.line(t, 'E', "reflector.go:158", `"Unhandled Error" err="k8s.io/client-go/metadata/metadatainformer/informer.go:138: Failed to watch *v1.PartialObjectMetadata: failed to list *v1.PartialObjectMetadata: the server could not find the requested resource" logger="UnhandledError"`)
	case x < 800:
		l.line(t, 'I', "job_controller.go:598", `"enqueueing job" logger="job-controller" key="`, ns, "/", a, "-", strconv.Itoa(29e6+r.IntN(1e6)), `" delay="1s"`)
	case x < 880:
		l.line(t, 'I', "garbagecollector.go:501", `"Processing item" logger="garbage-collector-controller" item="[v1/Pod, namespace: `, ns, ", name: ", a, "-", hash, "-", alnum(r, 5),
			", uid: ", uuid(r), `]" virtual=false`)
	case x < 940:
		l.line(t, 'I', "endpointslice_controller.go:330", `"Error syncing endpoint slices for service, retrying" logger="endpointslice-controller" key="`, ns, "/", a,
			`" err="EndpointSlice informer cache is out of date"`)
	default:
		l.line(t, 'I', "range_allocator.go:247", `"Successfully synced" logger="node-ipam-controller" key="`, pick(r, l.p.Nodes), `"`)
	}
}
