package analyzer

import (
	"strconv"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// The platforms whose control plane is reached differently from a kubeadm cluster's.
// A command that reads the control plane's logs or collects a bundle fits the platform
// the bundle shows (Index.Platform), never a cluster the customer does not have.
const (
	PlatformGeneric   = ""          // kubeadm or not known: static pods in kube-system
	PlatformAKS       = "aks"       // Azure Kubernetes Service: managed control plane
	PlatformEKS       = "eks"       // Amazon EKS: managed control plane
	PlatformGKE       = "gke"       // Google Kubernetes Engine: managed control plane
	PlatformOpenShift = "openshift" // OpenShift, ARO, ROSA: operators in openshift-* namespaces, oc
	PlatformK3s       = "k3s"       // k3s: one process, logs in the node's journal
	PlatformRKE2      = "rke2"      // RKE2: static pods, the rke2-server unit's journal
	PlatformTalos     = "talos"     // Talos Linux: no shell, talosctl
)

// PlatformNames are the platforms' names for prose.
var PlatformNames = map[string]string{PlatformAKS: "AKS", PlatformEKS: "EKS", PlatformGKE: "GKE", PlatformOpenShift: "OpenShift",
	PlatformK3s: "k3s", PlatformRKE2: "RKE2", PlatformTalos: "Talos"}

// Platform says which platform the bundle shows, from its version strings (+k3s,
// +rke2, -eks-, -gke.), its layout (must-gather and insights are OpenShift's), its
// namespaces (openshift-*) and its nodes' names and labels (aks-*-vmss, eks.amazonaws.com,
// cloud.google.com/gke-nodepool, node.openshift.io, Talos' os image).
func (ix *Index) Platform() string {
	if ix.platformDone {
		return ix.platform
	}
	ix.platformDone = true
	ix.platform = ix.detectPlatform()
	return ix.platform
}

// PlatformSource says what the platform was read from (for the report).
func (ix *Index) detectPlatform() string {
	versions := []string{ix.KubernetesVersion}
	for _, n := range ix.ByKind["Node"] {
		versions = append(versions, n.KubeletVersion)
	}
	for _, v := range versions {
		if p := platformOfVersion(v); p != "" {
			return p
		}
	}
	for _, l := range ix.Records.Layouts {
		if l == bundle.LayoutMustGather || strings.HasPrefix(l, "insights") {
			return PlatformOpenShift
		}
	}
	openshift := false
	ix.eachNamespaceName(func(name string) bool {
		openshift = strings.HasPrefix(name, "openshift-")
		return !openshift
	})
	if openshift {
		return PlatformOpenShift
	}
	for _, n := range ix.ByKind["Node"] {
		if p := platformOfNode(n); p != "" {
			return p
		}
	}
	// an OpenShift-only namespace's objects, when the Namespaces were not dumped
	for ns := range ix.ByNamespace {
		if strings.HasPrefix(ns, "openshift-") {
			return PlatformOpenShift
		}
	}
	return PlatformGeneric
}

// platformOfVersion reads a platform from a gitVersion's suffix.
func platformOfVersion(v string) string {
	switch {
	case strings.Contains(v, "+k3s"):
		return PlatformK3s
	case strings.Contains(v, "+rke2"):
		return PlatformRKE2
	case strings.Contains(v, "-eks-"):
		return PlatformEKS
	case strings.Contains(v, "-gke."):
		return PlatformGKE
	}
	return ""
}

// platformOfNode reads a platform from a Node's labels and name.
func platformOfNode(n *objects.Object) string {
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "kubernetes.azure.com/"):
			return PlatformAKS
		case strings.HasPrefix(k, "eks.amazonaws.com/"):
			return PlatformEKS
		case strings.HasPrefix(k, "cloud.google.com/gke-"):
			return PlatformGKE
		case strings.HasPrefix(k, "node.openshift.io/"):
			return PlatformOpenShift
		case k == "node.kubernetes.io/instance-type" && v == "k3s":
			return PlatformK3s
		}
	}
	switch {
	case strings.HasPrefix(n.Name, "aks-") && strings.Contains(n.Name, "-vmss"):
		return PlatformAKS
	case strings.HasPrefix(n.Name, "gke-"):
		return PlatformGKE
	case strings.HasPrefix(n.Name, "talos-"):
		return PlatformTalos
	}
	return ""
}

