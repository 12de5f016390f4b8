// From a decoded wire struct to an Object: the fields of every kind the analysis
// reads, and where in the raw JSON the cited fields are.

package objects

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
)

// objectFromWire builds the Object of an item from its decoded wire struct (filled by
// encoding/json or by the fast decoder: the same wire gives the same Object and the
// same warnings). It returns nil for what is not a Kubernetes object.
func objectFromWire(it item, w *wire, path string, yamlLine int, opts Options, warn warner) *Object {
	if w.Kind == "" {
		switch {
		case strings.HasSuffix(it.listKind, "List") && it.listKind != "List":
			w.Kind = strings.TrimSuffix(it.listKind, "List")
		case opts.KindHint != "":
			w.Kind = opts.KindHint
		}
	}
	if w.APIVersion == "" && it.listAPIVer != "" && it.listKind != "List" {
		w.APIVersion = it.listAPIVer
	}
	if w.Kind == "" && w.Metadata.Name == "" {
		if w.ServerVersion != nil && w.ServerVersion.GitVersion != "" {
			return &Object{Kind: KindVersionInfo, Name: "server", ServerVersion: w.ServerVersion.GitVersion, Source: Source{File: path, Line: it.line}}
		}
		return nil // not a Kubernetes object
	}
	o := &Object{
		APIVersion:        w.APIVersion,
		Kind:              w.Kind,
		Name:              w.Metadata.Name,
		Namespace:         w.Metadata.Namespace,
		UID:               w.Metadata.UID,
		CreationTimestamp: parseTime(w.Metadata.CreationTimestamp),
		DeletionTimestamp: parseTime(w.Metadata.DeletionTimestamp),
		Finalizers:        w.Metadata.Finalizers,
		Labels:            w.Metadata.Labels,
		OwnerReferences:   w.Metadata.OwnerReferences,
		Managers:          managers(w.Metadata.ManagedFields),
		Phase:             w.Status.Phase,
		SpecFinalizers:    w.Spec.Finalizers,
		Source:            Source{File: path, Line: it.line},
	}
	if w.Status.NodeInfo != nil && o.Kind == "Node" {
		o.KubeletVersion = w.Status.NodeInfo.KubeletVersion
	}
	if w.Metadata.DeletionTimestamp != "" && timeStatus(w.Metadata.DeletionTimestamp) == timeInvalid {
		warn.Add(path, it.line, "%s: metadata.deletionTimestamp %q is not an RFC3339 time", o.Ref(), capString(w.Metadata.DeletionTimestamp))
	}
	if len(w.Status.Conditions) > 0 {
		o.Conditions = make([]Condition, 0, len(w.Status.Conditions))
	}
	for _, c := range w.Status.Conditions {
		o.Conditions = append(o.Conditions, Condition{
			Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
			LastTransitionTime: parseTime(c.LastTransitionTime),
		})
	}
	fillKind(o, w)
	checkTimes(o, w, path, it.line, warn)
	if len(it.raw) > MaxStringBytes {
		capStrings(o, path, it.line, warn)
	}
	if yamlLine == 0 && (citedConditions[o.Kind] || !o.DeletionTimestamp.IsZero() || len(o.Finalizers) > 0) {
		locateFields(o, it.raw, it.line)
	}
	return o
}

// managers lists the distinct field managers of an object (managedFields[].manager).
// managerCompares counts the comparisons managers makes (TestManagersLinear: work is
// counted, not timed).
var managerCompares atomic.Int64

func managers(mf []wireManagedField) []string {
	var out []string
	var seen map[string]bool // past a few managers: linear, not quadratic
	for _, m := range mf {
		if m.Manager == "" {
			continue
		}
		if seen == nil && len(out) >= 16 {
			seen = make(map[string]bool, len(out))
			for _, x := range out {
				seen[x] = true
			}
		}
		if seen != nil {
			managerCompares.Add(1)
			if !seen[m.Manager] {
				seen[m.Manager] = true
				out = append(out, m.Manager)
			}
		} else {
			managerCompares.Add(int64(len(out)))
			if !slices.Contains(out, m.Manager) {
				out = append(out, m.Manager)
			}
		}
	}
	return out
}

