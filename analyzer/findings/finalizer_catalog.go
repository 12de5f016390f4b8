package findings

import "strings"

// finalizerOwner describes the controller that removes a family of finalizers.
type finalizerOwner struct {
	// match reports whether a finalizer belongs to this owner.
	match func(f string) bool
	// Controller names who removes it, in words for the report.
	Controller string
	// Workloads are fragments of Deployment/StatefulSet/DaemonSet/Pod names or images
	// that identify the controller in a bundle.
	Workloads []string
	// BuiltIn is true for controllers that run inside kube-controller-manager or
	// kube-apiserver (no workload of their own to look for).
	BuiltIn bool
}

// FinalizerIs matches the finalizers named exactly.
func FinalizerIs(names ...string) func(string) bool {
	return func(f string) bool {
		for _, n := range names {
			if f == n {
				return true
			}
		}
		return false
	}
}

// FinalizerOfDomain matches finalizers whose domain (before the slash, or the whole name when it
// has none) is d or ends in "."+d.
func FinalizerOfDomain(ds ...string) func(string) bool {
	catalogDomains = append(catalogDomains, ds...)
	return func(f string) bool {
		dom := f
		if i := strings.IndexByte(f, '/'); i >= 0 {
			dom = f[:i]
		}
		for _, d := range ds {
			if dom == d || strings.HasSuffix(dom, "."+d) {
				return true
			}
		}
		return false
	}
}

