package logs

// samplePhrases are real phrases of Kubernetes' log lines for the matcher and fuzz
// tests of this package. They are samples, not the analyzer's prefilter: that one is
// derived from the rules' matchers (analyzer/rules.Phrases) and tested there.
var samplePhrases = []string{
	"eletion of namespace",
	"unable to retrieve the complete list of server APIs",
	"failed to discover some groups",
	"couldn't get resource list for",
	"unexpected items still remain in namespace",
	"failed to delete pods for namespace",
	"failed with: ",
	"changing APIService availability",
	"ailed calling webhook",
	"conversion webhook",
	"Namespace has been deleted",
	"currently unable to handle the request",
	`version="v1.`,
	"reconcile node routes",
	"UnauthorizedOperation",
	"AccessDenied",
}
