package mechanism

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/analyzer/index"
	"github.com/nsanalyze/nsanalyze/analyzer/shellsafe"
)

// The cloud controllers (cloud-controller-manager's route, service and node
// controllers) are one module every rule asks: the index keeps their failure lines and
// the clouds' refusals, each attributed to the controller it is about
// (kubemsg.ParseCloudLine), so a load balancer's permission error is never read as the
// route controller's.

// CloudLogsCommand prints the cloud-controller-manager's recent log.
var CloudLogsCommand = shellsafe.Cmd("kubectl", "-n", "kube-system", "logs", "-l", "component=cloud-controller-manager", "--tail=500")

// cloudDenialGrep filters the log for the clouds' refusals.
const cloudDenialGrep = " | grep -E 'UnauthorizedOperation|AuthorizationFailed|AccessDenied|PERMISSION_DENIED|permission for'"

// CloudPermissionLink is the link a controller's refused calls prove ("the cloud
// refuses the route controller's calls"), with its fix; ok is false when the bundle
// holds no refusal attributed to it. what names the controller in prose ("route
// controller"), rest says what comes back once the permissions are restored.
func CloudPermissionLink(ix *index.Index, controller, what, rest string) (findings.Link, bool) {
	_, denials := ix.CloudLines(controller)
	if len(denials) == 0 {
		return findings.Link{}, false
	}
	quote := strings.TrimSpace(denials[0].Detail())
	return findings.Link{Component: "cloud permissions of the " + what, Fault: true, Evidence: findings.SampleLines(denials, 3), Code: findings.CodePermissionDenied,
		Finding: "the cloud refuses the " + what + "'s calls: its IAM role or policy lacks the permissions it needs. " + findings.LineSpan(denials) + ".",
		Fix: &findings.RemediationStep{Risk: findings.RiskSafe, Command: CloudLogsCommand + cloudDenialGrep,
			Why: "Restore the cloud " + what + "'s permissions (the IAM role/policy of cloud-controller-manager; the denied call: " + findings.Clip(quote, 200) + "). " + rest}}, true
}
