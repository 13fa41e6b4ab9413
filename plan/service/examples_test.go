package service

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const examplesDir = "../../examples"

// validExamples lists every examples/<scenario>/service.yaml except the
// invalid set, and the manifests of a repository's deploy/ directory
// (examples/gitops).
func validExamples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*", "service.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	repos, err := filepath.Glob(filepath.Join(examplesDir, "*", "deploy", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, repos...)
	if len(files) < 12 {
		t.Fatalf("only %d example scenarios", len(files))
	}
	return files
}

// TestExamplesValid: the valid examples load and validate without errors;
// the only warnings are the ones shown on purpose: the basic-SKU mode
// annotation, and the probes example's global protocol that no port takes.
func TestExamplesValid(t *testing.T) {
	in, err := Load(validExamples(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range append(in.Diagnostics, Validate(in.Services)...) {
		if d.Code != CodeModeIgnored && (d.Code != CodeIgnoredInContext || d.Field != AnnotationPath(AnnProbeProtocol)) {
			t.Errorf("%s: %s[%s] %s", d.Pos, d.Severity, d.Code, d.Message)
		}
	}
	if len(in.Services) < 20 {
		t.Errorf("only %d Services in the examples", len(in.Services))
	}
	var withoutUID int
	for _, s := range in.Services {
		if s.UID == "" {
			withoutUID++
		}
	}
	if withoutUID < 2 || withoutUID > len(in.Services)/2 {
		t.Errorf("%d of %d example Services lack metadata.uid; want a couple", withoutUID, len(in.Services))
	}
}

func TestExamplesSkipped(t *testing.T) {
	in, err := Load([]string{filepath.Join(examplesDir, "skipped", "service.yaml")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[SkipReason]int{SkipNotService: 1, SkipNotLoadBalancer: 1, SkipLoadBalancerClass: 1}
	if diff := cmp.Diff(want, in.Skipped); diff != "" || len(in.Services) != 0 || len(in.Diagnostics) != 0 {
		t.Errorf("skipped (-want +got):\n%s\nservices %d, diagnostics %v", diff, len(in.Services), in.Diagnostics)
	}
}

// TestExamplesCoverEveryAnnotation: each annotation of the registry (but
// the removed one) appears in a valid example; per-port templates count
// with any port.
func TestExamplesCoverEveryAnnotation(t *testing.T) {
	in, err := Load(validExamples(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, s := range in.Services {
		for k := range s.Annotations {
			if _, param, ok := ParsePortKey(k); ok {
				used[portTemplate(param)] = true
			}
			used[k] = true
		}
	}
	for _, a := range Annotations() {
		if !a.Removed && !used[a.Key] {
			t.Errorf("no valid example uses %s", a.Key)
		}
	}
}

var expectRe = regexp.MustCompile(`(?m)^# expect: (AZSVC\d{4}) at (\d+):(\d+)$`)

// TestExamplesInvalid: each file under examples/invalid produces exactly
// the diagnostics its "# expect: CODE at LINE:COL" comments name.
func TestExamplesInvalid(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(examplesDir, "invalid", "*.yaml"))
	if err != nil || len(files) < 10 {
		t.Fatalf("invalid examples: %v, %d files", err, len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, m := range expectRe.FindAllStringSubmatch(string(data), -1) {
				want = append(want, fmt.Sprintf("%s %s:%s", m[1], m[2], m[3]))
			}
			if len(want) == 0 {
				t.Fatal("no # expect: lines")
			}
			in, err := Load([]string{f}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range in.Validate() {
				got = append(got, fmt.Sprintf("%s %d:%d", d.Code, d.Pos.Line, d.Pos.Column))
			}
			slices.Sort(want)
			slices.Sort(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExampleNamesUnique: validating the whole examples tree must not
// report duplicates across scenarios (the invalid duplicate case aside).
func TestExampleNamesUnique(t *testing.T) {
	in, err := Load([]string{examplesDir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range in.Diagnostics {
		// exported-without-uid/exported.yaml and gitops/deploy/store.yaml
		// repeat their cluster.yaml on purpose: the same Services as git and
		// the cluster hold them.
		if d.Code == CodeDuplicateService && !strings.HasSuffix(d.Pos.File, "invalid/duplicate.yaml") &&
			!strings.HasSuffix(d.Pos.File, "exported-without-uid/exported.yaml") && !strings.HasSuffix(d.Pos.File, "gitops/deploy/store.yaml") {
			t.Errorf("%s: %s", d.Pos, d.Message)
		}
	}
}