// finalizerCatalog lists well-known finalizers and their controllers, most specific first.
var finalizerCatalog = []finalizerOwner{
	{match: FinalizerIs("kubernetes"), Controller: "the namespace controller in kube-controller-manager", BuiltIn: true},
	{match: FinalizerIs("kubernetes.io/pvc-protection"), Controller: "kube-controller-manager's pvc-protection controller, once no pod uses the PersistentVolumeClaim (a pod still mounting it blocks)", BuiltIn: true},
	{match: FinalizerIs("kubernetes.io/pv-protection"), Controller: "kube-controller-manager's pv-protection controller, once the PersistentVolume is no longer bound", BuiltIn: true},
	{match: FinalizerIs("foregroundDeletion"), Controller: "the garbage collector in kube-controller-manager, once every dependent with blockOwnerDeletion is gone", BuiltIn: true},
	{match: FinalizerIs("orphan"), Controller: "the garbage collector in kube-controller-manager, after it orphans the dependents", BuiltIn: true},
	{match: FinalizerIs("customresourcecleanup.apiextensions.k8s.io"), Controller: "kube-apiserver's CRD finalizer, once every custom resource of the CRD is deleted", BuiltIn: true},
	{match: FinalizerIs("batch.kubernetes.io/job-tracking"), Controller: "the Job controller in kube-controller-manager", BuiltIn: true},
	{match: FinalizerIs("kubernetes.io/legacy-token-invalidation"), Controller: "kube-controller-manager", BuiltIn: true},
	{match: FinalizerIs("service.kubernetes.io/load-balancer-cleanup"), Controller: "the cloud-controller-manager's service controller, after the cloud load balancer is deleted", Workloads: []string{"cloud-controller-manager"}},
	{match: FinalizerOfDomain("external-attacher"), Controller: "the CSI external-attacher sidecar of the volume's CSI driver", Workloads: []string{"csi", "attacher"}},
	{match: FinalizerOfDomain("snapshot.storage.kubernetes.io"), Controller: "the CSI snapshot-controller", Workloads: []string{"snapshot-controller"}},
	{match: FinalizerOfDomain("cert-manager.io"), Controller: "cert-manager", Workloads: []string{"cert-manager"}},
	{match: FinalizerOfDomain("operators.coreos.com", "operatorframework.io"), Controller: "OLM (olm-operator / catalog-operator)", Workloads: []string{"olm-operator", "catalog-operator"}},
	{match: FinalizerOfDomain("ceph.rook.io", "rook.io"), Controller: "the Rook operator (rook-ceph-operator)", Workloads: []string{"rook-ceph-operator", "rook"}},
	{match: FinalizerOfDomain("objectbucket.io"), Controller: "the Rook/NooBaa object bucket provisioner", Workloads: []string{"rook-ceph-operator", "noobaa"}},
	{match: FinalizerOfDomain("noobaa.io"), Controller: "the NooBaa operator", Workloads: []string{"noobaa-operator"}},
	{match: FinalizerOfDomain("kapp.k14s.io"), Controller: "kapp (the kapp CLI or kapp-controller)", Workloads: []string{"kapp-controller"}},
	{match: FinalizerOfDomain("cattle.io"), Controller: "Rancher (cattle-system/rancher) or its cluster agent", Workloads: []string{"rancher", "cattle-cluster-agent"}},
	{match: FinalizerOfDomain("kubevirt.io"), Controller: "KubeVirt (virt-operator / virt-controller)", Workloads: []string{"virt-operator", "virt-controller"}},
	{match: FinalizerOfDomain("argocd.argoproj.io", "argoproj.io"), Controller: "the Argo CD application controller", Workloads: []string{"argocd-application-controller", "argocd"}},
	{match: FinalizerOfDomain("crossplane.io"), Controller: "Crossplane or the Crossplane provider of the resource", Workloads: []string{"crossplane", "provider-"}},
	{match: FinalizerOfDomain("zalando.org"), Controller: "the kopf-based operator that manages the resource", Workloads: []string{"operator"}},
	{match: FinalizerOfDomain("keda.sh"), Controller: "the KEDA operator", Workloads: []string{"keda-operator"}},
	{match: FinalizerOfDomain("velero.io"), Controller: "Velero", Workloads: []string{"velero"}},
	{match: FinalizerOfDomain("longhorn.io"), Controller: "Longhorn (longhorn-manager)", Workloads: []string{"longhorn-manager"}},
	{match: FinalizerOfDomain("k8s.aws"), Controller: "the AWS Load Balancer Controller", Workloads: []string{"aws-load-balancer-controller"}},
	{match: FinalizerOfDomain("fluxcd.io", "toolkit.fluxcd.io"), Controller: "Flux (its kustomize/helm/source controllers)", Workloads: []string{"kustomize-controller", "helm-controller", "source-controller"}},
	{match: FinalizerOfDomain("istio.io"), Controller: "the Istio operator", Workloads: []string{"istio-operator", "istiod"}},
	{match: FinalizerOfDomain("cluster.x-k8s.io"), Controller: "Cluster API (capi-controller-manager and its providers)", Workloads: []string{"capi-controller-manager", "capi"}},
	{match: FinalizerOfDomain("knative.dev"), Controller: "the Knative controllers", Workloads: []string{"controller", "knative"}},
	{match: FinalizerOfDomain("strimzi.io"), Controller: "the Strimzi cluster operator", Workloads: []string{"strimzi-cluster-operator"}},
	{match: FinalizerOfDomain("tekton.dev"), Controller: "the Tekton controllers", Workloads: []string{"tekton-pipelines-controller", "tekton"}},
	{match: FinalizerOfDomain("openshift.io"), Controller: "an OpenShift controller (openshift-controller-manager or an operator)", Workloads: []string{"openshift-controller-manager", "operator"}},
	{match: FinalizerOfDomain("projectcalico.org", "tigera.io"), Controller: "Calico (the Tigera operator or calico-kube-controllers)", Workloads: []string{"tigera-operator", "calico-kube-controllers"}},
	{match: FinalizerOfDomain("monitoring.coreos.com"), Controller: "the Prometheus operator", Workloads: []string{"prometheus-operator"}},
	{match: FinalizerOfDomain("cilium.io"), Controller: "the Cilium operator", Workloads: []string{"cilium-operator"}},
	{match: FinalizerOfDomain("metallb.io"), Controller: "the MetalLB controller", Workloads: []string{"metallb-controller", "controller"}},
	{match: FinalizerOfDomain("gatekeeper.sh"), Controller: "OPA Gatekeeper (gatekeeper-controller-manager)", Workloads: []string{"gatekeeper-controller-manager"}},
	{match: FinalizerOfDomain("kyverno.io"), Controller: "Kyverno", Workloads: []string{"kyverno"}},
	{match: FinalizerOfDomain("elastic.co"), Controller: "the Elastic operator (ECK)", Workloads: []string{"elastic-operator"}},
	{match: FinalizerOfDomain("external-secrets.io"), Controller: "External Secrets Operator", Workloads: []string{"external-secrets"}},
	{match: FinalizerOfDomain("kubeflow.org"), Controller: "the Kubeflow controllers", Workloads: []string{"kubeflow", "training-operator"}},
	{match: FinalizerOfDomain("litmuschaos.io"), Controller: "the Litmus chaos operator", Workloads: []string{"chaos-operator"}},
}

// kubernetesDomains are Kubernetes' own finalizer and API group domains (and its SIG
// projects'): well known, though the catalog names no single owner for all of them.
var kubernetesDomains = []string{"kubernetes.io", "k8s.io", "x-k8s.io"}

// catalogDomains lists every domain the catalog matches, filled by domain().
var catalogDomains []string

// KnownFinalizerDomains returns the domains of well-known finalizers: Kubernetes' own
// and every domain of the catalog (--redact keeps them; one list for both).
func KnownFinalizerDomains() []string {
	return append(append([]string{}, kubernetesDomains...), catalogDomains...)
}

// LookupFinalizer returns the catalog entry of a finalizer, if any.
func LookupFinalizer(f string) (finalizerOwner, bool) {
	for _, o := range finalizerCatalog {
		if o.match(f) {
			return o, true
		}
	}
	return finalizerOwner{}, false
}
