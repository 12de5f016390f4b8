package findings

import (
	"sort"
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// ClaimKind is a kind of claim a cause makes (claims.go). A rule declares the kinds its
// causes claim (Rule.Claims) and the kinds it defers to (Rule.Yields); the order the
// rules run in is derived from these declarations and Rule.Requires (Plan).
type ClaimKind string

// The kinds of claim.
const (
	// ClaimsObjects: objects by name (Cause.Objects, Cause.ClaimObject).
	ClaimsObjects ClaimKind = "objects"
	// ClaimsFinalizers: finalizer names (those of the claimed objects, Cause.ClaimFinalizer).
	ClaimsFinalizers ClaimKind = "finalizers"
	// ClaimsResources: group-resources the NamespaceContentRemaining condition counts (Cause.ClaimResource).
	ClaimsResources ClaimKind = "resources"
	// ClaimsGroups: every resource of an API group (Cause.ClaimGroup).
	ClaimsGroups ClaimKind = "groups"
	// ClaimsContent: all remaining content (Cause.ClaimContent).
	ClaimsContent ClaimKind = "content"
)

// AllClaimKinds are the kinds of claim, in a fixed order (for messages).
var AllClaimKinds = []ClaimKind{ClaimsObjects, ClaimsFinalizers, ClaimsResources, ClaimsGroups, ClaimsContent}

// ClaimKinds returns the kinds of claim a cause makes.
func (c *Cause) ClaimKinds() []ClaimKind {
	var out []ClaimKind
	fin := false
	for _, o := range c.Objects {
		fin = fin || len(o.Finalizers) > 0
	}
	s := c.Claimed
	if s == nil {
		s = &ClaimSet{}
	}
	for _, k := range AllClaimKinds {
		var has bool
		switch k {
		case ClaimsObjects:
			has = len(c.Objects) > 0 || len(s.Objects) > 0
		case ClaimsFinalizers:
			has = fin || len(s.Finalizers) > 0
		case ClaimsResources:
			has = len(s.Resources) > 0
		case ClaimsGroups:
			has = len(s.Groups) > 0
		case ClaimsContent:
			has = s.Content
		}
		if has {
			out = append(out, k)
		}
	}
	return out
}

// ClaimSet is what one cause claims beyond its Objects and Related lines.
type ClaimSet struct {
	Objects    []ClaimID // object keys (claimKey)
	Resources  []string  // group-resources: "pods", "widgets.example.com"
	Groups     []string  // API groups: every resource of the group
	Finalizers []string
	Content    bool
}

func (c *Cause) claimed() *ClaimSet {
	if c.Claimed == nil {
		c.Claimed = &ClaimSet{}
	}
	return c.Claimed
}

// ClaimObject claims an object the cause explains without listing it in Objects (an
// object named only in its chain), with the finalizers it carries.
func (c *Cause) ClaimObject(o *objects.Object) {
	s := c.claimed()
	s.Objects = append(s.Objects, ClaimKey(o.APIVersion, o.Kind, o.Namespace, o.Name))
	s.Finalizers = append(s.Finalizers, o.Finalizers...)
}

// ClaimResource claims the objects of a group-resource ("pods", "widgets.example.com")
// that the namespace's NamespaceContentRemaining condition counts.
func (c *Cause) ClaimResource(groupResource string) {
	c.claimed().Resources = append(c.claimed().Resources, groupResource)
}

// ClaimGroup claims the objects of every resource of an API group (those served by a
// failing aggregated API, say).
func (c *Cause) ClaimGroup(group string) {
	if group == "" {
		return // the core group: its resources are claimed one by one
	}
	c.claimed().Groups = append(c.claimed().Groups, group)
}

// ClaimFinalizer claims a finalizer the namespace's NamespaceFinalizersRemaining
// condition names (the objects carrying it may not be in the bundle).
func (c *Cause) ClaimFinalizer(f string) {
	c.claimed().Finalizers = append(c.claimed().Finalizers, f)
}

// ClaimContent claims all the namespace's remaining content without finalizers of
// its own: while the cause lasts nothing is deleted (the controller is not running,
// an admission webhook refuses the deletes, pods-first deletion holds the rest back).
// Objects that carry finalizers and are already being deleted are not claimed: they
// are blockers in their own right.
func (c *Cause) ClaimContent() { c.claimed().Content = true }

// Claims lists what the cause claims, as sorted keys (for tests and debugging):
// "object:KIND/NAMESPACE/NAME" (with "GROUP/" before KIND for API groups),
// "resource:GR", "group:G", "finalizer:F", "content".
func (c *Cause) Claims() []string {
	var out []string
	for _, o := range c.Objects {
		out = append(out, "object:"+ClaimKey(o.APIVersion, o.Kind, o.Namespace, o.Name).String())
		for _, f := range o.Finalizers {
			out = append(out, "finalizer:"+f)
		}
	}
	if s := c.Claimed; s != nil {
		for _, k := range s.Objects {
			out = append(out, "object:"+k.String())
		}
		for _, r := range s.Resources {
			out = append(out, "resource:"+r)
		}
		for _, g := range s.Groups {
			out = append(out, "group:"+g)
		}
		for _, f := range s.Finalizers {
			out = append(out, "finalizer:"+f)
		}
		if s.Content {
			out = append(out, "content")
		}
	}
	sort.Strings(out)
	return compactStrings(out)
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// ClaimKey identifies an object across the records and ObjectRefs: group, kind,
// namespace and name (the version does not make another object).
func ClaimKey(apiVersion, kind, ns, name string) ClaimID {
	g := ""
	if i := strings.IndexByte(apiVersion, '/'); i >= 0 {
		g = apiVersion[:i]
	}
	return ClaimID{g, kind, ns, name}
}

// ClaimID is an object's claim key as fields: no string is built per object (issue 22).
type ClaimID struct{ group, kind, ns, name string }

// String: "GROUP/KIND/NAMESPACE/NAME", without "GROUP/" for the core group.
func (k ClaimID) String() string {
	if k.group != "" {
		return k.group + "/" + k.kind + "/" + k.ns + "/" + k.name
	}
	return k.kind + "/" + k.ns + "/" + k.name
}
