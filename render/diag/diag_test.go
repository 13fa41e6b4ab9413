package diag

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan/golden"
	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

const webYAML = `apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    service.beta.kubernetes.io/azure-load-balancr-internal: "true"
    service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout: "200"
spec:
  type: LoadBalancer
	# a tab-indented comment line to check caret alignment
  ports:
  - port: 443
`

// fixture is a fixed diagnostic set exercising every renderer branch:
// errors and warnings, two files, a multi-digit line, a tab in the line, a
// missing hint, an unknown column and a position past the file's end.
func fixture() Report {
	api := "deploy/api/service.yaml"
	web := "deploy/web.yaml"
	var long bytes.Buffer
	for i := 1; i <= 11; i++ {
		long.WriteString("# filler\n")
	}
	long.WriteString("    service.beta.kubernetes.io/azure-pls-ip-configuration-ip-address-count: \"9\"\n")
	return Report{
		Sources: map[string][]byte{web: []byte(webYAML), api: long.Bytes()},
		Checked: 3,
		Skipped: map[string]int{"not type LoadBalancer": 2, "not a Service": 1},
		Diagnostics: []service.Diagnostic{
			{Code: "AZSVC2003", Severity: service.SeverityWarning, Service: "default/web",
				Pos: service.Position{File: web, Line: 10, Column: 3}, Field: "spec",
				Message: "comment indented with a tab"},
			{Code: "AZSVC1001", Severity: service.SeverityError, Service: "default/web",
				Pos:     service.Position{File: web, Line: 6, Column: 5},
				Field:   "service.beta.kubernetes.io/azure-load-balancr-internal",
				Message: `unknown annotation "service.beta.kubernetes.io/azure-load-balancr-internal"`,
				Hint:    `did you mean "service.beta.kubernetes.io/azure-load-balancer-internal"?`},
			{Code: "AZSVC1101", Severity: service.SeverityError, Service: "default/web",
				Pos:     service.Position{File: web, Line: 7, Column: 71},
				Field:   "service.beta.kubernetes.io/azure-load-balancer-tcp-idle-timeout",
				Message: "idle timeout 200 is out of range 4..100 minutes",
				Hint:    "set a value between 4 and 100"},
			{Code: "AZSVC1102", Severity: service.SeverityError, Service: "prod/api",
				Pos:     service.Position{File: api, Line: 12, Column: 79},
				Message: "PLS IP address count 9 is out of range 1..8",
				Hint:    "use at most 8 NAT IP addresses"},
			{Code: "AZSVC0001", Severity: service.SeverityError,
				Pos:     service.Position{File: api, Line: 40},
				Message: "yaml: line 40: mapping values are not allowed in this context"},
			{Code: "AZSVC2001", Severity: service.SeverityWarning, Service: "prod/api",
				Pos:     service.Position{File: api},
				Message: "Service has no ports"},
		},
	}
}

func TestGolden(t *testing.T) {
	sarifOpts := SARIFOptions{
		Tool: Tool{Name: "azsvc", Version: "1.2.3", InformationURI: "https://github.com/azsvc/azsvc"},
		Rules: []Rule{{ID: "AZSVC1001", Name: "UnknownAnnotation", Summary: "Unknown Azure annotation", Level: service.SeverityError,
			Description: "An `azure-*` annotation CCM does not know is ignored.", Help: "Rename the key to the one suggested."}},
		BaseDir: "/src",
	}
	tests := []struct {
		golden string
		render func(*bytes.Buffer, Report) error
	}{
		{"text.golden", func(b *bytes.Buffer, r Report) error { return Text(b, r, style.New(false)) }},
		{"text_color.golden", func(b *bytes.Buffer, r Report) error { return Text(b, r, style.New(true)) }},
		{"report.json.golden", func(b *bytes.Buffer, r Report) error { return JSON(b, r) }},
		{"report.sarif.golden", func(b *bytes.Buffer, r Report) error { return SARIF(b, r, sarifOpts) }},
		{"empty.json.golden", func(b *bytes.Buffer, _ Report) error { return JSON(b, Report{}) }},
		{"empty.sarif.golden", func(b *bytes.Buffer, _ Report) error { return SARIF(b, Report{}, sarifOpts) }},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var got bytes.Buffer
			if err := tt.render(&got, fixture()); err != nil {
				t.Fatal(err)
			}
			assertGolden(t, filepath.Join("testdata", tt.golden), got.Bytes())
		})
	}
}

func assertGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	golden.Check(t, path, got)
}

// The same report must produce the same bytes however its diagnostics
// arrive, or goldens and SARIF fingerprints would flap.
func TestDeterministicOrder(t *testing.T) {
	r := fixture()
	var a, b bytes.Buffer
	if err := JSON(&a, r); err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(r.Diagnostics)-1; i < j; i, j = i+1, j-1 {
		r.Diagnostics[i], r.Diagnostics[j] = r.Diagnostics[j], r.Diagnostics[i]
	}
	if err := JSON(&b, r); err != nil {
		t.Fatal(err)
	}
	// Ties (same file, line and column) keep input order, and the fixture
	// has none, so reversing the input must not change the output.
	if diff := cmp.Diff(a.String(), b.String()); diff != "" {
		t.Errorf("output depends on input order (-first +reversed):\n%s", diff)
	}
}

func TestSARIFShape(t *testing.T) {
	var buf bytes.Buffer
	if err := SARIF(&buf, fixture(), SARIFOptions{Tool: Tool{Name: "azsvc"}, BaseDir: "/src"}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	for _, res := range run.Results {
		rule := run.Tool.Driver.Rules[res.RuleIndex]
		if rule.ID != res.RuleID {
			t.Errorf("result %s has ruleIndex %d pointing at %s", res.RuleID, res.RuleIndex, rule.ID)
		}
		region := res.Locations[0].PhysicalLocation.Region
		if region.StartLine < 1 || region.StartColumn < 1 {
			t.Errorf("result %s has region %+v; GitHub requires line and column >= 1", res.RuleID, region)
		}
	}
}

// TestSARIFRuleHelp: a rule's description and fix reach SARIF as
// fullDescription and help, in text and markdown (issue 22); GitHub code
// scanning shows the help under each alert.
func TestSARIFRuleHelp(t *testing.T) {
	var buf bytes.Buffer
	rules := []Rule{{ID: "AZSVC1043", Summary: "exposure boolean", Level: service.SeverityError,
		Description: "`azure-load-balancer-internal: \"yes\"` is read as false.", Help: "Write `\"true\"`."}}
	if err := SARIF(&buf, Report{}, SARIFOptions{Tool: Tool{Name: "azsvc"}, Rules: rules}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	r := log.Runs[0].Tool.Driver.Rules[0]
	want := sarifRule{ID: "AZSVC1043", ShortDescription: sarifText{Text: "exposure boolean"},
		FullDescription: &sarifText{Text: `azure-load-balancer-internal: "yes" is read as false.`},
		Help: &sarifMultiformat{Text: "azure-load-balancer-internal: \"yes\" is read as false.\n\nFix: Write \"true\".",
			Markdown: "`azure-load-balancer-internal: \"yes\"` is read as false.\n\n**Fix:** Write `\"true\"`."},
		DefaultConfiguration: sarifConfig{Level: "error"}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("rule (-want +got):\n%s", diff)
	}
}

func TestSARIFURI(t *testing.T) {
	tests := []struct{ file, base, work, want string }{
		{"deploy/web.yaml", "/src", "", "deploy/web.yaml"},
		{"./deploy//web.yaml", "", "", "deploy/web.yaml"},
		{"/src/deploy/web.yaml", "/src", "", "deploy/web.yaml"},
		// Relative names are relative to the working directory, URIs to
		// the work tree root above it.
		{"web.yaml", "/src", "/src/deploy", "deploy/web.yaml"},
		{"../charts/out.yaml", "/src", "/src/deploy", "charts/out.yaml"},
		{"../../tmp/web.yaml", "/src", "/src/deploy", "file:///tmp/web.yaml"},
		{"/elsewhere/web.yaml", "/src", "/src/deploy", "file:///elsewhere/web.yaml"},
		{"/srcother/web.yaml", "/src", "", "file:///srcother/web.yaml"},
		{"/elsewhere/my web.yaml", "", "", "file:///elsewhere/my%20web.yaml"},
		{"my web.yaml", "/src", "/src", "my%20web.yaml"},
		{"a:b.yaml", "/src", "/src", "./a:b.yaml"},
		{"cluster:shop/web", "/src", "/src", "cluster:shop/web"},
		{"-", "/src", "", "stdin"},
		{"<stdin>", "/src", "", "stdin"},
	}
	for _, tt := range tests {
		if got := sarifURI(filepath.FromSlash(tt.file), filepath.FromSlash(tt.base), filepath.FromSlash(tt.work)); got != tt.want {
			t.Errorf("sarifURI(%q, %q, %q) = %q, want %q", tt.file, tt.base, tt.work, got, tt.want)
		}
	}
}

func TestSummary(t *testing.T) {
	warn := service.Diagnostic{Severity: service.SeverityWarning}
	fail := service.Diagnostic{Severity: service.SeverityError}
	tests := []struct {
		name string
		r    Report
		want string
	}{
		{"empty", Report{}, "0 Services checked, 0 errors, 0 warnings"},
		{"singular", Report{Checked: 1, Diagnostics: []service.Diagnostic{warn, fail}},
			"1 Service checked, 1 error, 1 warning"},
		{"issue example", Report{
			Checked:     12,
			Diagnostics: []service.Diagnostic{fail, fail, warn},
			Skipped:     map[string]int{"not a Service": 1, "not type LoadBalancer": 2, "never": 0},
		}, "12 Services checked, 2 errors, 1 warning (3 skipped: 2 not type LoadBalancer, 1 not a Service)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summary(tt.r, style.New(false)); got != tt.want {
				t.Errorf("Summary() = %q\nwant        %q", got, tt.want)
			}
		})
	}
}

