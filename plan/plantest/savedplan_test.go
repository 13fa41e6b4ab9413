package plantest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/planfile"
)

func TestSavedPlanRoundTripAndPreconditions(t *testing.T) {
	observed := observe(world(svcA))
	scope := scopeOf(false, svcA, svcB, svcI)
	p, res, err := Plan(world(svcA, svcB, svcI), withNodeSubnet(observed), scope)
	if err != nil {
		t.Fatal(err)
	}
	saved := planfile.New(p, "subscription sub / rg", map[string]string{"deploy/svc.yaml": "sha256:00"}, scope, planfile.Preconditions(p, res.Observed, res.Managed))
	raw, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	var back planfile.Plan
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	restored, err := back.Restore()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(stepLines(restored), stepLines(p)) {
		t.Fatalf("restored steps differ:\n%s\nvs\n%s", strings.Join(stepLines(restored), "\n"), strings.Join(stepLines(p), "\n"))
	}
	// the NSG rule's destination is still an AfterApply marker after the round trip
	for _, c := range restored.Changes {
		if c.ID().Kind == plan.KindFrontend && c.After != nil && c.ID().Name() == svcI.prefix() {
			if !plan.IsUnknown(c.After.Properties["privateIPAddress"]) {
				t.Errorf("Unknown lost in round trip: %v", c.After.Properties["privateIPAddress"])
			}
		}
	}
	if got := staleLines(&back, observed); len(got) != 0 {
		t.Fatalf("unchanged state reported stale: %v", got)
	}
	now := observe(world(svcA))
	// another team's NSG rule moves the NSG etag: not stale.
	now.Put(nsgRule("team-rule", 100, "Allow"))
	nsg, _ := now.Get(nsgID().Key())
	nsg.Etag = "W/\"moved\""
	if got := staleLines(&back, now); len(got) != 0 {
		t.Fatalf("unrelated change made the plan stale: %v", got)
	}
	// an owned rule changed: stale.
	rule, _ := now.Get(plan.ChildID(lbID(false), plan.KindRule, svcA.prefix()+"-TCP-80").Key())
	rule.Properties["frontendPort"] = 81.0
	// something created where the plan creates.
	now.Put(&plan.Resource{ID: lbID(true)})
	got := staleLines(&back, now)
	want := []string{
		`lb/kubernetes: changed (etag W/"kubernetes", now W/"kubernetes")`,
		"lb/kubernetes-internal: created",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stale report = %v, want %v", got, want)
	}
}

func staleLines(saved *planfile.Plan, now *plan.State) []string {
	var out []string
	for _, s := range planfile.Check(saved, now) {
		line := s.Address + ": " + map[planfile.StaleChange]string{planfile.StaleCreated: "created", planfile.StaleDeleted: "deleted", planfile.StaleChanged: "changed"}[s.Change]
		if s.Change == planfile.StaleChanged {
			line += " (etag " + s.Etag + ", now " + s.NowEtag + ")"
		}
		out = append(out, line)
	}
	return out
}
