package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

// helmReport holds one finding in a document helm template rendered and
// one in a plain file.
func helmReport() Report {
	return Report{
		Sources: map[string][]byte{service.StdinName: []byte(strings.Repeat("\n", 13) + "    service.beta.kubernetes.io/azure-load-balancer-interal: \"true\"\n")},
		Diagnostics: []service.Diagnostic{
			{Code: "AZSVC1001", Severity: service.SeverityError, Service: "shop/web", Message: "unknown annotation",
				Pos: service.Position{File: service.StdinName, Line: 14, Column: 5, Template: "shop/templates/services.yaml"}},
			{Code: "AZSVC0001", Severity: service.SeverityError, Message: "malformed YAML",
				Pos: service.Position{File: service.StdinName, Line: 30, Template: "shop/templates/broken.yaml"}},
			{Code: "AZSVC1001", Severity: service.SeverityError, Service: "shop/api", Message: "unknown annotation",
				Pos: service.Position{File: "deploy/api.yaml", Line: 7, Column: 5}},
		},
	}
}

func TestHelmTemplateText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, helmReport(), style.New(false)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"shop/templates/services.yaml (shop/web, from <stdin>:14:5): error[AZSVC1001]: unknown annotation\n 14 |     service.beta",
		"shop/templates/broken.yaml (from <stdin>:30): error[AZSVC0001]",
		"deploy/api.yaml:7:5: error[AZSVC1001]",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestHelmTemplateJSON(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, helmReport()); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Diagnostics []struct {
			Template string
			Range    struct{ Filename string }
		}
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, d := range out.Diagnostics {
		got = append(got, d.Range.Filename+"|"+d.Template)
	}
	want := "<stdin>|shop/templates/services.yaml|<stdin>|shop/templates/broken.yaml|deploy/api.yaml|"
	if strings.Join(got, "|") != want {
		t.Errorf("diagnostics %v, want %s", got, want)
	}
	if strings.Count(b.String(), `"template"`) != 2 {
		t.Errorf("template must be absent where there is none:\n%s", b.String())
	}
}

func TestHelmTemplateSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := SARIF(&b, helmReport(), SARIFOptions{Tool: Tool{Name: "azsvc"}, BaseDir: "/repo", WorkDir: "/repo/charts"}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	got := map[string]sarifResult{}
	for _, r := range log.Runs[0].Results {
		got[r.Locations[0].PhysicalLocation.ArtifactLocation.URI] = r
	}
	web, ok := got["charts/shop/templates/services.yaml"]
	if !ok {
		t.Fatalf("no result on the template: %v", got)
	}
	if loc := web.Locations[0].PhysicalLocation; loc.Region != nil || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("template location %+v: want a file-level location under %%SRCROOT%%", loc)
	}
	if !strings.Contains(web.Message.Text, "In helm template's output: <stdin>:14:5 (shop/web)") {
		t.Errorf("message %q does not say where in helm's output", web.Message.Text)
	}
	if plain := got["charts/deploy/api.yaml"]; plain.Locations[0].PhysicalLocation.Region == nil {
		t.Errorf("a plain file's result lost its region: %+v", plain)
	}
	if strings.Contains(b.String(), `"stdin"`) {
		t.Errorf("a result stayed on stdin:\n%s", b.String())
	}
}
