package service

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/internal/cputime"
	"github.com/azsvc/azsvc/plan/service/internal/yamlfast"
	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// decodedView is everything a docResult says, in comparable form.
type decodedView struct {
	Services  []serviceView
	Endpoints []endpointView
	Diags     []Diagnostic
	Skipped   []SkipReason
	NotLB     []SkippedService
}

type serviceView struct {
	Service   *corev1.Service
	Source    Position
	Positions map[string]Position
}

type endpointView struct {
	Namespace, Name string
	Spec            EndpointSpec
	Source          Position
	Positions       map[string]Position
}

// decodeBoth decodes one file's bytes with the fast YAML path and with
// yaml.v3 alone.
func decodeBoth(name string, data []byte) (fast, v3 decodedView) {
	chunks := splitDocuments(data, strings.EqualFold(filepath.Ext(name), ".json"))
	view := func(v3Only bool) decodedView {
		d := decoder{file: name, v3Only: v3Only}
		d.group(data, chunks)
		out := decodedView{Diags: d.res.diags, Skipped: d.res.skipped, NotLB: d.res.notLB}
		for _, s := range d.res.services {
			s.indexPositions()
			out.Services = append(out.Services, serviceView{s.Service, s.Source, s.positions})
		}
		for _, e := range d.res.endpoints {
			out.Endpoints = append(out.Endpoints, endpointView{e.Namespace, e.Name, e.Spec, e.Source, e.positions})
		}
		return out
	}
	return view(false), view(true)
}

// checkFastDecode fails unless the fast path decodes data exactly as
// yaml.v3 alone does: Services, positions, diagnostics, skips.
func checkFastDecode(t *testing.T, name string, data []byte) {
	t.Helper()
	fast, v3 := decodeBoth(name, data)
	if !reflect.DeepEqual(fast, v3) {
		t.Fatalf("%s: the fast YAML path decodes differently (-yaml.v3 +fast):\n%s", name, cmp.Diff(v3, fast))
	}
}

// TestFastDecodeMatchesV3: every example, every test input and the
// benchmark stream decode the same with and without the fast path.
func TestFastDecodeMatchesV3(t *testing.T) {
	checkFastDecode(t, "bench.yaml", generateServices(200))
	for _, root := range []string{examplesDir, "testdata"} {
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !slices.Contains([]string{".yaml", ".yml", ".json"}, filepath.Ext(path)) {
				return err
			}
			data, err := os.ReadFile(path)
			checkFastDecode(t, path, data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzDecodeFastMatchesV3: for any input, the fast path changes nothing
// that decoding yields.
func FuzzDecodeFastMatchesV3(f *testing.F) {
	addExampleSeeds(f)
	f.Add(generateServices(3))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastDecode(t, "fuzz.yaml", data)
	})
}

// BenchmarkFastYAML5000 is BenchmarkYAMLFloor5000 with the fast parser:
// cutting the same stream into documents and parsing each, single-threaded.
func BenchmarkFastYAML5000(b *testing.B) {
	data := generateServices(5000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer cputime.Report(b)()
	for b.Loop() {
		var p yamlfast.Parser
		for _, c := range splitDocuments(data, false) {
			if p.Parse(c.data) == nil {
				b.Fatal("a generated document left the fast path")
			}
		}
	}
}
