package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const schemaPath = "../../docs/report.schema.json"

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", schemaPath, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatalf("compile %s: %v", schemaPath, err)
	}
	return sch
}

func validate(t *testing.T, sch *jsonschema.Schema, name string, data []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: not JSON: %v", name, err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not match %s (a new field must be added to the schema and to docs/json.md):\n%v", name, schemaPath, err)
	}
}

// TestJSONSchemaGolden validates every golden JSON report against docs/report.schema.json.
func TestJSONSchemaGolden(t *testing.T) {
	sch := compileSchema(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json.golden"))
	if len(files) == 0 {
		t.Fatal("no golden JSON report in testdata/")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		validate(t, sch, f, data)
	}
}

// TestJSONSchemaAllFixtures validates the JSON report of every fixture bundle (those
// with an expected.json), so fields that only some causes fill are checked too.
func TestJSONSchemaAllFixtures(t *testing.T) {
	sch := compileSchema(t)
	for _, d := range allFixtures(t) {
		var buf bytes.Buffer
		if err := JSON(&buf, fixtureReport(t, d)); err != nil {
			t.Fatal(err)
		}
		validate(t, sch, d, buf.Bytes())
	}
}

// TestJSONDocumented checks that docs/json.md describes every field of the schema.
func TestJSONDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for k := range props {
					names[k] = true
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(s)
	var missing []string
	for n := range names {
		if !regexp.MustCompile("`" + regexp.QuoteMeta(n) + "`").Match(doc) {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/json.md does not describe these fields: %s", strings.Join(missing, ", "))
	}
}
