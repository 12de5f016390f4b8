package render

import (
	"bytes"
	"flag"
	"path/filepath"
	"testing"
)

// update rewrites the golden files of every format: go test ./analyzer/render -update
var _ = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGoldenTextAndJSON pins the text and JSON reports of the golden bundles
// (formatBundles); the Markdown, HTML and colour ones are pinned by TestGoldenMarkdownAndHTML.
func TestGoldenTextAndJSON(t *testing.T) {
	for _, b := range formatBundles {
		t.Run(b, func(t *testing.T) {
			r := fixtureReport(t, b)
			base := filepath.Base(b)
			for _, format := range []string{"text", "json"} {
				var buf bytes.Buffer
				if err := Render(&buf, r, format); err != nil {
					t.Fatal(err)
				}
				compareGolden(t, base+"."+format+".golden", buf.Bytes())
			}
		})
	}
}
