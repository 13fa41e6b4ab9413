package plan

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestSavedPlanRoundTripAndPreconditions(t *testing.T) {
	observed := observe(world(svcA))
	scope := scopeOf(false, svcA, svcB, svcI)
	p := mustDiff(t, world(svcA, svcB, svcI), observed, scope)
	saved := NewSavedPlan(p, "subscription sub / rg", map[string]string{"deploy/svc.yaml": "sha256:00"}, scope)
	raw, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	var back SavedPlan
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
		if c.ID().Kind == KindFrontend && c.After != nil && c.ID().Name() == svcI.prefix() {
			if !IsUnknown(c.After.Properties["privateIPAddress"]) {
				t.Errorf("Unknown lost in round trip: %v", c.After.Properties["privateIPAddress"])
			}
		}
	}
	if got := CheckPreconditions(&back, observed); len(got) != 0 {
		t.Fatalf("unchanged state reported stale: %v", got)
	}
	now := observe(world(svcA))
	// another team's NSG rule moves the NSG etag: not stale.
	now.Put(nsgRule("team-rule", 100, "Allow"))
	nsg, _ := now.Get(nsgID().Key())
	nsg.Etag = "W/\"moved\""
	if got := CheckPreconditions(&back, now); len(got) != 0 {
		t.Fatalf("unrelated change made the plan stale: %v", got)
	}
	// an owned rule changed: stale.
	rule, _ := now.Get(ChildID(lbID(false), KindRule, svcA.prefix()+"-TCP-80").Key())
	rule.Properties["frontendPort"] = 81.0
	// something created where the plan creates.
	now.Put(&Resource{ID: lbID(true)})
	got := CheckPreconditions(&back, now)
	want := []string{
		`lb/kubernetes: changed since the plan was made (etag W/"kubernetes", now W/"kubernetes")`,
		"lb/kubernetes-internal: created since the plan was made",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stale report = %v, want %v", got, want)
	}
}
