package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const twoServices = `# leading comment
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  annotations:
    service.beta.kubernetes.io/azure-dns-label-name: shop-web
spec:
  type: LoadBalancer
  ports:
    - port: 80
    - name: https
      port: 443
---
apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  type: LoadBalancer
  loadBalancerSourceRanges: [203.0.113.0/24, 198.51.100.0/24]
`

func TestDecodePositions(t *testing.T) {
	in := Decode("svc.yaml", []byte(twoServices))
	if len(in.Diagnostics) != 0 || len(in.Services) != 2 {
		t.Fatalf("got %d Services, diagnostics %v", len(in.Services), in.Diagnostics)
	}
	web, api := in.Services[0], in.Services[1]
	ann := AnnotationPath(AnnDNSLabelName)
	got := map[string]string{
		"web source":         web.Source.String(),
		"annotation key":     web.Pos(ann).String(),
		"annotation value":   web.Pos(ann + ".value").String(),
		"ports[1].port":      web.Pos("spec.ports[1].port").String(),
		"ports (key)":        web.Pos("spec.ports").String(),
		"missing falls back": web.Pos("spec.ports[1].nodePort").String(),
		"api source":         api.Source.String(),
		"api name":           api.Pos("metadata.name").String(),
		"flow item":          api.Pos("spec.loadBalancerSourceRanges[1]").String(),
		"absent field":       api.Pos("spec.externalTrafficPolicy").String(),
	}
	want := map[string]string{
		"web source":         "svc.yaml:2:1",
		"annotation key":     "svc.yaml:8:5",
		"annotation value":   "svc.yaml:8:54",
		"ports[1].port":      "svc.yaml:14:13",
		"ports (key)":        "svc.yaml:11:3",
		"missing falls back": "svc.yaml:13:7",
		"api source":         "svc.yaml:16:1",
		"api name":           "svc.yaml:19:9",
		"flow item":          "svc.yaml:22:46",
		"absent field":       "svc.yaml:20:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
	if web.Key() != "shop/web" || api.Key() != "default/api" {
		t.Errorf("keys %q %q", web.Key(), api.Key())
	}
}

func TestDecodeKinds(t *testing.T) {
	list := `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Service
    metadata: {name: one}
    spec: {type: LoadBalancer, ports: [{port: 80}]}
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: cfg}
  - apiVersion: v1
    kind: Service
    metadata: {name: two}
    spec:
      type: LoadBalancer
      ports:
        - port: 8080
`
	jsonDoc := `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "j", "annotations": {"` + AnnInternal + `": "true"}},
 "spec": {"type": "LoadBalancer", "ports": [{"port": 53, "protocol": "UDP"}]}}`
	skipped := `apiVersion: v1
kind: Service
metadata: {name: cip}
spec: {type: ClusterIP}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
---
apiVersion: v1
kind: Service
metadata: {name: metallb}
spec: {type: LoadBalancer, loadBalancerClass: metallb.io/metallb}
---
apiVersion: serving.knative.dev/v1
kind: Service
metadata: {name: knative}
---
# only a comment
---
[a golden, file]
---
plain text
`
	tests := []struct {
		name, file, data string
		wantNames        []string
		wantSkipped      map[SkipReason]int
		wantPos          string // position of the last Service's first port
	}{
		{"List", "list.yaml", list, []string{"one", "two"}, map[SkipReason]int{SkipNotService: 1}, "list.yaml:17:17"},
		{"JSON", "svc.json", jsonDoc, []string{"j"}, map[SkipReason]int{}, "svc.json:2:54"},
		{"skipped", "skip.yaml", skipped, nil, map[SkipReason]int{SkipNotService: 2, SkipNotLoadBalancer: 1, SkipLoadBalancerClass: 1, SkipNotObject: 2}, ""},
	}
	for _, tt := range tests {
		in := Decode(tt.file, []byte(tt.data))
		var names []string
		for _, s := range in.Services {
			names = append(names, s.Name)
		}
		if len(in.Diagnostics) > 0 {
			t.Errorf("%s: diagnostics %v", tt.name, in.Diagnostics)
		}
		if diff := cmp.Diff(tt.wantNames, names); diff != "" {
			t.Errorf("%s: names (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.wantSkipped, in.Skipped); diff != "" {
			t.Errorf("%s: skipped (-want +got):\n%s", tt.name, diff)
		}
		if tt.wantPos != "" {
			last := in.Services[len(in.Services)-1]
			if got := last.Pos("spec.ports[0].port").String(); got != tt.wantPos {
				t.Errorf("%s: port position %s, want %s", tt.name, got, tt.wantPos)
			}
		}
	}
}

func TestDecodeDiagnostics(t *testing.T) {
	tests := []struct {
		name, data string
		wantCode   string
		wantPos    string
		wantNames  []string // Services still read
	}{
		{"malformed then valid", "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n   bad: [\n---\napiVersion: v1\nkind: Service\nmetadata: {name: b}\nspec: {type: LoadBalancer}\n",
			CodeMalformed, "in.yaml:5:4", []string{"b"}},
		{"key dedented out of its mapping", "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n c: 2\n", CodeMalformed, "in.yaml:5:2", nil},
		{"flow sequence left open", "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  labels: [x\nspec: {}\n", CodeMalformed, "in.yaml:5:3", nil},
		{"unterminated flow", "apiVersion: v1\nkind: Service\nmetadata: {name: a\n", CodeMalformed, "in.yaml:3:1", nil}, // the flow mapping's line (yaml.v3 says 2: parserError)
		{"port not a number", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  type: LoadBalancer\n  ports:\n  - port: 80\n  - port: abc\n",
			CodeWrongType, "in.yaml:8:11", nil},
		{"ports not a list", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  type: LoadBalancer\n  ports: 80\n",
			CodeWrongType, "in.yaml:6:10", nil},
		{"label value a number", "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  labels:\n    app: web\n    version: 1.0\nspec: {type: LoadBalancer}\n",
			CodeWrongType, "in.yaml:7:14", nil},
		// Still read, the value as the string it spells, so that the rest
		// of the Service is checked (TestNonStringAnnotationKeepsChecking).
		{"unquoted annotation", "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  annotations:\n    x: true\nspec: {type: LoadBalancer}\n",
			CodeNonStringValue, "in.yaml:6:8", []string{"a"}},
		{"no name", "apiVersion: v1\nkind: Service\nmetadata: {namespace: x}\nspec: {type: LoadBalancer}\n", CodeNoName, "in.yaml:1:1", nil},
		{"duplicate key", "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  annotations:\n    x: \"1\"\n    x: \"2\"\nspec: {type: LoadBalancer, ports: [{port: 80}]}\n",
			CodeDuplicateKey, "in.yaml:7:5", []string{"a"}},
		{"List item not an object", "apiVersion: v1\nkind: List\nitems:\n- just text\n", CodeNotObject, "in.yaml:4:3", nil},
		{"duplicate", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {type: LoadBalancer}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: a\nspec: {type: LoadBalancer}\n",
			CodeDuplicateService, "in.yaml:9:9", []string{"a"}},
	}
	for _, tt := range tests {
		in := Decode("in.yaml", []byte(tt.data))
		if len(in.Diagnostics) != 1 {
			t.Errorf("%s: want one diagnostic, got %v", tt.name, in.Diagnostics)
			continue
		}
		d := in.Diagnostics[0]
		if d.Code != tt.wantCode || d.Pos.String() != tt.wantPos || d.Severity != SeverityError || d.Message == "" {
			t.Errorf("%s: got %s %s %s %q, want %s at %s", tt.name, d.Code, d.Severity, d.Pos, d.Message, tt.wantCode, tt.wantPos)
		}
		var names []string
		for _, s := range in.Services {
			names = append(names, s.Name)
		}
		if !cmp.Equal(names, tt.wantNames) {
			t.Errorf("%s: Services %v, want %v", tt.name, names, tt.wantNames)
		}
	}
}

func TestDecodeAliasesAndMerge(t *testing.T) {
	data := `apiVersion: v1
kind: Service
metadata:
  name: merged
  annotations: &ann
    ` + AnnInternal + `: "true"
  labels:
    <<: {team: shop, tier: web}
    tier: edge
spec:
  type: LoadBalancer
  ports:
    - &p {port: 80, protocol: TCP}
    - <<: *p
      port: 81
`
	in := Decode("m.yaml", []byte(data))
	if len(in.Diagnostics) != 0 || len(in.Services) != 1 {
		t.Fatalf("diagnostics %v", in.Diagnostics)
	}
	s := in.Services[0]
	got := []any{s.Labels, s.Spec.Ports[0].Port, s.Spec.Ports[1].Port, string(s.Spec.Ports[1].Protocol), s.InternalForLBChoice()}
	want := []any{map[string]string{"team": "shop", "tier": "edge"}, int32(80), int32(81), "TCP", true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
	in = Decode("bomb.yaml", []byte("apiVersion: v1\nkind: Service\nmetadata: {name: bomb}\nspec:\n  type: LoadBalancer\n  selector:\n    x: y\nextra:\n  "+strings.ReplaceAll(bomb, "\n", "\n  ")))
	if len(in.Diagnostics) != 1 || in.Diagnostics[0].Code != CodeWrongType {
		t.Errorf("alias bomb: %v", in.Diagnostics)
	}
}

func TestLoadPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, data string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	svc := func(name string) string {
		return "apiVersion: v1\nkind: Service\nmetadata: {name: " + name + "}\nspec: {type: LoadBalancer}\n"
	}
	write("b/z.yaml", svc("z"))
	write("b/a.YML", svc("a"))
	write("a.json", `{"apiVersion":"v1","kind":"Service","metadata":{"name":"j"},"spec":{"type":"LoadBalancer"}}`)
	write("notes.txt", svc("ignored"))
	single := write("single.txt", svc("explicit"))

	in, err := Load([]string{dir, single, "-", "-", filepath.Join(dir, "b", ".", "z.yaml")}, strings.NewReader(svc("stdin")))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range in.Services {
		got = append(got, s.Source.File+"#"+s.Name)
	}
	want := []string{
		filepath.Join(dir, "a.json") + "#j",
		filepath.Join(dir, "b/a.YML") + "#a",
		filepath.Join(dir, "b/z.yaml") + "#z",
		filepath.Join(dir, "single.txt") + "#explicit",
		StdinName + "#stdin",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("services (-want +got):\n%s", diff)
	}
	if string(in.Sources[StdinName]) != svc("stdin") || len(in.Files) != 5 {
		t.Errorf("sources not kept: files %v", in.Files)
	}

	if _, err := Load([]string{filepath.Join(dir, "missing.yaml")}, nil); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing path: err = %v", err)
	}

	// The same Service in two files is a duplicate pointing at the second.
	dup := write("dup/x.yaml", svc("z"))
	in, err = Load([]string{filepath.Join(dir, "b"), dup}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Diagnostics) != 1 || in.Diagnostics[0].Code != CodeDuplicateService || in.Diagnostics[0].Pos.File != dup {
		t.Errorf("duplicate across files: %v", in.Diagnostics)
	}
}

// TestParallelDecodeOrder: a large stream is decoded in parallel groups,
// yet Services keep input order and positions, also when Pos is called
// from several goroutines.
func TestParallelDecodeOrder(t *testing.T) {
	data := generateServices(300)
	in := Decode("big.yaml", data)
	if len(in.Services) != 300 || len(in.Diagnostics) != 0 {
		t.Fatalf("%d Services, %v", len(in.Services), in.Diagnostics)
	}
	done := make(chan Position, 4)
	for range 4 {
		go func() { done <- in.Services[299].Pos("metadata.name") }()
	}
	for range 4 {
		if p := <-done; p.Line == 0 {
			t.Errorf("no position: %v", p)
		}
	}
	lines := strings.Split(string(data), "\n")
	for i, s := range in.Services {
		if s.Name != fmt.Sprintf("svc-%05d", i) {
			t.Fatalf("Service %d is %s", i, s.Name)
		}
		p := s.Pos("metadata.name")
		if got := lines[p.Line-1][p.Column-1:]; got != s.Name {
			t.Fatalf("%s: position %s points at %q", s.Name, p, got)
		}
	}
}