func fillKind(o *Object, w *wire) {
	switch o.Kind {
	case "APIService":
		o.APIService = &APIServiceInfo{Group: w.Spec.Group, Version: w.Spec.Version, Service: w.Spec.Service}
	case "Service":
		s := &ServiceInfo{Type: w.Spec.Type, ClusterIP: w.Spec.ClusterIP, ExternalName: w.Spec.ExternalName}
		_ = json.Unmarshal(w.Spec.Selector, &s.Selector)
		for _, p := range w.Spec.Ports {
			s.Ports = append(s.Ports, ServicePort{Name: p.Name, Port: p.Port, TargetPort: strings.Trim(string(p.TargetPort), `"`)})
		}
		o.Service = s
	case "Endpoints":
		e := &EndpointsInfo{ServiceName: o.Name}
		for _, ss := range w.Subsets {
			e.Ready += len(ss.Addresses)
			e.NotReady += len(ss.NotReadyAddresses)
			for _, p := range ss.Ports {
				e.PortNames = append(e.PortNames, p.Name)
			}
			for _, a := range append(ss.Addresses, ss.NotReadyAddresses...) {
				if a.TargetRef != nil && a.TargetRef.Kind == "Pod" {
					e.TargetPods = append(e.TargetPods, a.TargetRef.Name)
				}
			}
		}
		o.Endpoints = e
	case "EndpointSlice":
		e := &EndpointsInfo{ServiceName: o.Labels["kubernetes.io/service-name"]}
		for _, ep := range w.Endpoints {
			if ep.Conditions.Ready == nil || *ep.Conditions.Ready {
				e.Ready += len(ep.Addresses)
			} else {
				e.NotReady += len(ep.Addresses)
			}
			if ep.TargetRef != nil && ep.TargetRef.Kind == "Pod" {
				e.TargetPods = append(e.TargetPods, ep.TargetRef.Name)
			}
		}
		for _, p := range w.Ports {
			if p.Name != nil {
				e.PortNames = append(e.PortNames, *p.Name)
			}
		}
		o.Endpoints = e
	case "Pod":
		p := &PodInfo{NodeName: w.Spec.NodeName, PodIP: w.Status.PodIP}
		if len(w.Spec.Containers) > 0 {
			p.Images = make([]string, 0, len(w.Spec.Containers))
		}
		for _, c := range w.Spec.Containers {
			p.Images = append(p.Images, c.Image)
		}
		for _, v := range w.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName != "" {
				p.Claims = append(p.Claims, v.PersistentVolumeClaim.ClaimName)
			}
		}
		if c := o.Condition("Ready"); c != nil && c.Status == "True" {
			p.Ready = true
		}
		for _, cs := range w.Status.ContainerStatuses {
			p.Restarts += cs.RestartCount
			if cs.State.Waiting != nil && cs.State.Waiting.Reason != "" {
				p.Waiting = append(p.Waiting, cs.State.Waiting.Reason)
			}
			if cs.LastState.Terminated != nil && cs.LastState.Terminated.Reason != "" {
				p.Terminated = append(p.Terminated, cs.LastState.Terminated.Reason)
			}
		}
		o.Pod = p
	case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet":
		wl := &WorkloadInfo{Replicas: w.Spec.Replicas, ReadyReplicas: w.Status.ReadyReplicas}
		for _, c := range w.Spec.Template.Spec.Containers {
			wl.Images = append(wl.Images, c.Image)
		}
		var sel struct {
			MatchLabels map[string]string `json:"matchLabels"`
		}
		_ = json.Unmarshal(w.Spec.Selector, &sel)
		wl.Selector = sel.MatchLabels
		o.Workload = wl
	case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration":
		for _, wh := range w.Webhooks {
			h := Webhook{Name: wh.Name, FailurePolicy: wh.FailurePolicy, Service: wh.ClientConfig.Service,
				URL: wh.ClientConfig.URL, Rules: wh.Rules, TimeoutSeconds: wh.TimeoutSeconds}
			if h.FailurePolicy == "" {
				h.FailurePolicy = "Fail" // the admissionregistration.k8s.io/v1 default
			}
			if len(wh.NamespaceSelector) > 0 && string(wh.NamespaceSelector) != "{}" && string(wh.NamespaceSelector) != "null" {
				h.NamespaceSelector = string(wh.NamespaceSelector)
			}
			o.Webhooks = append(o.Webhooks, h)
		}
	case "CustomResourceDefinition":
		c := &CRDInfo{Group: w.Spec.Group, Plural: w.Spec.Names.Plural, Kind: w.Spec.Names.Kind, Scope: w.Spec.Scope}
		for _, v := range w.Spec.Versions {
			c.Versions = append(c.Versions, v.Name)
			if v.Storage {
				c.StorageVersion = v.Name
			}
		}
		if w.Spec.Version != "" && len(c.Versions) == 0 {
			c.Versions = []string{w.Spec.Version}
		}
		if cv := w.Spec.Conversion; cv != nil {
			c.ConversionStrategy = cv.Strategy
			if cv.Webhook != nil {
				c.ConversionService = cv.Webhook.ClientConfig.Service
			} else if cv.WebhookClientConfig != nil {
				c.ConversionService = cv.WebhookClientConfig.Service
			}
		}
		o.CRD = c
	case "Event":
		e := &EventInfo{Reason: w.Reason, Type: w.Type, Message: w.Message, Count: w.Count,
			First: parseTime(w.FirstTimestamp), Last: parseTime(w.LastTimestamp), Component: w.EventSource.Component}
		if w.InvolvedObject != nil {
			e.Involved = *w.InvolvedObject
		}
		if w.Regarding != nil {
			e.Involved = *w.Regarding
		}
		if e.Message == "" {
			e.Message = w.Note
		}
		if e.Last.IsZero() {
			e.Last = parseTime(w.DeprecatedLastTimestamp)
		}
		if e.Last.IsZero() {
			e.Last = parseTime(w.EventTime)
		}
		if e.First.IsZero() {
			e.First = e.Last
		}
		if e.Count == 0 {
			e.Count = w.DeprecatedCount
		}
		if e.Component == "" {
			e.Component = w.ReportingController
		}
		o.Event = e
	case "Lease":
		l := &LeaseInfo{RenewTime: parseTime(w.Spec.RenewTime), AcquireTime: parseTime(w.Spec.AcquireTime),
			DurationSecs: w.Spec.LeaseDurationSeconds, Transitions: w.Spec.LeaseTransitions}
		if w.Spec.HolderIdentity != nil {
			l.Holder = *w.Spec.HolderIdentity
		}
		o.Lease = l
	}
}

