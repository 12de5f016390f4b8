package mechanism

import (
	"strconv"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// ControllerManagerLogs is the command that prints the kube-controller-manager's log
// on the bundle's platform (its last tail lines where the command can say so).
// pipe, when not empty, is a filter the log goes through (a quoted grep).
func ControllerManagerLogs(ix *index.Index, tail int, pipe string) string {
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
		cmd += "   " + shellsafe.Comment(note)
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
	case findings.PlatformAKS:
		return shellsafe.Cmd("az", "monitor", "log-analytics", "query", "-w", "WORKSPACE_ID", "--analytics-query",
			"AzureDiagnostics | where Category == '"+component+"' | project TimeGenerated, log_s | order by TimeGenerated asc"), ("AKS runs " + component + ": its log reaches the workspace once the cluster's diagnostic setting sends category " + component)
	case findings.PlatformEKS:
		return shellsafe.Cmd("aws", "logs", "filter-log-events", "--log-group-name", "/aws/eks/CLUSTER_NAME/cluster", "--log-stream-name-prefix", component), ("EKS runs " + component + ": its log reaches CloudWatch once control plane logging (" + eksLogType(component) + ") is enabled")
	case findings.PlatformGKE:
		return shellsafe.Cmd("gcloud", "logging", "read", `resource.type="k8s_control_plane_component" AND resource.labels.component_name="`+component+`"`, "--freshness=2d", "--order=asc"), ("GKE runs " + component + ": Cloud Logging keeps its log")
	case findings.PlatformOpenShift:
		ns := "openshift-kube-controller-manager"
		if component == "kube-apiserver" {
			ns = "openshift-kube-apiserver"
		}
		return shellsafe.Cmd("oc", "-n", ns, "logs", "-l", "app="+openshiftApp(component), "-c", component, t), ""
	case findings.PlatformK3s:
		return shellsafe.Cmd("journalctl", "-u", "k3s", "--no-pager", "-n", n), ("on each k3s server node: k3s runs " + component + " inside its own process")
	case findings.PlatformRKE2:
		return shellsafe.Cmd("kubectl", "-n", "kube-system", "logs", "-l", "component="+component, t), ("or on a server node: /var/log/pods/kube-system_" + component + "-*, journalctl -u rke2-server")
	case findings.PlatformTalos:
		return shellsafe.Cmd("talosctl", "-n", "CONTROL_PLANE_NODE", "logs", component), ""
	}
	return shellsafe.Cmd("kubectl", "-n", "kube-system", "logs", "-l", "component="+component, t), ("or the node's /var/log/pods/kube-system_" + component + "-*")
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