func TestByteOffset(t *testing.T) {
	src := []byte("ab\nçd\n")
	tests := []struct {
		line, col int
		want      int
		ok        bool
	}{
		{1, 1, 0, true},
		{1, 3, 2, true},
		{2, 2, 5, true}, // ç is two bytes
		{3, 1, 7, true},
		{2, 9, 0, false},
		{4, 1, 0, false},
		{0, 1, 0, false},
	}
	for _, tt := range tests {
		got, ok := newSourceIndex(map[string][]byte{"f": src}).offset("f", tt.line, tt.col)
		if got != tt.want || ok != tt.ok {
			t.Errorf("byteOffset(%d:%d) = %d, %v; want %d, %v", tt.line, tt.col, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSourceLine(t *testing.T) {
	src := []byte("one\r\ntwo\nthree")
	tests := []struct {
		n    int
		want string
		ok   bool
	}{
		{1, "one", true}, {2, "two", true}, {3, "three", true}, {4, "", false}, {0, "", false},
	}
	for _, tt := range tests {
		got, ok := newSourceIndex(map[string][]byte{"f": src}).line("f", tt.n)
		if string(got) != tt.want || ok != tt.ok {
			t.Errorf("sourceLine(%d) = %q, %v; want %q, %v", tt.n, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := newSourceIndex(map[string][]byte{"f": []byte("a\n")}).line("f", 2); ok {
		t.Error("the empty remainder after a final newline is not a line")
	}
}

func FuzzText(f *testing.F) {
	f.Add([]byte(webYAML), 6, 5, "msg")
	f.Add([]byte("\t\tx\r\n"), 1, 200, "")
	f.Add([]byte{}, -3, -1, "hint")
	f.Fuzz(func(t *testing.T, src []byte, line, col int, text string) {
		// Cap the column so a huge value cannot make the fuzzer chase
		// allocation limits; the renderer clamps to the line anyway.
		col %= 1 << 16
		r := Report{
			Sources: map[string][]byte{"f.yaml": src},
			Diagnostics: []service.Diagnostic{{
				Code: "AZSVC0000", Severity: service.SeverityError, Message: text, Hint: text,
				Pos: service.Position{File: "f.yaml", Line: line, Column: col},
			}},
		}
		var buf bytes.Buffer
		if err := Text(&buf, r, style.New(true)); err != nil {
			t.Fatal(err)
		}
		var plain bytes.Buffer
		if err := Text(&plain, r, style.New(false)); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(plain.String(), "\n") {
			for _, c := range line {
				if !quote.Safe(c) && c != utf8.RuneError {
					t.Fatalf("raw %U reaches the terminal: %q", c, line)
				}
			}
		}
		if err := JSON(&buf, r); err != nil {
			t.Fatal(err)
		}
		if err := SARIF(&buf, r, SARIFOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}