// citedConditions are the kinds whose status.phase and status.conditions evidence
// quotes line by line (a stuck namespace's conditions, an APIService's Available, a
// node's Ready); for the others (tens of thousands of Pods) their lines are not looked
// up and evidence names the object's line.
var citedConditions = map[string]bool{"Namespace": true, "APIService": true, "Node": true}

// locateFields records the lines of the fields evidence quotes, by finding them in the
// object's text.
func locateFields(o *Object, raw []byte, line int) {
	if bytes.IndexByte(raw, '\n') < 0 {
		// one line (kubectl -o json of a List puts each item on many; jq -c and many
		// collectors on one): every field is on the object's line, which is what
		// Source.LineOf and the condition evidence fall back to
		return
	}
	lineAt := func(i int) int { return line + bytes.Count(raw[:i], []byte{'\n'}) }
	find := func(field, needle string) {
		if i := bytes.Index(raw, []byte(needle)); i >= 0 {
			if o.Source.Fields == nil {
				o.Source.Fields = map[string]int{}
			}
			o.Source.Fields[field] = lineAt(i)
		}
	}
	find("metadata.deletionTimestamp", `"deletionTimestamp"`)
	if i := bytes.Index(raw, []byte(`"finalizers"`)); i >= 0 {
		// the first "finalizers" key may be metadata's or spec's; tell them apart by the
		// values we decoded
		find("metadata.finalizers", `"finalizers"`)
		if len(o.SpecFinalizers) > 0 {
			if j := bytes.Index(raw, []byte(`"spec"`)); j >= 0 {
				if k := bytes.Index(raw[j:], []byte(`"finalizers"`)); k >= 0 {
					o.Source.Fields["spec.finalizers"] = lineAt(j + k)
				}
			}
		}
	}
	if !citedConditions[o.Kind] {
		return
	}
	find("status.phase", `"phase"`)
	statusAt := bytes.Index(raw, []byte(`"conditions"`))
	if statusAt < 0 {
		return
	}
	for i := range o.Conditions {
		c := &o.Conditions[i]
		needle := `"` + c.Type + `"`
		if c.Message != "" {
			if enc, err := json.Marshal(c.Message); err == nil {
				if k := bytes.Index(raw[statusAt:], enc); k >= 0 {
					c.Line = lineAt(statusAt + k)
					continue
				}
			}
		}
		if k := bytes.Index(raw[statusAt:], []byte(needle)); k >= 0 {
			c.Line = lineAt(statusAt + k)
		}
	}
}
