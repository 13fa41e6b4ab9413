package resources

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/golden"
	"github.com/azsvc/azsvc/render/style"
)

// TestFormatsGolden renders one rich scenario (examples/pls: public and
// internal LBs, PIP, NSG, two PLSs) in every format.
func TestFormatsGolden(t *testing.T) {
	st, _ := exampleState(t, filepath.Join(examplesDir, "pls"), exampleConfig(t))
	formats := []struct {
		file   string
		render func(*bytes.Buffer) error
	}{
		{"pls.json", func(b *bytes.Buffer) error { return JSON(b, st) }},
		{"pls.yaml", func(b *bytes.Buffer) error { return YAML(b, st) }},
		{"pls.txt", func(b *bytes.Buffer) error { return Text(b, st, style.New(false)) }},
		{"pls.color.txt", func(b *bytes.Buffer) error { return Text(b, st, style.New(true)) }},
		{"pls.mmd", func(b *bytes.Buffer) error { return Mermaid(b, st) }},
	}
	for _, f := range formats {
		t.Run(f.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := f.render(&buf); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", f.file), buf.Bytes())
		})
	}
}

// TestJSONShape checks the ARM GET shape: top-level fields, children inline
// under their ARM collection names, unknown values as null, and the same
// bytes on every run.
func TestJSONShape(t *testing.T) {
	st, _ := exampleState(t, filepath.Join(examplesDir, "pls"), exampleConfig(t))
	var first bytes.Buffer
	if err := JSON(&first, st); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(first.Bytes(), &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		for _, k := range []string{"id", "name", "type", "properties"} {
			if _, ok := o[k]; !ok {
				t.Errorf("%v lacks %q", o["id"], k)
			}
		}
		if o["type"] == plan.KindLoadBalancer.ARMType() {
			props := o["properties"].(map[string]any)
			for _, c := range []string{"frontendIPConfigurations", "backendAddressPools", "loadBalancingRules", "probes"} {
				if _, ok := props[c].([]any); !ok {
					t.Errorf("LB %v lacks inline %s", o["name"], c)
				}
			}
		}
	}
	if !strings.Contains(first.String(), `"privateIPAddress": null`) {
		t.Error("dynamic private IP should render as null")
	}
	for i := 0; i < 3; i++ {
		var again bytes.Buffer
		if err := JSON(&again, st); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), again.Bytes()) {
			t.Fatal("JSON output is not deterministic")
		}
	}
}

// TestMermaidSyntax checks that node ids are generated identifiers and
// every label is quoted, whatever the resource names contain.
func TestMermaidSyntax(t *testing.T) {
	st := plan.NewState()
	lb := plan.NewID("s", "rg", plan.KindLoadBalancer, `lb"x`)
	st.Put(&plan.Resource{ID: lb, Properties: map[string]any{}, Services: []string{`ns/a<b>`}})
	st.Put(&plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "fe [1]"), Services: []string{`ns/a<b>`},
		Properties: map[string]any{"publicIPAddress": map[string]any{"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/byo"}}})
	var buf bytes.Buffer
	if err := Mermaid(&buf, st); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	line := regexp.MustCompile(`^(flowchart LR|  end|\s+n\d+(\(\[|\[/|\[)"[^"]*"(\]\)|/\]|\])|\s+subgraph n\d+\["[^"]*"\]|\s+n\d+ -(->|\.->) n\d+)$`)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !line.MatchString(l) {
			t.Errorf("unexpected mermaid line %q", l)
		}
	}
	if strings.Contains(out, "<b>") || !strings.Contains(out, "#quot;") {
		t.Errorf("labels not escaped:\n%s", out)
	}
}
