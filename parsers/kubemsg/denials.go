package kubemsg

import (
	"regexp"
	"strconv"
	"strings"
)

// Admission denials: a webhook that answers, and says no. Kubernetes wraps the
// webhook's own message in `admission webhook %q denied the request: %s` (1.10+;
// `... denied the request without explanation` when it gives none, 1.8+), and
// kube-apiserver logs `rejected by webhook %q: %#v`. Policy engines put the policy in
// the message, each in its own wording:
//   - Gatekeeper: `[denied by <constraint>] <msg>` (v3.0-3.3), `[<constraint>] <msg>` (later);
//   - Kyverno: `resource <Kind>/<ns>/<name> was blocked due to the following policies`
//     (1.x), `policy <Kind>/<ns>/<name> for resource violation:` (1.6+), then
//     `<policy>:` and `  <rule>: <msg>` lines;
//   - Kubewarden: the webhook is `[clusterwide-|namespaced-<ns>-]<policy>.kubewarden.admission`;
//   - OPA kube-mgmt (`validating-webhook.openpolicyagent.org`) and Rancher
//     (`rancher.cattle.io.<resource>`): the webhook's name says who, the message why.

// AdmissionDenial is one explicit refusal by an admission webhook.
type AdmissionDenial struct {
	Webhook string // the webhook's name; "" when the text only carries the engine's message
	Engine  string // "gatekeeper", "kyverno", "kubewarden", "opa", "rancher", or "" (the webhook's own)
	Policy  string // the constraint or policy the message names, "" when it names none
	Message string // the reason given ("" without explanation)
}

// Named returns what refused: the policy with its engine when known, else the webhook.
func (d AdmissionDenial) Named() string {
	switch {
	case d.Policy != "" && d.Engine != "":
		return d.Engine + " policy " + strconv.Quote(d.Policy)
	case d.Policy != "":
		return "policy " + strconv.Quote(d.Policy)
	case d.Webhook != "":
		return "webhook " + strconv.Quote(d.Webhook)
	}
	return "an admission policy"
}

var (
	deniedRequest = regexp.MustCompile(`admission webhook \\*"(` + reSubdomain + `)\\*" denied the request(: | without explanation)`)
	rejectedBy    = regexp.MustCompile(`rejected by webhook \\*"(` + reSubdomain + `)\\*": `)
	gatekeeperTag = regexp.MustCompile(`\[(?:denied by )?([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)\] `)
	kyvernoHead   = regexp.MustCompile(`(?:was blocked due to the following policies|for resource violation:?)`)
	// after Kyverno's head: blank lines, then "<policy>:" and "  <rule>: msg"; newlines
	// may be real, escaped (\n in a quoted log value) or gone (a pasted line)
	kyvernoPolicy = regexp.MustCompile(`^(?:\s|\\+n)*([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?):(?:\s|\\+n)+([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?): `)
	// Kubewarden: "clusterwide-<policy>" or "namespaced-<namespace>-<policy>" (where a
	// hyphen of the namespace cannot be told from one of the policy: both are kept)
	kubewarden = regexp.MustCompile(`^(?:clusterwide-|namespaced-)?([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.kubewarden\.admission$`)
)

