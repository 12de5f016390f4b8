package findings

import (
	"strings"
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

// Managed reports whether the platform's control plane is run by the provider (its
// kube-controller-manager and kube-apiserver are no pods the customer can read).
func Managed(platform string) bool {
	return platform == PlatformAKS || platform == PlatformEKS || platform == PlatformGKE
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
