package service

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// StdinName is the file name of input read from "-".
const StdinName = "<stdin>"

// SkipReason says why a document was not taken as an Azure load-balanced
// Service.
type SkipReason string

const (
	SkipNotObject         SkipReason = "not a Kubernetes object"
	SkipNotService        SkipReason = "not a Service"
	SkipNotLoadBalancer   SkipReason = "not type LoadBalancer"
	SkipLoadBalancerClass SkipReason = "spec.loadBalancerClass set (not handled by CCM)"
)

// SkippedService is a Service manifest CCM would not reconcile.
type SkippedService struct {
	Namespace string // as written; "" when the manifest names none
	Name      string
	Reason    SkipReason
}

// Input is the result of reading manifests.
type Input struct {
	// Services are the LoadBalancer Services CCM would reconcile, in input
	// order.
	Services []*Service
	// Endpoints are the PrivateEndpoint objects (azsvc.io/v1alpha1), in
	// input order.
	Endpoints []*PrivateEndpoint
	// Topology holds the Node and EndpointSlice objects read, and, once
	// OverlayTopology ran, the cluster's.
	Topology Topology
	// Skipped counts documents that are not such Services, per reason.
	Skipped map[SkipReason]int
	// NotLoadBalanced are the Services read but skipped because CCM would
	// not reconcile them (another type, a loadBalancerClass): a manifest
	// that turns a cluster's Service into a ClusterIP one must hide the
	// cluster's copy (Overlay).
	NotLoadBalanced []SkippedService
	// Diagnostics are input problems (malformed YAML, wrong field types,
	// missing names, duplicates), sorted like Validate's.
	Diagnostics []Diagnostic
	// Files are the files read, in order; Sources holds each file's bytes
	// so renderers can quote the offending line.
	Files   []string
	Sources map[string][]byte

	read map[string]bool // cleaned paths already read
}

func newInput() *Input {
	return &Input{Skipped: map[SkipReason]int{}, Sources: map[string][]byte{}, read: map[string]bool{}}
}

// Load reads Service manifests from files, directories (recursively, files
// ending .yaml, .yml or .json, in sorted order) and "-" (stdin, named
// "<stdin>"), each bounded by DefaultMaxInputSize. Problems inside the input
// become Diagnostics; only an unreadable path is an error.
func Load(paths []string, stdin io.Reader) (*Input, error) {
	return LoadWith(paths, stdin, Options{})
}

// LoadWith is Load with options (see Options and read.go).
func LoadWith(paths []string, stdin io.Reader, opts Options) (*Input, error) {
	in := newInput()
	r := reader{in: in, stdin: stdin, limit: opts.maxInputSize()}
	for _, p := range paths {
		if err := r.path(p); err != nil {
			return nil, err
		}
	}
	in.finish()
	return in, nil
}

// Decode reads one file's bytes as Load does.
func Decode(name string, data []byte) *Input {
	return DecodeFiles([]string{name}, map[string][]byte{name: data})
}

// DecodeFiles reads files already in memory, in the order names gives, as
// Load reads them from disk: a saved plan's recorded manifests.
func DecodeFiles(names []string, data map[string][]byte) *Input {
	in := newInput()
	for _, name := range names {
		in.add(name, data[name])
	}
	in.finish()
	return in
}

func (in *Input) add(name string, data []byte) {
	in.Files = append(in.Files, name)
	in.Sources[name] = data
	isJSON := strings.EqualFold(filepath.Ext(name), ".json")
	for _, r := range decodeAll(name, data, splitDocuments(data, isJSON)) {
		in.Services = append(in.Services, r.services...)
		in.Endpoints = append(in.Endpoints, r.endpoints...)
		in.Topology.Nodes = append(in.Topology.Nodes, r.nodes...)
		in.Topology.EndpointSlices = append(in.Topology.EndpointSlices, r.slices...)
		in.Topology.NodesKnown = in.Topology.NodesKnown || len(r.nodes) > 0
		in.Topology.SlicesKnown = in.Topology.SlicesKnown || len(r.slices) > 0
		in.Diagnostics = append(in.Diagnostics, r.diags...)
		for _, reason := range r.skipped {
			in.Skipped[reason]++
		}
		in.NotLoadBalanced = append(in.NotLoadBalanced, r.notLB...)
	}
}

// decodeAll decodes documents in groups on every CPU; results keep
// document order.
func decodeAll(file string, data []byte, chunks []chunk) []docResult {
	workers := runtime.GOMAXPROCS(0)
	size := max(1, min(64, len(chunks)/(4*workers)))
	var groups [][]chunk
	for i := 0; i < len(chunks); i += size {
		groups = append(groups, chunks[i:min(i+size, len(chunks))])
	}
	results := make([]docResult, len(groups))
	decodeGroup := func(i int) {
		d := decoder{file: file}
		d.group(data, groups[i])
		results[i] = d.res
	}
	if workers = min(workers, len(groups)); workers <= 1 {
		for i := range groups {
			decodeGroup(i)
		}
		return results
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(groups); i = int(next.Add(1) - 1) {
				decodeGroup(i)
			}
		})
	}
	wg.Wait()
	return results
}

// finish reports duplicate Services and sorts the diagnostics.
func (in *Input) finish() {
	first := map[string]*Service{}
	kept := in.Services[:0]
	for _, s := range in.Services {
		if prev, dup := first[s.Key()]; dup {
			in.Diagnostics = append(in.Diagnostics, s.diag(CodeDuplicateService, "metadata.name",
				fmt.Sprintf("Service %s is defined twice; the first definition is at %s", s.Key(), prev.Source),
				"rename one of them or remove the duplicate; the second definition is ignored"))
			continue
		}
		first[s.Key()] = s
		kept = append(kept, s)
	}
	in.Services = kept
	in.dropDuplicateEndpoints()
	in.finishTopology()
	SortDiagnostics(in.Diagnostics)
}

// Validate returns the input's own diagnostics together with Validate's
// findings on its Services and ValidateEndpoints' on its PrivateEndpoints
// (the cluster's subscription unknown), sorted.
func (in *Input) Validate() []Diagnostic {
	ds := append(slices.Clone(in.Diagnostics), Validate(in.Services)...)
	ds = append(ds, ValidateEndpoints(in.Endpoints, in.Services, "")...)
	SortDiagnostics(ds)
	return ds
}

// SortDiagnostics orders diagnostics by file, line, column and code, then
// Service, field and message so that the order never depends on map order.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column < b.Pos.Column
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		if a.Service != b.Service {
			return a.Service < b.Service
		}
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		return a.Message < b.Message
	})
}
