package engine

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/cmd/azsvc/internal/scalegen"
	"github.com/azsvc/azsvc/internal/cputime"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// BenchmarkPlanCore10000 measures the offline core of a plan at 10,000
// Services (issue 5): desired.Build and plan.Diff with ordering, against
// an empty cluster (baseline NSG only) and against the converged state
// read back from the emulator (an empty plan).
func BenchmarkPlanCore10000(b *testing.B) {
	cfg := scaleConfig(b)
	// The second set adds 500 Nodes: every load balancer's pool lists its
	// configuration's 25 nodes (1,000 members in 40 pools).
	sets := []struct {
		name string
		in   *Inputs
	}{
		{"", mustInputs(b, cfg, scaleManifests(10000), false)},
		{"nodes-500/", mustInputs(b, cfg, append(append(scaleManifests(10000), "\n---\n"...), scalegen.Nodes(500)...), false)},
	}
	for _, set := range sets {
		b.Run(set.name+"empty", func(b *testing.B) {
			tg := newMemTarget(b, set.in, emulator.Options{InstantOperations: true})
			benchPlanCore(b, set.in, cfg, mustRead(b, tg), func(n int) bool { return n > 0 })
		})
		b.Run(set.name+"matching", func(b *testing.B) {
			tg := appliedTarget(b, set.in, emulator.Options{InstantOperations: true})
			benchPlanCore(b, set.in, cfg, mustRead(b, tg), func(n int) bool { return n == 0 })
		})
	}
}

// benchPlanCore times desired (with the multi-SLB placement ARM holds),
// resolve, diff, graph and preflight of in against observed, and reports CPU time per op too: on a loaded 2-core
// machine wall time overstates it (the target is CPU: < 1 s at 10,000
// Services).
func benchPlanCore(b *testing.B, in *Inputs, cfg *cluster.Config, observed *plan.State, wantSteps func(int) bool) {
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.Report(b)()
	for range b.N {
		st, scope, diags := desired.BuildWith(in.Service.Services, cfg, desired.Options{Topology: &in.Service.Topology})
		// As Plan does (adoptUIDs): built again only when ARM holds a
		// Service elsewhere than the first build put it.
		if held := desired.HeldFrom(observed, cfg); !desired.SameLBs(st, scope, cfg, held) {
			st, scope, diags = desired.BuildWith(in.Service.Services, cfg, desired.Options{Topology: &in.Service.Topology, Held: held})
		}
		p, _, err := PlanAgainst(st, observed, scope)
		if err != nil || len(diags) > 0 || !wantSteps(len(p.Steps)) {
			b.Fatalf("plan: %v, %d diagnostics, %d steps", err, len(diags), len(p.Steps))
		}
	}
}

func mustRead(t testing.TB, tg *Target) *plan.State {
	t.Helper()
	observed, err := tg.Provider.Read(context.Background(), tg.Read)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return observed
}

// benchmarkPlan measures a whole plan (ARM reads through the SDK from the
// in-process emulator, then the diff) of n converged Services.
func benchmarkPlan(b *testing.B, n int) {
	in := mustInputs(b, scaleConfig(b), scaleManifests(n), false)
	tg := appliedTarget(b, in, emulator.Options{InstantOperations: true})
	c := tg.Emulator.Counters()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		p, _, err := Plan(context.Background(), in, tg)
		if err != nil || len(p.Steps) != 0 {
			b.Fatalf("plan: %v (%d steps)", err, len(p.Steps))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(c.Reads(""))/float64(b.N), "reads/op")
	b.ReportMetric(float64(c.Writes("")+c.Polls())/float64(b.N), "writes+polls/op")
}

func BenchmarkPlan1000(b *testing.B)  { benchmarkPlan(b, 1000) }
func BenchmarkPlan10000(b *testing.B) { benchmarkPlan(b, 10000) }

// BenchmarkApply1000 applies 1,000 Services to an empty emulator (issue 6
// "Done when": writes and wall time); the emulator's operations take one
// status poll each, as ARM's long-running operations do.
func BenchmarkApply1000(b *testing.B) {
	in := mustInputs(b, scaleConfig(b), scaleManifests(1000), false)
	var writes, polls int
	var wall time.Duration
	for range b.N {
		b.StopTimer()
		tg := newMemTarget(b, in, emulator.Options{})
		p := mustPlan(b, in, tg)
		c := tg.Emulator.Counters()
		c.Reset()
		start := time.Now()
		b.StartTimer()
		if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
			b.Fatalf("apply: %v", err)
		}
		b.StopTimer()
		wall += time.Since(start)
		writes, polls = writes+c.Writes(""), polls+c.Polls()
	}
	b.ReportMetric(float64(writes)/float64(b.N), "writes/op")
	b.ReportMetric(float64(polls)/float64(b.N), "polls/op")
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/op")
}

