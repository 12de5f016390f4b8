package index

import "k8s.io/apimachinery/pkg/util/version"

// MinorAtLeast reports whether a Kubernetes version as the bundle writes it
// ("v1.34.4", "1.29+", "v1.28.3-eks-4f4795d", "v1.27.6+f67aeb3") is 1.m or newer.
// It is false for what is no version, and for a major other than 1.
func MinorAtLeast(v string, m int) bool {
	pv, err := version.ParseGeneric(v)
	return err == nil && m >= 0 && pv.Major() == 1 && pv.AtLeast(version.MajorMinor(1, uint(m)))
}

// versionLess orders Kubernetes versions by their numbers (major, minor, patch); what is
// no version comes before any version.
func versionLess(a, b string) bool {
	pb, err := version.ParseGeneric(b)
	if err != nil {
		return false
	}
	pa, err := version.ParseGeneric(a)
	return err != nil || pa.LessThan(pb)
}
