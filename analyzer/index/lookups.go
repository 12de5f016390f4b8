package index

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// resourceName returns the name kubectl accepts for an object's type: "plural.group"
// from its CRD when the bundle has it, else the lower-case kind (qualified with the group).
func (ix *Index) ResourceName(o *objects.Object) string {
	k := [2]string{o.APIVersion, o.Kind}
	if r, ok := ix.resourceNames[k]; ok {
		return r
	}
	if ix.resourceNames == nil {
		ix.resourceNames = map[[2]string]string{}
	}
	r := ix.resourceName(o)
	ix.resourceNames[k] = r
	return r
}

func (ix *Index) resourceName(o *objects.Object) string {
	g := o.Group()
	if crd := ix.CRDOf(g, o.Kind); crd != nil {
		return crd.CRD.Plural + "." + g
	}
	if g == "" {
		return strings.ToLower(o.Kind)
	}
	return strings.ToLower(o.Kind) + "." + g
}

// CRDOf returns the CRD that defines kind in group, or nil: one map look-up (the
// index by group and kind is built on first use), whatever the number of CRDs. When
// several CRDs claim the same group and kind (merged bundles), the one of the smallest
// name is used.
func (ix *Index) CRDOf(group, kind string) *objects.Object {
	if ix.crdByGroupKind == nil {
		ix.crdByGroupKind = make(map[string]*objects.Object, len(ix.CRDs))
		for _, crd := range ix.CRDs {
			if crd.CRD == nil {
				continue
			}
			k := crd.CRD.Group + "\x00" + crd.CRD.Kind
			if old := ix.crdByGroupKind[k]; old == nil || crd.Name < old.Name {
				ix.crdByGroupKind[k] = crd
			}
		}
	}
	return ix.crdByGroupKind[group+"\x00"+kind]
}

// HasFinalizedObjects reports whether the bundle holds an object of the namespace
// with finalizers (the Namespace itself aside).
func (ix *Index) HasFinalizedObjects(ns string) bool {
	for _, o := range ix.InNamespace(ns, "") {
		if len(o.Finalizers) > 0 {
			return true
		}
	}
	return false
}

// ServicesDumped reports whether the bundle holds a dump of the namespace's Services
// (possibly empty), so a Service absent from it does not exist.
func (ix *Index) ServicesDumped(ns string) bool { return ix.KindDumped(ns, "Service") }

// PodsDumped reports whether the bundle holds a dump of the namespace's Pods (possibly
// empty), so a pod absent from it does not exist.
func (ix *Index) PodsDumped(ns string) bool { return ix.KindDumped(ns, "Pod") }

// FindWebhook returns the webhook configuration holding the webhook of that name, and
// the webhook (nil, nil when the bundle holds none).
func (ix *Index) FindWebhook(name string) (*objects.Object, *objects.Webhook) {
	for _, kind := range []string{"ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"} {
		for _, cfg := range ix.ByKind[kind] {
			for i := range cfg.Webhooks {
				if cfg.Webhooks[i].Name == name {
					return cfg, &cfg.Webhooks[i]
				}
			}
		}
	}
	return nil, nil
}

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
			return findings.PlatformOpenShift
		}
	}
	openshift := false
	ix.eachNamespaceName(func(name string) bool {
		openshift = strings.HasPrefix(name, "openshift-")
		return !openshift
	})
	if openshift {
		return findings.PlatformOpenShift
	}
	for _, n := range ix.ByKind["Node"] {
		if p := platformOfNode(n); p != "" {
			return p
		}
	}
	// an OpenShift-only namespace's objects, when the Namespaces were not dumped
	for ns := range ix.ByNamespace {
		if strings.HasPrefix(ns, "openshift-") {
			return findings.PlatformOpenShift
		}
	}
	return findings.PlatformGeneric
}

// platformOfVersion reads a platform from a gitVersion's suffix.
func platformOfVersion(v string) string {
	switch {
	case strings.Contains(v, "+k3s"):
		return findings.PlatformK3s
	case strings.Contains(v, "+rke2"):
		return findings.PlatformRKE2
	case strings.Contains(v, "-eks-"):
		return findings.PlatformEKS
	case strings.Contains(v, "-gke."):
		return findings.PlatformGKE
	}
	return ""
}

// platformOfNode reads a platform from a Node's labels and name.
func platformOfNode(n *objects.Object) string {
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "kubernetes.azure.com/"):
			return findings.PlatformAKS
		case strings.HasPrefix(k, "eks.amazonaws.com/"):
			return findings.PlatformEKS
		case strings.HasPrefix(k, "cloud.google.com/gke-"):
			return findings.PlatformGKE
		case strings.HasPrefix(k, "node.openshift.io/"):
			return findings.PlatformOpenShift
		case k == "node.kubernetes.io/instance-type" && v == "k3s":
			return findings.PlatformK3s
		}
	}
	switch {
	case strings.HasPrefix(n.Name, "aks-") && strings.Contains(n.Name, "-vmss"):
		return findings.PlatformAKS
	case strings.HasPrefix(n.Name, "gke-"):
		return findings.PlatformGKE
	case strings.HasPrefix(n.Name, "talos-"):
		return findings.PlatformTalos
	}
	return ""
}

// findNode is the Node of that name ("" or absent: nil).
func (ix *Index) findNode(name string) *objects.Object {
	if name == "" {
		return nil
	}
	return ix.Find("Node", "", name)
}

// CheckCmd is Pass.checkCmd (package analyzer) with the bundle's invalid object names only.
func (ix *Index) CheckCmd(cmd string) string {
	if ix == nil || ix.guard == nil {
		return (&shellsafe.Guard{}).Check(cmd)
	}
	return ix.guard.Check(cmd)
}
