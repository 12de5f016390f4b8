package gen

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// objFile is one object dump of the bundle.
type objFile struct {
	rel string
	fn  func(io.Writer, *rand.Rand) error
}

// listWriter writes a `kubectl get -o json` List one item at a time.
type listWriter struct {
	w       io.Writer
	j       jw
	n       int
	written int64
	err     error
}

func newList(w io.Writer) *listWriter {
	l := &listWriter{w: w}
	l.raw("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")
	return l
}

func (l *listWriter) raw(s string) {
	if l.err == nil {
		n, err := io.WriteString(l.w, s)
		l.written += int64(n)
		l.err = err
	}
}

// item starts the next item; finish it with done().
func (l *listWriter) item() *jw {
	l.j.b = l.j.b[:0]
	l.j.depth = 2
	l.j.comma = l.n > 0
	l.j.obj("")
	return &l.j
}

func (l *listWriter) done() {
	l.j.end('}')
	l.n++
	if l.err == nil {
		n, err := l.w.Write(l.j.b)
		l.written += int64(n)
		l.err = err
	}
}

func (l *listWriter) close() error {
	if l.n > 0 {
		l.raw("\n    ")
	}
	l.raw("],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	return l.err
}

// meta writes metadata with the keys in kubectl's (sorted) order.
type meta struct {
	annotations     []string // sorted key, value pairs
	created         time.Time
	deleted         time.Time
	finalizers      []string
	generateName    string
	generation      int
	labels          []string
	name, namespace string
	owner           *owner
	rv              int
	uid             string
}

type owner struct{ apiVersion, kind, name, uid string }

func (m *meta) write(j *jw) {
	j.obj("metadata")
	if len(m.annotations) > 0 {
		j.labels("annotations", m.annotations...)
	}
	j.str("creationTimestamp", rfc3339(m.created))
	if !m.deleted.IsZero() {
		j.num("deletionGracePeriodSeconds", 0)
		j.str("deletionTimestamp", rfc3339(m.deleted))
	}
	if len(m.finalizers) > 0 {
		j.strs("finalizers", m.finalizers...)
	}
	if m.generateName != "" {
		j.str("generateName", m.generateName)
	}
	if m.generation > 0 {
		j.num("generation", m.generation)
	}
	if len(m.labels) > 0 {
		j.labels("labels", m.labels...)
	}
	j.str("name", m.name)
	if m.namespace != "" {
		j.str("namespace", m.namespace)
	}
	if m.owner != nil {
		j.arr("ownerReferences")
		j.obj("")
		j.str("apiVersion", m.owner.apiVersion)
		j.boolean("blockOwnerDeletion", true)
		j.boolean("controller", true)
		j.str("kind", m.owner.kind)
		j.str("name", m.owner.name)
		j.str("uid", m.owner.uid)
		j.end('}')
		j.end(']')
	}
	j.str("resourceVersion", fmt.Sprint(m.rv))
	j.str("uid", m.uid)
	j.end('}')
}

// condition writes one status condition.
func condition(j *jw, probe bool, t time.Time, msg, reason, status, typ string) {
	j.obj("")
	if probe {
		j.null("lastProbeTime")
	}
	j.str("lastTransitionTime", rfc3339(t))
	if msg != "" {
		j.str("message", msg)
	}
	if reason != "" {
		j.str("reason", reason)
	}
	j.str("status", status)
	j.str("type", typ)
	j.end('}')
}

// objectFiles lists the object dumps; bulk objects fill about budget bytes.
func (p *plan) objectFiles(budget int64) []objFile {
	share := func(f float64) int64 { return int64(float64(budget) * f) }
	return []objFile{
		{"cluster/namespaces.json", p.writeNamespaces},
		{"cluster/apiservices.json", p.writeAPIServices},
		{"cluster/crds.json", p.writeCRDs},
		{"cluster/nodes.json", p.writeNodes},
		{"cluster/endpointslices.json", p.writeEndpointSlices},
		{"cluster/services.json", func(w io.Writer, r *rand.Rand) error { return p.writeServices(w, r, share(0.04)) }},
		{"cluster/deployments.json", func(w io.Writer, r *rand.Rand) error { return p.writeDeployments(w, r, share(0.03)) }},
		{"cluster/pods.json", func(w io.Writer, r *rand.Rand) error { return p.writePods(w, r, share(0.35)) }},
		{"cluster/events.json", func(w io.Writer, r *rand.Rand) error { return p.writeEvents(w, r, share(0.25)) }},
		{"cluster/endpoints.json", func(w io.Writer, r *rand.Rand) error { return p.writeEndpoints(w, r, share(0.08)) }},
		{"cluster/configmaps.json", func(w io.Writer, r *rand.Rand) error { return p.writeConfigMaps(w, r, share(0.13)) }},
		{"cluster/replicasets.json", func(w io.Writer, r *rand.Rand) error { return p.writeReplicaSets(w, r, share(0.12)) }},
		{"namespaces/" + p.Stuck[len(p.Stuck)-1].Name + "/" + p.CR.Plural + "." + p.CR.Group + ".json", p.writeCR},
	}
}

// past returns a time between 1 hour and 40 days before the capture.
func (p *plan) past(r *rand.Rand) time.Time {
	return p.End.Add(-time.Hour - time.Duration(r.Int64N(int64(40*24*time.Hour))))
}

func (p *plan) writeNamespaces(w io.Writer, r *rand.Rand) error {
	l := newList(w)
	active := func(name string) {
		j := l.item()
		j.str("apiVersion", "v1")
		j.str("kind", "Namespace")
		(&meta{created: p.past(r), labels: []string{"kubernetes.io/metadata.name", name}, name: name, rv: 100 + r.IntN(1e6), uid: uuid(r)}).write(j)
		j.obj("spec")
		j.strs("finalizers", "kubernetes")
		j.end('}')
		j.obj("status")
		j.str("phase", "Active")
		j.end('}')
		l.done()
	}
	for _, n := range []string{"default", "keda-system", "kube-node-lease", "kube-public", "kube-system", "monitoring"} {
		active(n)
	}
	for _, n := range p.Namespaces {
		active(n)
	}
	for _, s := range p.Stuck {
		j := l.item()
		j.str("apiVersion", "v1")
		j.str("kind", "Namespace")
		(&meta{annotations: []string{"kubectl.kubernetes.io/last-applied-configuration",
			`{"apiVersion":"v1","kind":"Namespace","metadata":{"annotations":{},"name":"` + s.Name + `"}}` + "\n"},
			created: s.Deleted.Add(-time.Duration(1+r.IntN(72)) * time.Hour), deleted: s.Deleted,
			labels: []string{"kubernetes.io/metadata.name", s.Name}, name: s.Name, rv: 100 + r.IntN(1e6), uid: uuid(r)}).write(j)
		j.obj("spec")
		j.strs("finalizers", "kubernetes")
		j.end('}')
		j.obj("status")
		j.arr("conditions")
		t := s.Deleted.Add(5 * time.Second)
		condition(j, false, t, "Discovery failed for some groups, 2 failing: "+discoveryErr, "DiscoveryFailed", "True", "NamespaceDeletionDiscoveryFailure")
		condition(j, false, t, "All legacy kube types successfully parsed", "ParsedGroupVersions", "False", "NamespaceDeletionGroupVersionParsingFailure")
		condition(j, false, t, "All content successfully deleted, may be waiting on finalization", "ContentDeleted", "False", "NamespaceDeletionContentFailure")
		if s.Finalizer {
			condition(j, false, t, "Some resources are remaining: "+p.CR.Plural+"."+p.CR.Group+" has 1 resource instances", "SomeResourcesRemain", "True", "NamespaceContentRemaining")
			condition(j, false, t, "Some content in the namespace has finalizers remaining: "+p.Finalizer+" in 1 resource instances", "SomeFinalizersRemain", "True", "NamespaceFinalizersRemaining")
		} else {
			condition(j, false, t, "All content successfully removed", "ContentRemoved", "False", "NamespaceContentRemaining")
			condition(j, false, t, "All content-preserving finalizers finished", "ContentHasNoFinalizers", "False", "NamespaceFinalizersRemaining")
		}
		j.end(']')
		j.str("phase", "Terminating")
		j.end('}')
		l.done()
	}
	return l.close()
}

func (p *plan) writeAPIServices(w io.Writer, r *rand.Rand) error {
	l := newList(w)
	local := []string{"v1.", "v1.admissionregistration.k8s.io", "v1.apiextensions.k8s.io", "v1.apps", "v1.authentication.k8s.io",
		"v1.authorization.k8s.io", "v1.autoscaling", "v2.autoscaling", "v1.batch", "v1.certificates.k8s.io", "v1.coordination.k8s.io",
		"v1.discovery.k8s.io", "v1.events.k8s.io", "v1.flowcontrol.apiserver.k8s.io", "v1.networking.k8s.io", "v1.node.k8s.io",
		"v1.policy", "v1.rbac.authorization.k8s.io", "v1.scheduling.k8s.io", "v1.storage.k8s.io", "v1alpha1.vm.example.io",
		"v1.cert-manager.io", "v1.acme.cert-manager.io", "v1alpha1.keda.sh"}
	created := p.Start.Add(-30 * 24 * time.Hour)
	for _, name := range local {
		version, group, _ := strings.Cut(name, ".")
		j := l.item()
		j.str("apiVersion", "apiregistration.k8s.io/v1")
		j.str("kind", "APIService")
		m := &meta{created: created, name: name, rv: 10 + r.IntN(1000), uid: uuid(r)}
		if strings.Contains(group, ".") && !strings.HasSuffix(group, "k8s.io") {
			m.labels = []string{"kube-aggregator.kubernetes.io/automanaged", "true"}
		} else {
			m.labels = []string{"kube-aggregator.kubernetes.io/automanaged", "onstart"}
		}
		m.write(j)
		j.obj("spec")
		if group != "" {
			j.str("group", group)
		}
		j.num("groupPriorityMinimum", 1000+r.IntN(20000))
		j.str("version", version)
		j.num("versionPriority", 15)
		j.end('}')
		j.obj("status")
		j.arr("conditions")
		condition(j, false, created, "Local APIServices are always available", "Local", "True", "Available")
		j.end(']')
		j.end('}')
		l.done()
	}
	agg := func(name, group, svcNS, svcName string, cond func(j *jw)) {
		j := l.item()
		j.str("apiVersion", "apiregistration.k8s.io/v1")
		j.str("kind", "APIService")
		(&meta{created: created, name: name, rv: 10 + r.IntN(100000), uid: uuid(r)}).write(j)
		j.obj("spec")
		j.str("group", group)
		j.num("groupPriorityMinimum", 100)
		j.boolean("insecureSkipTLSVerify", true)
		j.obj("service")
		j.str("name", svcName)
		j.str("namespace", svcNS)
		j.num("port", 443)
		j.end('}')
		j.str("version", "v1beta1")
		j.num("versionPriority", 100)
		j.end('}')
		j.obj("status")
		j.arr("conditions")
		cond(j)
		j.end(']')
		j.end('}')
		l.done()
	}
	agg("v1beta1.custom.metrics.k8s.io", "custom.metrics.k8s.io", "monitoring", "prometheus-adapter", func(j *jw) {
		condition(j, false, created, "all checks passed", "Passed", "True", "Available")
	})
	agg(apiExternal, "external.metrics.k8s.io", "keda", "keda-operator-metrics-apiserver", func(j *jw) {
		condition(j, false, p.KedaGone, `service/keda-operator-metrics-apiserver in "keda" is not present`, "ServiceNotFound", "False", "Available")
	})
	agg(apiMetrics, "metrics.k8s.io", "kube-system", "metrics-server", func(j *jw) {
		condition(j, false, p.MetricsDown, p.metricsFailure(), "FailedDiscoveryCheck", "False", "Available")
	})
	return l.close()
}

// metricsFailure is the discovery check error for metrics-server.
func (p *plan) metricsFailure() string {
	u := "https://" + p.MetricsIP + ":10250/apis/metrics.k8s.io/v1beta1"
	return "failing or missing response from " + u + `: Get "` + u + `": dial tcp ` + p.MetricsIP + ":10250: connect: connection refused"
}

func (p *plan) writeCRDs(w io.Writer, r *rand.Rand) error {
	l := newList(w)
	crd := func(group, kind, plural, version string) {
		j := l.item()
		created := p.Start.Add(-20 * 24 * time.Hour)
		j.str("apiVersion", "apiextensions.k8s.io/v1")
		j.str("kind", "CustomResourceDefinition")
		(&meta{created: created, generation: 1, name: plural + "." + group, rv: 100 + r.IntN(1e5), uid: uuid(r)}).write(j)
		j.obj("spec")
		j.obj("conversion")
		j.str("strategy", "None")
		j.end('}')
		j.str("group", group)
		j.obj("names")
		j.str("kind", kind)
		j.str("listKind", kind+"List")
		j.str("plural", plural)
		j.str("singular", strings.ToLower(kind))
		j.end('}')
		j.str("scope", "Namespaced")
		j.arr("versions")
		j.obj("")
		j.str("name", version)
		j.obj("schema")
		j.obj("openAPIV3Schema")
		j.str("type", "object")
		j.boolean("x-kubernetes-preserve-unknown-fields", true)
		j.end('}')
		j.end('}')
		j.boolean("served", true)
		j.boolean("storage", true)
		j.obj("subresources")
		j.emptyObj("status")
		j.end('}')
		j.end('}')
		j.end(']')
		j.end('}')
		j.obj("status")
		j.obj("acceptedNames")
		j.str("kind", kind)
		j.str("listKind", kind+"List")
		j.str("plural", plural)
		j.str("singular", strings.ToLower(kind))
		j.end('}')
		j.arr("conditions")
		condition(j, false, created, "no conflicts found", "NoConflicts", "True", "NamesAccepted")
		condition(j, false, created, "the initial names have been accepted", "InitialNamesAccepted", "True", "Established")
		j.end(']')
		j.strs("storedVersions", version)
		j.end('}')
		l.done()
	}
	crd("cert-manager.io", "Certificate", "certificates", "v1")
	crd("cert-manager.io", "Issuer", "issuers", "v1")
	crd("keda.sh", "ScaledObject", "scaledobjects", "v1alpha1")
	crd(p.CR.Group, p.CR.Kind, p.CR.Plural, p.CR.Version)
	return l.close()
}

func (p *plan) writeCR(w io.Writer, r *rand.Rand) error {
	s := p.Stuck[len(p.Stuck)-1]
	l := newList(w)
	j := l.item()
	j.str("apiVersion", p.CR.Group+"/"+p.CR.Version)
	j.str("kind", p.CR.Kind)
	(&meta{created: s.Deleted.Add(-30 * time.Minute), deleted: s.Deleted.Add(2 * time.Second), finalizers: []string{p.Finalizer},
		generation: 2, name: p.CR.Name, namespace: s.Name, rv: 100 + r.IntN(1e6), uid: uuid(r)}).write(j)
	j.obj("spec")
	j.str("diskSize", "50Gi")
	j.str("runStrategy", "Always")
	j.end('}')
	j.obj("status")
	j.str("phase", "Running")
	j.end('}')
	l.done()
	return l.close()
}

func (p *plan) writeNodes(w io.Writer, r *rand.Rand) error {
	l := newList(w)
	for i, n := range p.Nodes {
		j := l.item()
		created := p.Start.Add(-60 * 24 * time.Hour)
		j.str("apiVersion", "v1")
		j.str("kind", "Node")
		(&meta{created: created, labels: []string{"kubernetes.io/hostname", n, "kubernetes.io/os", "linux"}, name: n, rv: 1000 + r.IntN(1e6), uid: uuid(r)}).write(j)
		j.obj("spec")
		j.str("podCIDR", fmt.Sprintf("10.244.%d.0/24", i+1))
		j.end('}')
		j.obj("status")
		j.arr("conditions")
		hb := p.End.Add(-time.Duration(r.IntN(40)) * time.Second)
		for _, c := range [][3]string{{"MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
			{"DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
			{"PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"}} {
			j.obj("")
			j.str("lastHeartbeatTime", rfc3339(hb))
			j.str("lastTransitionTime", rfc3339(created))
			j.str("message", c[2])
			j.str("reason", c[1])
			j.str("status", "False")
			j.str("type", c[0])
			j.end('}')
		}
		j.end(']')
		j.end('}')
		l.done()
	}
	return l.close()
}

func (p *plan) writeServices(w io.Writer, r *rand.Rand, budget int64) error {
	l := newList(w)
	svc := func(ns, name, portName string, port, target int, sel []string) {
		j := l.item()
		j.str("apiVersion", "v1")
		j.str("kind", "Service")
		(&meta{created: p.past(r), labels: sel, name: name, namespace: ns, rv: 100 + r.IntN(1e7), uid: uuid(r)}).write(j)
		ip := fmt.Sprintf("10.96.%d.%d", r.IntN(256), 1+r.IntN(254))
		j.obj("spec")
		j.str("clusterIP", ip)
		j.strs("clusterIPs", ip)
		j.str("internalTrafficPolicy", "Cluster")
		j.strs("ipFamilies", "IPv4")
		j.str("ipFamilyPolicy", "SingleStack")
		j.arr("ports")
		j.obj("")
		j.str("name", portName)
		j.num("port", port)
		j.str("protocol", "TCP")
		if target == 0 {
			j.str("targetPort", portName)
		} else {
			j.num("targetPort", target)
		}
		j.end('}')
		j.end(']')
		j.labels("selector", sel...)
		j.str("sessionAffinity", "None")
		j.str("type", "ClusterIP")
		j.end('}')
		j.obj("status")
		j.emptyObj("loadBalancer")
		j.end('}')
		l.done()
	}
	svc("default", "kubernetes", "https", 443, 6443, []string{"component", "apiserver", "provider", "kubernetes"})
	svc("kube-system", "kube-dns", "dns", 53, 53, []string{"k8s-app", "kube-dns"})
	svc("kube-system", "metrics-server", "https", 443, 0, []string{"k8s-app", "metrics-server"})
	svc("monitoring", "prometheus-adapter", "https", 443, 6443, []string{"app.kubernetes.io/name", "prometheus-adapter"})
	for l.written < budget {
		ns := pick(r, p.Namespaces)
		a := pick(r, apps)
		svc(ns, a+"-"+alnum(r, 4), "http", 80, 8080, []string{"app", a})
	}
	return l.close()
}

func (p *plan) writeEndpointSlices(w io.Writer, r *rand.Rand) error {
	l := newList(w)
	slice := func(ns, svc, portName string, port int, pod, ip string, ready bool) {
		j := l.item()
		j.str("addressType", "IPv4")
		j.str("apiVersion", "discovery.k8s.io/v1")
		j.arr("endpoints")
		j.obj("")
		j.strs("addresses", ip)
		j.obj("conditions")
		j.boolean("ready", ready)
		j.boolean("serving", ready)
		j.boolean("terminating", false)
		j.end('}')
		j.str("nodeName", pick(r, p.Nodes))
		j.obj("targetRef")
		j.str("kind", "Pod")
		j.str("name", pod)
		j.str("namespace", ns)
		j.str("uid", uuid(r))
		j.end('}')
		j.end('}')
		j.end(']')
		j.str("kind", "EndpointSlice")
		(&meta{created: p.past(r), generateName: svc + "-", generation: 3, labels: []string{"endpointslice.kubernetes.io/managed-by",
			"endpointslice-controller.k8s.io", "kubernetes.io/service-name", svc}, name: svc + "-" + alnum(r, 5), namespace: ns,
			rv: 100 + r.IntN(1e7), uid: uuid(r)}).write(j)
		j.arr("ports")
		j.obj("")
		j.str("name", portName)
		j.num("port", port)
		j.str("protocol", "TCP")
		j.end('}')
		j.end(']')
		l.done()
	}
	slice("kube-system", "metrics-server", "https", 10250, p.MetricsPod, p.MetricsIP, false)
	slice("monitoring", "prometheus-adapter", "https", 6443, "prometheus-adapter-7c5f8d9b4-"+alnum(r, 5), "10.244.2.31", true)
	slice("kube-system", "kube-dns", "dns", 53, "coredns-668d6bf9bc-"+alnum(r, 5), "10.244.1.2", true)
	return l.close()
}

var images = []string{"registry.example.com/%s/%s:v1.%d.%d", "ghcr.io/acme/%s-%s:2.%d.%d", "docker.io/acme/%s-%s:1.%d.%d"}

func image(r *rand.Rand, team, app string) string {
	return fmt.Sprintf(pick(r, images), team, app, r.IntN(30), r.IntN(10))
}

// container writes one container of a pod spec.
func container(j *jw, r *rand.Rand, name, img string, port int) {
	j.obj("")
	j.arr("env")
	for _, kv := range [][2]string{{"LOG_LEVEL", "info"}, {"PORT", fmt.Sprint(port)}, {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector.monitoring.svc:4317"}} {
		j.obj("")
		j.str("name", kv[0])
		j.str("value", kv[1])
		j.end('}')
	}
	j.end(']')
	j.str("image", img)
	j.str("imagePullPolicy", "IfNotPresent")
	j.str("name", name)
	j.arr("ports")
	j.obj("")
	j.num("containerPort", port)
	j.str("name", "http")
	j.str("protocol", "TCP")
	j.end('}')
	j.end(']')
	j.obj("readinessProbe")
	j.num("failureThreshold", 3)
	j.obj("httpGet")
	j.str("path", "/healthz")
	j.str("port", "http")
	j.str("scheme", "HTTP")
	j.end('}')
	j.num("periodSeconds", 10)
	j.num("successThreshold", 1)
	j.num("timeoutSeconds", 1)
	j.end('}')
	j.obj("resources")
	j.labels("limits", "cpu", fmt.Sprintf("%dm", 250*(1+r.IntN(4))), "memory", fmt.Sprintf("%dMi", 128*(1+r.IntN(8))))
	j.labels("requests", "cpu", fmt.Sprintf("%dm", 50*(1+r.IntN(4))), "memory", fmt.Sprintf("%dMi", 64*(1+r.IntN(8))))
	j.end('}')
	j.str("terminationMessagePath", "/dev/termination-log")
	j.str("terminationMessagePolicy", "File")
	j.end('}')
}

type podSpec struct {
	ns, name, app, team, img, node, ip, rs, rsUID string
	created                                       time.Time
	ready                                         bool
	waiting                                       string
	restarts                                      int
	port                                          int
	labels                                        []string
}

func (p *plan) pod(l *listWriter, r *rand.Rand, s podSpec) {
	j := l.item()
	tok := "kube-api-access-" + alnum(r, 5)
	j.str("apiVersion", "v1")
	j.str("kind", "Pod")
	(&meta{created: s.created, generateName: s.rs + "-", labels: s.labels, name: s.name, namespace: s.ns,
		owner: &owner{"apps/v1", "ReplicaSet", s.rs, s.rsUID}, rv: 1000 + r.IntN(1e8), uid: uuid(r)}).write(j)
	j.obj("spec")
	j.arr("containers")
	container(j, r, s.app, s.img, s.port)
	j.end(']')
	j.str("dnsPolicy", "ClusterFirst")
	j.boolean("enableServiceLinks", true)
	j.str("nodeName", s.node)
	j.str("preemptionPolicy", "PreemptLowerPriority")
	j.num("priority", 0)
	j.str("restartPolicy", "Always")
	j.str("schedulerName", "default-scheduler")
	j.emptyObj("securityContext")
	j.str("serviceAccount", "default")
	j.str("serviceAccountName", "default")
	j.num("terminationGracePeriodSeconds", 30)
	j.arr("tolerations")
	for _, k := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		j.obj("")
		j.str("effect", "NoExecute")
		j.str("key", k)
		j.str("operator", "Exists")
		j.num("tolerationSeconds", 300)
		j.end('}')
	}
	j.end(']')
	j.arr("volumes")
	j.obj("")
	j.str("name", tok)
	j.obj("projected")
	j.num("defaultMode", 420)
	j.arr("sources")
	j.obj("")
	j.obj("serviceAccountToken")
	j.num("expirationSeconds", 3607)
	j.str("path", "token")
	j.end('}')
	j.end('}')
	j.obj("")
	j.obj("configMap")
	j.arr("items")
	j.obj("")
	j.str("key", "ca.crt")
	j.str("path", "ca.crt")
	j.end('}')
	j.end(']')
	j.str("name", "kube-root-ca.crt")
	j.end('}')
	j.end('}')
	j.end(']')
	j.end('}')
	j.end('}')
	j.end(']')
	j.end('}')
	j.obj("status")
	j.arr("conditions")
	st := s.created.Add(time.Duration(2+r.IntN(20)) * time.Second)
	ready := "True"
	if !s.ready {
		ready = "False"
	}
	condition(j, true, st, "", "", "True", "PodReadyToStartContainers")
	condition(j, true, s.created, "", "", "True", "Initialized")
	if s.ready {
		condition(j, true, st, "", "", ready, "Ready")
		condition(j, true, st, "", "", ready, "ContainersReady")
	} else {
		condition(j, true, p.MetricsDown, "containers with unready status: ["+s.app+"]", "ContainersNotReady", ready, "Ready")
		condition(j, true, p.MetricsDown, "containers with unready status: ["+s.app+"]", "ContainersNotReady", ready, "ContainersReady")
	}
	condition(j, true, s.created, "", "", "True", "PodScheduled")
	j.end(']')
	j.arr("containerStatuses")
	j.obj("")
	j.str("containerID", "containerd://"+hexStr(r, 64))
	j.str("image", s.img)
	j.str("imageID", strings.Split(s.img, ":")[0]+"@sha256:"+hexStr(r, 64))
	j.obj("lastState")
	if s.waiting != "" {
		j.obj("terminated")
		j.str("containerID", "containerd://"+hexStr(r, 64))
		j.num("exitCode", 1)
		j.str("finishedAt", rfc3339(p.End.Add(-3*time.Minute)))
		j.str("reason", "Error")
		j.str("startedAt", rfc3339(p.End.Add(-4*time.Minute)))
		j.end('}')
	}
	j.end('}')
	j.str("name", s.app)
	j.boolean("ready", s.ready)
	j.num("restartCount", s.restarts)
	j.boolean("started", s.ready)
	j.obj("state")
	if s.waiting != "" {
		j.obj("waiting")
		j.str("message", "back-off 5m0s restarting failed container="+s.app+" pod="+s.name+"_"+s.ns+"("+uuid(r)+")")
		j.str("reason", s.waiting)
		j.end('}')
	} else {
		j.obj("running")
		j.str("startedAt", rfc3339(st))
		j.end('}')
	}
	j.end('}')
	j.end('}')
	j.end(']')
	j.str("hostIP", "10.0.0."+fmt.Sprint(10+r.IntN(12)))
	j.str("phase", "Running")
	j.str("podIP", s.ip)
	j.arr("podIPs")
	j.obj("")
	j.str("ip", s.ip)
	j.end('}')
	j.end(']')
	j.str("qosClass", "Burstable")
	j.str("startTime", rfc3339(s.created))
	j.end('}')
	l.done()
}

func (p *plan) randomIP(r *rand.Rand) string {
	return fmt.Sprintf("10.244.%d.%d", 1+r.IntN(60), 2+r.IntN(250))
}

func (p *plan) writePods(w io.Writer, r *rand.Rand, budget int64) error {
	l := newList(w)
	p.pod(l, r, podSpec{ns: "kube-system", name: p.MetricsPod, app: "metrics-server", team: "kube-system",
		img: "registry.k8s.io/metrics-server/metrics-server:v0.7.2", node: pick(r, p.Nodes), ip: p.MetricsIP,
		rs: "metrics-server-6d94bc8694", rsUID: uuid(r), created: p.Start.Add(-10 * 24 * time.Hour), waiting: "CrashLoopBackOff",
		restarts: 47, port: 10250, labels: []string{"k8s-app", "metrics-server", "pod-template-hash", "6d94bc8694"}})
	p.pod(l, r, podSpec{ns: "monitoring", name: "prometheus-adapter-7c5f8d9b4-" + alnum(r, 5), app: "prometheus-adapter", team: "monitoring",
		img: "registry.k8s.io/prometheus-adapter/prometheus-adapter:v0.12.0", node: pick(r, p.Nodes), ip: "10.244.2.31",
		rs: "prometheus-adapter-7c5f8d9b4", rsUID: uuid(r), created: p.Start.Add(-10 * 24 * time.Hour), ready: true, port: 6443,
		labels: []string{"app.kubernetes.io/name", "prometheus-adapter", "pod-template-hash", "7c5f8d9b4"}})
	for n := 2; p.cfg.Pods > 0 && n < p.cfg.Pods || p.cfg.Pods <= 0 && l.written < budget; n++ {
		ns := pick(r, p.Namespaces)
		team, _, _ := strings.Cut(ns, "-")
		a := pick(r, apps)
		hash := hexStr(r, 10)
		rs := a + "-" + hash
		p.pod(l, r, podSpec{ns: ns, name: rs + "-" + alnum(r, 5), app: a, team: team, img: image(r, team, a), node: pick(r, p.Nodes),
			ip: p.randomIP(r), rs: rs, rsUID: uuid(r), created: p.past(r), ready: r.IntN(50) != 0, restarts: r.IntN(3), port: 8080,
			labels: []string{"app", a, "pod-template-hash", hash}})
	}
	return l.close()
}

func (p *plan) deployment(l *listWriter, r *rand.Rand, ns, name, app, img string, replicas, ready int, sel []string) {
	j := l.item()
	j.str("apiVersion", "apps/v1")
	j.str("kind", "Deployment")
	(&meta{annotations: []string{"deployment.kubernetes.io/revision", fmt.Sprint(1 + r.IntN(9))}, created: p.past(r), generation: 1 + r.IntN(9),
		labels: sel, name: name, namespace: ns, rv: 1000 + r.IntN(1e8), uid: uuid(r)}).write(j)
	j.obj("spec")
	j.num("progressDeadlineSeconds", 600)
	j.num("replicas", replicas)
	j.num("revisionHistoryLimit", 10)
	j.obj("selector")
	j.labels("matchLabels", sel...)
	j.end('}')
	j.obj("template")
	j.obj("metadata")
	j.labels("labels", sel...)
	j.end('}')
	j.obj("spec")
	j.arr("containers")
	container(j, r, app, img, 8080)
	j.end(']')
	j.str("restartPolicy", "Always")
	j.end('}')
	j.end('}')
	j.end('}')
	j.obj("status")
	if ready > 0 {
		j.num("availableReplicas", ready)
	}
	j.num("observedGeneration", 1)
	if ready > 0 {
		j.num("readyReplicas", ready)
	}
	j.num("replicas", replicas)
	j.num("updatedReplicas", replicas)
	j.end('}')
	l.done()
}

func (p *plan) writeDeployments(w io.Writer, r *rand.Rand, budget int64) error {
	l := newList(w)
	p.deployment(l, r, "kube-system", "metrics-server", "metrics-server", "registry.k8s.io/metrics-server/metrics-server:v0.7.2", 1, 0, []string{"k8s-app", "metrics-server"})
	p.deployment(l, r, "monitoring", "prometheus-adapter", "prometheus-adapter", "registry.k8s.io/prometheus-adapter/prometheus-adapter:v0.12.0", 1, 1, []string{"app.kubernetes.io/name", "prometheus-adapter"})
	for l.written < budget {
		ns := pick(r, p.Namespaces)
		team, _, _ := strings.Cut(ns, "-")
		a := pick(r, apps)
		n := 1 + r.IntN(6)
		p.deployment(l, r, ns, a+"-"+alnum(r, 4), a, image(r, team, a), n, n, []string{"app", a})
	}
	return l.close()
}

var normalEvents = []struct{ reason, component, msg string }{
	{"Scheduled", "default-scheduler", "Successfully assigned %s/%s to %s"},
	{"Pulling", "kubelet", "Pulling image \"%s\""},
	{"Pulled", "kubelet", "Successfully pulled image \"%s\" in 1.873s (1.873s including waiting). Image size: 48213422 bytes."},
	{"Created", "kubelet", "Created container: %s"},
	{"Started", "kubelet", "Started container %s"},
	{"Killing", "kubelet", "Stopping container %s"},
}

func (p *plan) event(l *listWriter, r *rand.Rand, ns, pod, reason, component, typ, msg string, count int, first, last time.Time) {
	j := l.item()
	node := pick(r, p.Nodes)
	j.str("apiVersion", "v1")
	j.num("count", count)
	j.null("eventTime")
	j.str("firstTimestamp", rfc3339(first))
	j.obj("involvedObject")
	j.str("apiVersion", "v1")
	j.str("fieldPath", "spec.containers{"+strings.Split(pod, "-")[0]+"}")
	j.str("kind", "Pod")
	j.str("name", pod)
	j.str("namespace", ns)
	j.str("resourceVersion", fmt.Sprint(1000+r.IntN(1e8)))
	j.str("uid", uuid(r))
	j.end('}')
	j.str("kind", "Event")
	j.str("lastTimestamp", rfc3339(last))
	j.str("message", msg)
	(&meta{created: first, name: pod + "." + hexStr(r, 16), namespace: ns, rv: 1000 + r.IntN(1e8), uid: uuid(r)}).write(j)
	j.str("reason", reason)
	j.str("reportingComponent", component)
	j.str("reportingInstance", node)
	j.obj("source")
	j.str("component", component)
	j.str("host", node)
	j.end('}')
	j.str("type", typ)
	l.done()
}

func (p *plan) writeEvents(w io.Writer, r *rand.Rand, budget int64) error {
	l := newList(w)
	p.event(l, r, "kube-system", p.MetricsPod, "BackOff", "kubelet", "Warning",
		"Back-off restarting failed container metrics-server in pod "+p.MetricsPod+"_kube-system("+uuid(r)+")", 612, p.MetricsDown, p.End.Add(-40*time.Second))
	p.event(l, r, "kube-system", p.MetricsPod, "Unhealthy", "kubelet", "Warning",
		"Readiness probe failed: HTTP probe failed with statuscode: 500", 1840, p.MetricsDown, p.End.Add(-20*time.Second))
	warnings := 0
	for l.written < budget {
		ns := pick(r, p.Namespaces)
		team, _, _ := strings.Cut(ns, "-")
		a := pick(r, apps)
		pod := a + "-" + hexStr(r, 10) + "-" + alnum(r, 5)
		t := p.past(r)
		if warnings < 60 && r.IntN(500) == 0 {
			warnings++
			p.event(l, r, ns, pod, "FailedMount", "kubelet", "Warning", `MountVolume.SetUp failed for volume "config" : configmap "`+a+`-config" not found`, 3, t, t.Add(2*time.Minute))
			continue
		}
		e := pick(r, normalEvents)
		var msg string
		switch e.reason {
		case "Scheduled":
			msg = fmt.Sprintf(e.msg, ns, pod, pick(r, p.Nodes))
		case "Pulling", "Pulled":
			if strings.Contains(e.msg, "%s") {
				msg = fmt.Sprintf(e.msg, image(r, team, a))
			}
		default:
			msg = fmt.Sprintf(e.msg, a)
		}
		p.event(l, r, ns, pod, e.reason, e.component, "Normal", msg, 1, t, t)
	}
	return l.close()
}

func (p *plan) writeEndpoints(w io.Writer, r *rand.Rand, budget int64) error {
	l := newList(w)
	ep := func(ns, name string, n int, notReady bool, port int, portName string) {
		j := l.item()
		j.str("apiVersion", "v1")
		j.str("kind", "Endpoints")
		(&meta{annotations: []string{"endpoints.kubernetes.io/last-change-trigger-time", rfc3339(p.past(r))}, created: p.past(r),
			labels: []string{"app", strings.Split(name, "-")[0]}, name: name, namespace: ns, rv: 1000 + r.IntN(1e8), uid: uuid(r)}).write(j)
		j.arr("subsets")
		j.obj("")
		key := "addresses"
		if notReady {
			key = "notReadyAddresses"
		}
		j.arr(key)
		for i := 0; i < n; i++ {
			j.obj("")
			j.str("ip", p.randomIP(r))
			j.str("nodeName", pick(r, p.Nodes))
			j.obj("targetRef")
			j.str("kind", "Pod")
			j.str("name", name+"-"+hexStr(r, 10)+"-"+alnum(r, 5))
			j.str("namespace", ns)
			j.str("uid", uuid(r))
			j.end('}')
			j.end('}')
		}
		j.end(']')
		j.arr("ports")
		j.obj("")
		j.str("name", portName)
		j.num("port", port)
		j.str("protocol", "TCP")
		j.end('}')
		j.end(']')
		j.end('}')
		j.end(']')
		l.done()
	}
	ep("kube-system", "metrics-server", 1, true, 10250, "https")
	for l.written < budget {
		ep(pick(r, p.Namespaces), pick(r, apps)+"-"+alnum(r, 4), 2+r.IntN(20), false, 8080, "http")
	}
	return l.close()
}

func (p *plan) writeConfigMaps(w io.Writer, r *rand.Rand, budget int64) error {
	l := newList(w)
	for l.written < budget {
		ns := pick(r, p.Namespaces)
		a := pick(r, apps)
		j := l.item()
		j.str("apiVersion", "v1")
		j.obj("data")
		var sb strings.Builder
		fmt.Fprintf(&sb, "server:\n  port: 8080\n  name: %s\nlogging:\n  level: info\n", a)
		for k := 0; k < 10+r.IntN(60); k++ {
			fmt.Fprintf(&sb, "feature_%s_%d: %v\n", pick(r, words), k, r.IntN(2) == 0)
		}
		j.str("application.yaml", sb.String())
		j.str("LOG_FORMAT", "json")
		j.end('}')
		j.str("kind", "ConfigMap")
		(&meta{created: p.past(r), labels: []string{"app", a}, name: a + "-config-" + alnum(r, 6), namespace: ns, rv: 1000 + r.IntN(1e8), uid: uuid(r)}).write(j)
		l.done()
	}
	return l.close()
}

func (p *plan) writeReplicaSets(w io.Writer, r *rand.Rand, budget int64) error {
	l := newList(w)
	for l.written < budget {
		ns := pick(r, p.Namespaces)
		team, _, _ := strings.Cut(ns, "-")
		a := pick(r, apps)
		hash := hexStr(r, 10)
		n := r.IntN(5)
		j := l.item()
		j.str("apiVersion", "apps/v1")
		j.str("kind", "ReplicaSet")
		(&meta{annotations: []string{"deployment.kubernetes.io/desired-replicas", fmt.Sprint(n), "deployment.kubernetes.io/max-replicas", fmt.Sprint(n + 1),
			"deployment.kubernetes.io/revision", fmt.Sprint(1 + r.IntN(20))}, created: p.past(r), generation: 1 + r.IntN(4),
			labels: []string{"app", a, "pod-template-hash", hash}, name: a + "-" + hash, namespace: ns,
			owner: &owner{"apps/v1", "Deployment", a, uuid(r)}, rv: 1000 + r.IntN(1e8), uid: uuid(r)}).write(j)
		j.obj("spec")
		j.num("replicas", n)
		j.obj("selector")
		j.labels("matchLabels", "app", a, "pod-template-hash", hash)
		j.end('}')
		j.obj("template")
		j.obj("metadata")
		j.labels("labels", "app", a, "pod-template-hash", hash)
		j.end('}')
		j.obj("spec")
		j.arr("containers")
		container(j, r, a, image(r, team, a), 8080)
		j.end(']')
		j.str("restartPolicy", "Always")
		j.end('}')
		j.end('}')
		j.end('}')
		j.obj("status")
		j.num("observedGeneration", 1)
		j.num("replicas", n)
		j.end('}')
		l.done()
	}
	return l.close()
}