// Managed reports whether the platform's control plane is run by the provider (its
// kube-controller-manager and kube-apiserver are no pods the customer can read).
func Managed(platform string) bool {
	return platform == PlatformAKS || platform == PlatformEKS || platform == PlatformGKE
}

// ControllerManagerLogs is the command that prints the kube-controller-manager's log
// on the bundle's platform (its last tail lines where the command can say so).
// pipe, when not empty, is a filter the log goes through (a quoted grep).
func (ix *Index) ControllerManagerLogs(tail int, pipe string) string {
	return ComponentLogs(ix.Platform(), "kube-controller-manager", tail, pipe)
}

// ComponentLogs is the one-line command that prints a control-plane component's log
// ("kube-controller-manager" or "kube-apiserver") on a platform: the managed providers'
// log facility (AKS diagnostic settings to Log Analytics, EKS control plane logging to
// CloudWatch, GKE Cloud Logging), OpenShift's operator namespaces with oc, the k3s
// journal, RKE2's static pods, talosctl; kube-system's static pods elsewhere.
func ComponentLogs(platform, component string, tail int, pipe string) string {
	cmd, note := componentLogs(platform, component, tail)
	if pipe != "" {
		cmd += " | " + pipe
	}
	if note != "" {
		cmd += "   " + Comment(note)
	}
	return cmd
}

func componentLogs(platform, component string, tail int) (cmd, note string) {
	t := "--tail=-1"
	n := "100000"
	if tail > 0 {
		t = "--tail=" + strconv.Itoa(tail)
		n = strconv.Itoa(tail)
	}
	switch platform {
	case PlatformAKS:
		return Cmd("az", "monitor", "log-analytics", "query", "-w", "WORKSPACE_ID", "--analytics-query",
			"AzureDiagnostics | where Category == '"+component+"' | project TimeGenerated, log_s | order by TimeGenerated asc"), ("AKS runs " + component + ": its log reaches the workspace once the cluster's diagnostic setting sends category " + component)
	case PlatformEKS:
		return Cmd("aws", "logs", "filter-log-events", "--log-group-name", "/aws/eks/CLUSTER_NAME/cluster", "--log-stream-name-prefix", component), ("EKS runs " + component + ": its log reaches CloudWatch once control plane logging (" + eksLogType(component) + ") is enabled")
	case PlatformGKE:
		return Cmd("gcloud", "logging", "read", `resource.type="k8s_control_plane_component" AND resource.labels.component_name="`+component+`"`, "--freshness=2d", "--order=asc"), ("GKE runs " + component + ": Cloud Logging keeps its log")
	case PlatformOpenShift:
		ns := "openshift-kube-controller-manager"
		if component == "kube-apiserver" {
			ns = "openshift-kube-apiserver"
		}
		return Cmd("oc", "-n", ns, "logs", "-l", "app="+openshiftApp(component), "-c", component, t), ""
	case PlatformK3s:
		return Cmd("journalctl", "-u", "k3s", "--no-pager", "-n", n), ("on each k3s server node: k3s runs " + component + " inside its own process")
	case PlatformRKE2:
		return Cmd("kubectl", "-n", "kube-system", "logs", "-l", "component="+component, t), ("or on a server node: /var/log/pods/kube-system_" + component + "-*, journalctl -u rke2-server")
	case PlatformTalos:
		return Cmd("talosctl", "-n", "CONTROL_PLANE_NODE", "logs", component), ""
	}
	return Cmd("kubectl", "-n", "kube-system", "logs", "-l", "component="+component, t), ("or the node's /var/log/pods/kube-system_" + component + "-*")
}

func eksLogType(component string) string {
	if component == "kube-apiserver" {
		return "api"
	}
	return "controllerManager"
}

func openshiftApp(component string) string {
	if component == "kube-apiserver" {
		return "openshift-kube-apiserver"
	}
	return "kube-controller-manager"
}

// Kubectl is the platform's client: oc on OpenShift, else kubectl.
func Kubectl(platform string) string {
	if platform == PlatformOpenShift {
		return "oc"
	}
	return "kubectl"
}
