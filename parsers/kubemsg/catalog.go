package kubemsg

import (
	_ "embed"
	"encoding/json"
)

// catalogJSON is the message catalogue: every message the parsers of this package
// recognise, with its format string in each Kubernetes minor version from 1.8 to 1.38 (1.38 read at v1.38.0-beta.0),
// its source file and one example line per form. docs/messages.md describes it;
// catalog_test.go checks that the named parser returns what the form says;
// analyzer/rules' TestCatalogLinesPassPrefilter that the prefilter derived from the
// rules' matchers lets every example through.
//
//go:embed catalog.json
var catalogJSON []byte

// MessageCatalog is the decoded catalog.json.
type MessageCatalog struct {
	About    string `json:"about"`
	Versions struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"versions"`
	Messages []CatalogMessage `json:"messages"`
}

// CatalogMessage is one message family ("namespace-deletion-failed", "memcache", ...).
type CatalogMessage struct {
	ID      string        `json:"id"`
	Title   string        `json:"title"`
	Emitter string        `json:"emitter"`
	Note    string        `json:"note,omitempty"`
	Forms   []CatalogForm `json:"forms"`
}

// CatalogForm is one wording of a message in one rendering, valid for the minor
// versions From..To (inclusive, "v1.16").
type CatalogForm struct {
	ID        string            `json:"id"`
	Format    string            `json:"format"`    // the Go format string, or the structured message and its keys
	Source    []string          `json:"source"`    // "repository:path" (with the versions of each path when it moved)
	From      string            `json:"from"`      // first minor version, "v1.16"
	To        string            `json:"to"`        // last minor version read, "v1.35"
	Channel   string            `json:"channel"`   // "log" (a log line), "stderr" (kubectl), "text" (error text inside other messages), "object" (a status condition message)
	Rendering string            `json:"rendering"` // how the text reaches a log, condition or stderr
	Call      string            `json:"call,omitempty"`
	Lines     string            `json:"lines,omitempty"` // source line numbers by version (klog file:line headers)
	Parser    string            `json:"parser"`          // the function of this package that recognises Example
	Want      map[string]string `json:"want"`            // what Parser returns for Example
	Example   string            `json:"example"`
	Origin    string            `json:"origin"` // where Example comes from
	Note      string            `json:"note,omitempty"`
	// Component names who prints this form when the family's emitter list is not
	// precise enough ("kubectl 1.37+, kube-controller-manager 1.37+ (RESTMapper)").
	Component string `json:"component,omitempty"`
	// Kubectl is set on client-side forms whose wording follows the kubectl (client-go)
	// version rather than the server's: the kubectl versions that print it.
	Kubectl string `json:"kubectl,omitempty"`
}

// Catalog returns the embedded message catalogue.
func Catalog() (*MessageCatalog, error) {
	var c MessageCatalog
	if err := json.Unmarshal(catalogJSON, &c); err != nil {
		return nil, err
	}
	return &c, nil
}
