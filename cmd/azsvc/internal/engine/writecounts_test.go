package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

const (
	armLB  = "Microsoft.Network/loadBalancers"
	armNSG = "Microsoft.Network/networkSecurityGroups"
	armPIP = "Microsoft.Network/publicIPAddresses"
)

// publicServices writes n public Services, numbered from first, to a
// manifest file: each gets its own managed public IP and frontend, and
// they all share one NSG allow rule (TCP 80 from the Internet).
func publicServices(t testing.TB, first, n int) string {
	t.Helper()
	var docs []string
	for i := first; i < first+n; i++ {
		docs = append(docs, fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: app-%03d
  namespace: load
  uid: %08x-1111-4222-8333-%012x
spec:
  type: LoadBalancer
  selector: {app: app-%03d}
  ports:
  - {name: http, protocol: TCP, port: 80, targetPort: 8080, nodePort: %d}
`, i, i, i, i, 30000+i))
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("services-%d-%d.yaml", first, n))
	if err := os.WriteFile(path, []byte(strings.Join(docs, "---\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWriteCounts asserts ARM call counts (DESIGN.md "Writes are grouped
// per ARM resource"; "ARM call counts are asserted, not just printed").
func TestWriteCounts(t *testing.T) {
	t.Run("adding 50 public Services", testAddedServicesWrites)
	t.Run("plan reads for 10 and 200 Services", testPlanReadsDoNotGrow)
}

// testAddedServicesWrites: adding 50 public Services to a cluster that
// already has some is one LB write, one NSG write and the 50 public IP
// creations.
func testAddedServicesWrites(t *testing.T) {
	const existing, added = 5, 50
	old := publicServices(t, 0, existing)
	in := loadExample(t, old)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	mustApply(t, mustPlan(t, in, tg), tg)

	grown := loadExample(t, old, publicServices(t, existing, added))
	tg.Read = ReadScopeOf(grown)
	p := mustPlan(t, grown, tg)
	counters := tg.Emulator.Counters()
	counters.Reset()
	mustApply(t, p, tg)

	got := map[string]int{
		"LB writes":        counters.Writes(armLB),
		"NSG writes":       counters.Writes(armNSG),
		"PIP creations":    counters.Count(emulator.MethodPut, armPIP),
		"all ARM writes":   counters.Writes(""),
		"steps planned":    len(p.Steps),
		"PIPs after apply": countPIPs(t, tg, grown),
	}
	want := map[string]int{
		"LB writes": 1, "NSG writes": 1, "PIP creations": added, "all ARM writes": added + 2,
		"steps planned": added + 2, "PIPs after apply": existing + added,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %d, want %d", k, got[k], w)
		}
	}
	if t.Failed() {
		t.Logf("emulator counters:\n%s", counters)
	}
	requireEmpty(t, "second plan", mustPlan(t, grown, tg))
}

func countPIPs(t testing.TB, tg *Target, in *Inputs) int {
	t.Helper()
	_, res, err := Plan(t.Context(), in, tg)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range res.Observed.State.OfKind(plan.KindPublicIP) {
		if strings.HasPrefix(r.Name(), in.Config.ClusterName+"-a") {
			n++
		}
	}
	return n
}

// testPlanReadsDoNotGrow: a plan lists each resource type once
// per resource group, whatever the number of Services (providers/azure
// read.go). Pages are large enough here for 200 Services' public IPs to
// fit one page: paging is the one thing that grows with size.
func testPlanReadsDoNotGrow(t *testing.T) {
	reads := map[int]int{}
	for _, n := range []int{10, 200} {
		in := loadExample(t, publicServices(t, 0, n))
		tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true, PageSize: 1000})
		mustApply(t, mustPlan(t, in, tg), tg)
		counters := tg.Emulator.Counters()
		counters.Reset()
		requireEmpty(t, fmt.Sprintf("plan of %d applied Services", n), mustPlan(t, in, tg))
		reads[n] = counters.Reads("")
		if gets := counters.Count(emulator.MethodGet, ""); gets != 0 {
			t.Errorf("%d Services: %d single-resource GETs, want list calls only:\n%s", n, gets, counters)
		}
	}
	if reads[10] != reads[200] || reads[10] == 0 {
		t.Errorf("list calls: %d for 10 Services, %d for 200; want the same, non-zero", reads[10], reads[200])
	}
}