// TestPlanReadsGrowOnlyByPages: a plan's ARM reads are list calls per type
// and resource group (issue 5), so on a multi-SLB cluster 1,000 Services
// cost the reads of 100 plus exactly the extra list pages (the 10-vs-200
// single-LB case is TestPlanReadsDoNotGrowWithServices).
func TestPlanReadsGrowOnlyByPages(t *testing.T) {
	cfg := scaleConfig(t)
	reads := func(n, pageSize int) (int, map[string]int, *Target) {
		in := mustInputs(t, cfg, scaleManifests(n), false)
		tg := appliedTarget(t, in, emulator.Options{InstantOperations: true, PageSize: pageSize})
		if p := mustPlan(t, in, tg); len(p.Steps) != 0 {
			t.Fatalf("%d Services: plan after apply has %d steps", n, len(p.Steps))
		}
		c := tg.Emulator.Counters()
		if c.Writes("") != 0 || c.Count(emulator.MethodGet, "") != 0 {
			t.Fatalf("%d Services: a plan made %d writes and %d single GETs:\n%s", n, c.Writes(""), c.Count(emulator.MethodGet, ""), c)
		}
		return c.Reads(""), c.Snapshot(), tg
	}
	const unpaged = 1 << 20
	small, smallSnap, _ := reads(100, unpaged)
	large, largeSnap, _ := reads(1000, unpaged)
	if small != large {
		t.Fatalf("without paging, 100 Services take %d reads and 1,000 take %d\n100: %v\n1000: %v", small, large, smallSnap, largeSnap)
	}
	paged, pagedSnap, tg := reads(1000, 100)
	extra := 0
	for key, n := range pagedSnap {
		extra += n - largeSnap[key]
	}
	if want := extraPages(mustRead(t, tg), 100); paged-large != want || extra != want {
		t.Fatalf("1,000 Services with 100-item pages take %d reads, %d more than unpaged; want %d more (the extra pages)\n%v",
			paged, paged-large, want, pagedSnap)
	}
	t.Logf("plan reads: 100 Services %d, 1,000 Services %d (unpaged), %d with 100-item pages", small, large, paged)
}

// extraPages is how many more list calls pageSize-item pages need than one
// page per list, for the top-level resources observed.
func extraPages(observed *plan.State, pageSize int) int {
	perKind := map[plan.Kind]int{}
	for _, r := range observed.Resources() {
		if _, child := r.ID.ParentID(); !child {
			perKind[r.Kind()]++
		}
	}
	extra := 0
	for _, k := range perKind {
		if k > pageSize {
			extra += (k+pageSize-1)/pageSize - 1
		}
	}
	return extra
}

// TestApplyWritesOnePerChangedResource: apply writes each changed ARM
// resource once per step (issue 6 item 6): from empty, 1,000 Services on
// 20 standard LBs are one PUT per public IP, per LB and for the NSG (adding
// 50 Services to an existing LB is TestWriteCounts).
func TestApplyWritesOnePerChangedResource(t *testing.T) {
	cfg := scaleConfig(t)
	in := mustInputs(t, cfg, scaleManifests(1000), false)
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	p := mustPlan(t, in, tg)
	kinds := stepTargets(p)
	want := map[plan.Kind]int{plan.KindPublicIP: 250, plan.KindLoadBalancer: 2 * scaleLBs, plan.KindSecurityGroup: 1}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Fatalf("1,000 Services from empty: steps by kind %v, want %v", kinds, want)
	}
	requireWrites(t, in, tg, p, len(p.Steps))

}

// requireWrites applies p and checks the emulator saw exactly want writes,
// one per step, and that the result converged.
func requireWrites(t *testing.T, in *Inputs, tg *Target, p *plan.Plan, want int) {
	t.Helper()
	c := tg.Emulator.Counters()
	c.Reset()
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("apply: %v", err)
	}
	if c.Writes("") != want || len(p.Steps) != want {
		t.Fatalf("%d steps made %d writes, want %d:\n%s", len(p.Steps), c.Writes(""), want, c)
	}
	requireEmptyPlan(t, in, tg, "after apply")
}

// BenchmarkAdoptUIDs10000 measures a converged re-plan of 10,000 Services
// exported with kubectl get -o yaml and then stripped of metadata.uid (their
// status keeps the address): every prefix is found in ARM, the desired
// state is built a second time (adoptUIDs), and the plan is empty.
func BenchmarkAdoptUIDs10000(b *testing.B) {
	cfg := scaleConfig(b)
	manifests := scaleManifests(10000)
	tg := appliedTarget(b, mustInputs(b, cfg, manifests, false), emulator.Options{InstantOperations: true})
	observed := mustRead(b, tg)
	exported := mustInputs(b, cfg, exportedWithStatus(string(manifests), observed), false)
	b.ReportAllocs()
	b.ResetTimer()
	report := cputime.Report(b)
	for range b.N {
		in := *exported
		adoptUIDs(&in, observed, nil)
		p, _, err := PlanAgainst(in.Desired, observed, in.Scope)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Steps) != 0 || len(in.Adopted) != 10000 {
			b.Fatalf("plan of %d steps, %d adopted", len(p.Steps), len(in.Adopted))
		}
	}
	report()
}

var uidField = regexp.MustCompile(`\n  uid: ([0-9a-f-]+)\n`)

// exportedWithStatus drops every Service's metadata.uid and writes the
// frontend address ARM holds into its status, as an exported manifest has.
func exportedWithStatus(manifests string, observed *plan.State) []byte {
	addrs := map[string]string{}
	for _, r := range observed.All() {
		if r.Kind() == plan.KindFrontend {
			if ip := plan.AsFrontend(r).PrivateIP(); ip != "" {
				addrs[strings.ToLower(r.Name())] = ip
			}
		}
	}
	docs := strings.Split(manifests, "---\n")
	for i, doc := range docs {
		m := uidField.FindStringSubmatch(doc)
		if m == nil {
			continue
		}
		doc = strings.Replace(doc, m[0], "\n", 1)
		if ip := addrs[desired.Prefix(m[1])]; ip != "" {
			doc += "status:\n  loadBalancer:\n    ingress:\n    - ip: " + ip + "\n"
		}
		docs[i] = doc
	}
	return []byte(strings.Join(docs, "---\n"))
}