// ParseAdmissionDenials finds every explicit admission denial in a text (a condition
// message, a log line, kubectl's stderr) and the policy it names.
func ParseAdmissionDenials(text string) []AdmissionDenial {
	var out []AdmissionDenial
	seen := map[string]bool{}
	add := func(d AdmissionDenial) {
		k := d.Webhook + "\x00" + d.Policy
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	for _, m := range deniedRequest.FindAllStringSubmatchIndex(text, -1) {
		d := AdmissionDenial{Webhook: text[m[2]:m[3]]}
		if text[m[4]:m[5]] == ": " {
			d.Message = firstClause(quotedTail(text, m[1]))
		}
		d.Engine, d.Policy = engineOf(d.Webhook, text[m[1]:])
		add(d)
	}
	if len(out) == 0 {
		if m := rejectedBy.FindStringSubmatchIndex(text); m != nil {
			d := AdmissionDenial{Webhook: text[m[2]:m[3]], Message: firstClause(text[m[1]:])}
			d.Engine, d.Policy = engineOf(d.Webhook, text[m[1]:])
			add(d)
		}
	}
	if len(out) == 0 {
		// the engine's message alone (quoted without Kubernetes' wrapping)
		if e, p := engineOf("", text); e != "" {
			add(AdmissionDenial{Engine: e, Policy: p, Message: firstClause(text)})
		}
	}
	return out
}

// engineOf names the policy engine behind a webhook, and the policy its message names.
func engineOf(webhook, msg string) (engine, policy string) {
	w := strings.ToLower(webhook)
	if m := kubewarden.FindStringSubmatch(w); m != nil {
		return "kubewarden", m[1]
	}
	if i := kyvernoHead.FindStringIndex(msg); i != nil {
		if m := kyvernoPolicy.FindStringSubmatch(msg[i[1]:]); m != nil {
			return "kyverno", m[1]
		}
		return "kyverno", ""
	}
	gk := strings.Contains(w, "gatekeeper")
	if m := gatekeeperTag.FindStringSubmatchIndex(msg); m != nil && (gk || webhook == "" && strings.Contains(msg[m[0]:m[1]], "denied by ")) {
		// the tag opens the message (or a line of it)
		if m[0] == 0 || msg[m[0]-1] == ' ' || msg[m[0]-1] == '(' || msg[m[0]-1] == '\n' {
			return "gatekeeper", msg[m[2]:m[3]]
		}
	}
	switch {
	case gk:
		return "gatekeeper", ""
	case strings.Contains(w, "kyverno"):
		return "kyverno", ""
	case strings.Contains(w, "openpolicyagent"):
		return "opa", ""
	case strings.Contains(w, "cattle.io"):
		return "rancher", ""
	}
	return "", ""
}

// RequestLog is one line of kube-apiserver's request log (httplog, -v=3 and above):
// 1.19+ `"HTTP" verb="DELETE" URI="/api/v1/namespaces/x/pods" latency=... userAgent="..."
// audit-ID=... srcIP=... resp=403`, before 1.19 `DELETE /api/v1/namespaces/x/pods: (1.2ms) 403 [<user agent> <ip:port>]`.
type RequestLog struct {
	Verb      string
	URI       string
	UserAgent string
	Code      int
	// Namespace and Resource are those the URI addresses (a namespaced collection or
	// object); "" for cluster-scoped paths.
	Namespace, Resource string
}

var (
	httplogPrintf = regexp.MustCompile(`\b(DELETE|GET|LIST|PATCH|PUT|POST|WATCH|UPDATE) (/[^\s:]*): \([^)]*\) (\d{3})[^\[]*\[(.*) (\S+)\]`)
	uriNamespaced = regexp.MustCompile(`^/apis?/(?:[^/?]+/)?[^/?]+/namespaces/([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)/([a-z0-9][-a-z0-9.]*)`)
)

// ParseRequestLog reads an httplog line in either rendering.
func ParseRequestLog(text string) (RequestLog, bool) {
	var r RequestLog
	if strings.Contains(text, `"HTTP"`) || strings.Contains(text, `"msg":"HTTP"`) {
		r.Verb, _ = fieldValue(text, "verb")
		r.URI, _ = fieldValue(text, "URI")
		r.UserAgent, _ = fieldValue(text, "userAgent")
		code, ok := fieldValue(text, "resp")
		if !ok {
			if i := strings.Index(text, `"resp":`); i >= 0 {
				code = strings.TrimLeft(text[i+7:], " ")
				if j := strings.IndexAny(code, ",}"); j >= 0 {
					code = code[:j]
				}
			}
		}
		r.Code, _ = strconv.Atoi(strings.TrimSpace(code))
	} else if m := httplogPrintf.FindStringSubmatch(text); m != nil {
		r.Verb, r.URI, r.UserAgent = m[1], m[2], m[4]
		r.Code, _ = strconv.Atoi(m[3])
	}
	if r.Verb == "" || r.URI == "" || r.Code == 0 {
		return RequestLog{}, false
	}
	if m := uriNamespaced.FindStringSubmatch(r.URI); m != nil && IsNamespaceName(m[1]) {
		r.Namespace = m[1]
		r.Resource, _, _ = strings.Cut(m[2], "?")
	}
	return r, true
}

// NamespaceControllerDenied reports a request log line of the namespace controller's
// DELETE of a namespace's content that the API server refused with 403 (Forbidden:
// an admission webhook or policy denied it, or RBAC) or 422 (Invalid: a webhook's
// denial with that code). The controller's user agent ends in "namespace-controller"
// (its client name, or its service account with --use-service-account-credentials).
func (r RequestLog) NamespaceControllerDenied() bool {
	return r.Verb == "DELETE" && (r.Code == 403 || r.Code == 422) && r.Namespace != "" && r.Resource != "" &&
		strings.Contains(r.UserAgent, "namespace-controller")
}
