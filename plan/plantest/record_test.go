package plantest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/diff"
	"github.com/azsvc/azsvc/plan/planfile"
)

// TestRecordFindsDriftAfterApply: the record a saved plan keeps survives
// the round trip; once the plan is applied, nothing is drift; an edit of
// an owned resource in Azure is, and a change of the inputs is not (it is
// only a change of the next plan).
func TestRecordFindsDriftAfterApply(t *testing.T) {
	desired := world(svcA, svcI)
	scope := scopeOf(false, svcA, svcI)
	p, res, err := Plan(desired, plan.NewState(), scope)
	if err != nil {
		t.Fatal(err)
	}
	saved := planfile.New(p, "t", nil, scope, nil)
	saved.Record = planfile.RecordOf(p, res)
	raw, err := json.Marshal(saved)
	if err != nil {
		t.Fatal(err)
	}
	var back planfile.Plan
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	record, planned, err := back.RecordState()
	if err != nil {
		t.Fatal(err)
	}
	drift := func(now *plan.State) []string {
		var out []string
		for _, c := range diff.Drift(record, planned, plan.NewIndex(now)) {
			line := c.ID().Address()
			for _, a := range c.Attributes {
				line += " " + strings.Join(a.Path, ".")
			}
			out = append(out, line)
		}
		return out
	}
	if got := drift(plan.NewState()); len(got) != 0 {
		t.Errorf("a plan not applied yet shows drift: %q", got)
	}
	applied := observe(desired)
	if got := drift(applied); len(got) != 0 {
		t.Errorf("the applied plan shows drift: %q", got)
	}
	rule, _ := applied.Get(plan.ChildID(lbID(false), plan.KindRule, svcA.prefix()+"-TCP-80").Key())
	rule.Properties["idleTimeoutInMinutes"] = 30.0
	fe, _ := applied.Get(plan.ChildID(lbID(true), plan.KindFrontend, svcI.prefix()).Key())
	fe.Properties["privateIPAddress"] = "10.1.2.3" // Azure's to assign: not drift
	got := drift(applied)
	if want := "lb/kubernetes/rule/" + svcA.prefix() + "-TCP-80 properties.idleTimeoutInMinutes"; len(got) != 1 || got[0] != want {
		t.Errorf("drift %q, want [%s]", got, want)
	}
	// A 2.0 file has no record: --since refuses it.
	back.Record = nil
	if _, _, err := back.RecordState(); err == nil || !strings.Contains(err.Error(), "no record") {
		t.Errorf("record-less plan: %v", err)
	}
}
