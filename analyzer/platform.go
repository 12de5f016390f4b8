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

// ForClient writes a command for the platform's client (Kubectl): on OpenShift each
// kubectl that runs as a program (a word of its own outside quotes and comments: the
// command's first, after a pipe, `;`, `&&`, `||`, `(` or `$(`, or after xargs and
// watch) becomes oc, which takes every kubectl verb and flag; the rest is unchanged.
func ForClient(platform, cmd string) string {
	client := Kubectl(platform)
	if client == "kubectl" || !strings.Contains(cmd, "kubectl") {
		return cmd
	}
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(cmd) {
				b.WriteByte(c)
				i++
				c = cmd[i]
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || cmd[i-1] == ' ' || cmd[i-1] == '\t'):
			b.WriteString(cmd[i:]) // a comment: prose
			return b.String()
		case c == 'k' && strings.HasPrefix(cmd[i:], "kubectl") && programAt(cmd, i) &&
			(i+7 == len(cmd) || strings.IndexByte(" \t\n;|&)", cmd[i+7]) >= 0):
			b.WriteString(client)
			i += len("kubectl") - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// programAt tells whether the word at i of cmd is in a command's place: the first
// word, or the first after an operator, an opening parenthesis or a word that runs
// the next one (xargs and its flags, watch, sudo, time).
func programAt(cmd string, i int) bool {
	j := i
	for j > 0 && (cmd[j-1] == ' ' || cmd[j-1] == '\t') {
		j--
	}
	if j == 0 {
		return true
	}
	if strings.IndexByte("|;&(\n", cmd[j-1]) >= 0 {
		return true
	}
	if j != i {
		k := j
		for k > 0 && cmd[k-1] != ' ' && cmd[k-1] != '\t' {
			k--
		}
		switch w := cmd[k:j]; w {
		case "watch", "sudo", "time", "do", "then":
			return true
		}
	}
	// the command xargs runs: the first word after xargs and its flags
	seg := cmd[strings.LastIndexAny(cmd[:i], "|;&(")+1 : i]
	w := strings.Fields(seg)
	if len(w) == 0 || w[0] != "xargs" {
		return false
	}
	return len(xargsCommand(append(w[1:], "kubectl"))) == 1
}

// forClient writes every command of the report for the platform's client (ForClient).
func forClient(r *Report, platform string) {
	if Kubectl(platform) == "kubectl" {
		return
	}
	steps := func(s []RemediationStep) {
		for i := range s {
			s[i].Command = ForClient(platform, s[i].Command)
		}
	}
	gaps := func(g []Gap) {
		for i := range g {
			g[i].Collect = ForClient(platform, g[i].Collect)
		}
	}
	for i := range r.Problems {
		p := &r.Problems[i]
		steps(p.Remediation)
		for j := range p.Chain {
			if f := p.Chain[j].Fix; f != nil {
				f.Command = ForClient(platform, f.Command)
			}
		}
	}
	for i := range r.Namespaces {
		n := &r.Namespaces[i]
		steps(n.Remediation)
		for j := range n.Causes {
			for k := range n.Causes[j].Chain {
				if f := n.Causes[j].Chain[k].Fix; f != nil {
					f.Command = ForClient(platform, f.Command)
				}
			}
		}
	}
	for i := range r.Risks {
		steps(r.Risks[i].Fix)
	}
	for i := range r.Deleting {
		steps(r.Deleting[i].Watch)
	}
	gaps(r.Coverage)
	if n := r.NextStep; n != nil {
		gaps(n.Missing)
		n.Command = ForClient(platform, n.Command)
		for i := range n.Commands {
			n.Commands[i] = ForClient(platform, n.Commands[i])
		}
	}
}
