package analyzer

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/bundle"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
	"github.com/nsanalyze/nsanalyze/parsers/objects"
)

// NameWarnings checks the names of a bundle's objects that a report may quote or put
// into a command (namespaces, object names, finalizers, the Services that APIServices
// and webhooks point at, webhook names) and returns one warning per name Kubernetes
// would have refused (HostileName): such a bundle was damaged or forged, and no
// command of the report uses the name. The analysis appends them to the report's
// warnings.
//
// Analyze takes them from the index, which validates every name once while it is built.
func NameWarnings(rec *bundle.Records) []diag.Warning {
	var out []diag.Warning
	invalidNames(rec, func(file string, line int, kind NameKind, name string) {
		out = append(out, diag.Warning{File: file, Line: line, Message: HostileName(kind, name)})
	})
	return out
}

// invalidNames calls found once for each name of the bundle's objects that Kubernetes
// would have refused.
func invalidNames(rec *bundle.Records, found func(file string, line int, kind NameKind, name string)) {
	seen := map[string]bool{}
	check := func(file string, line int, kind NameKind, name string) {
		if name == "" || ValidName(kind, name) {
			return
		}
		key := kind.String() + "\x00" + name
		if seen[key] {
			return
		}
		seen[key] = true
		found(file, line, kind, name)
	}
	rec.EachObjectHead(func(o *objects.Object) {
		f, l := o.Source.File, o.Source.Line
		switch o.Kind {
		case "Namespace":
			check(f, l, NamespaceName, o.Name)
		case "APIService":
			check(f, l, APIServiceName, o.Name)
		case "", "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding":
			// RBAC names are path segments ("system:controller:x"), never put into commands
			if o.Kind != "" && !validPathSegment(o.Name) {
				check(f, l, ObjectName, o.Name)
			}
		default:
			check(f, l, ObjectName, o.Name)
		}
		if o.Namespace != "" {
			check(f, l, NamespaceName, o.Namespace)
		}
		for _, fin := range o.Finalizers {
			check(f, l, FinalizerName, fin)
		}
		for _, fin := range o.SpecFinalizers {
			check(f, l, FinalizerName, fin)
		}
		if o.APIService != nil && o.APIService.Service != nil {
			check(f, l, NamespaceName, o.APIService.Service.Namespace)
			check(f, l, ObjectName, o.APIService.Service.Name)
		}
		for _, w := range o.Webhooks {
			check(f, l, ObjectName, w.Name)
			if w.Service != nil {
				check(f, l, NamespaceName, w.Service.Namespace)
				check(f, l, ObjectName, w.Service.Name)
			}
		}
		if o.CRD != nil && o.CRD.ConversionService != nil {
			check(f, l, NamespaceName, o.CRD.ConversionService.Namespace)
			check(f, l, ObjectName, o.CRD.ConversionService.Name)
		}
	})
}

// validPathSegment is apimachinery's path-segment rule for RBAC names, plus no control
// or invisible characters.
func validPathSegment(s string) bool {
	return s != "." && s != ".." && !strings.ContainsAny(s, "/%\n\r") && !NeedsEscape(s)
}
