package findings

import (
	"strings"
)

// The platforms whose control plane is reached differently from a kubeadm cluster's.
// A command that reads the control plane's logs or collects a bundle fits the platform
// the bundle shows (index.Index.Platform), never a cluster the customer does not have.
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
	last := 0
	toks := shellTokens(cmd)
	for len(toks) > 0 {
		n := 0 // the simple command: toks[:n]
		for n < len(toks) && toks[n].text != opSep {
			n++
		}
		if p := programOf(toks[:n]); p >= 0 && toks[p].text == "kubectl" && !toks[p].quoted {
			b.WriteString(cmd[last:toks[p].start])
			b.WriteString(client)
			last = toks[p].end
		}
		toks = toks[min(n+1, len(toks)):]
	}
	b.WriteString(cmd[last:])
	return b.String()
}

// programOf returns the index of the word a simple command runs as its program, or -1:
// its first word after variable assignments, shell keywords (do, then, if, ...) and the
// wrappers that run the rest (watch, sudo, time, env); for xargs, the command xargs
// runs, after its flags.
func programOf(words []shellToken) int {
	i := 0
	for i < len(words) {
		w := words[i].text
		switch {
		case shellKeywords[w] || w == "watch" || w == "sudo" || w == "time" || w == "env":
			i++
			continue
		case !words[i].quoted && strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
			i++ // NAME=value before the program
			continue
		case w == "xargs":
			rest := make([]string, 0, len(words)-i-1)
			for _, t := range words[i+1:] {
				rest = append(rest, t.text)
			}
			cmd := xargsCommand(rest)
			if len(cmd) == 0 {
				return -1
			}
			return len(words) - len(cmd)
		}
		return i
	}
	return -1
}
