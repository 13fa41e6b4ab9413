package apply

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
)

func run(t *testing.T, ctx context.Context, p *plan.Plan, f *fakeARM, clock *fakeClock) (*Result, *recorder, error) {
	t.Helper()
	rec := &recorder{}
	res, err := Run(ctx, p, f, Options{Observer: rec, Clock: clock})
	if res == nil {
		t.Fatal("Run returned a nil Result")
	}
	return res, rec, err
}

func addresses(srs []*StepResult) []string {
	out := []string{}
	for _, s := range srs {
		out = append(out, s.Address)
	}
	return out
}

func TestRunAppliesInOrderAndResolvesAfterApply(t *testing.T) {
	f := fixtureARM()
	res, rec, err := run(t, context.Background(), fixturePlan(), f, newFakeClock())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got, want := addresses(res.Applied), []string{"pip/kubernetes-a1", "lb/kubernetes", "nsg/aks-agentpool-nsg"}; !cmp.Equal(got, want) {
		t.Errorf("applied %v, want %v", got, want)
	}
	if len(f.writes) != 3 {
		t.Fatalf("%d writes, want 3", len(f.writes))
	}
	pip, lb, nsg := f.writes[0], f.writes[1], f.writes[2]
	if _, sent := pip.Body.Properties["ipAddress"]; sent {
		t.Errorf("public IP body sent an unknown ipAddress: %v", pip.Body.Properties)
	}
	if _, sent := lb.Children[1].Properties["privateIPAddress"]; sent {
		t.Errorf("dynamic frontend sent an unknown privateIPAddress: %v", lb.Children[1].Properties)
	}
	if lb.IfMatch != `W/"lb-0"` || nsg.IfMatch != `W/"nsg-0"` || pip.IfMatch != "" {
		t.Errorf("If-Match sent: pip %q lb %q nsg %q", pip.IfMatch, lb.IfMatch, nsg.IfMatch)
	}
	feIP := f.resources[feIntID.Key()].Properties["privateIPAddress"]
	pipIP := f.resources[pipID.Key()].Properties["ipAddress"]
	if got := nsg.Children[0].Properties["destinationAddressPrefix"]; got != feIP || got == nil {
		t.Errorf("NSG rule destination = %v, want the frontend's %v", got, feIP)
	}
	if got := nsg.Children[1].Properties["destinationAddressPrefixes"]; !cmp.Equal(got, []any{pipIP}) {
		t.Errorf("NSG rule destinations = %v, want [%v]", got, pipIP)
	}
	wantOut := []Output{
		{Address: "pip/kubernetes-a1", Field: "ipAddress", Value: pipIP},
		{Address: "lb/kubernetes/frontend/a1-snet", Field: "privateIPAddress", Value: feIP},
	}
	if !cmp.Equal(res.Outputs, wantOut) {
		t.Errorf("outputs %v, want %v", res.Outputs, wantOut)
	}
	if !plan.IsUnknown(fixturePlan().Steps[0].Body.Properties["ipAddress"]) {
		t.Fatal("fixture broken")
	}
	wantEvents := []string{
		"apply_start pip/kubernetes-a1", "apply_complete pip/kubernetes-a1",
		"apply_start lb/kubernetes", "apply_complete lb/kubernetes",
		"apply_start nsg/aks-agentpool-nsg", "apply_complete nsg/aks-agentpool-nsg",
		"summary",
	}
	if diff := cmp.Diff(wantEvents, rec.types()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if s := rec.events[len(rec.events)-1].Summary; s.Outcome != OutcomeComplete || s.Created != 6 || len(s.Applied) != 3 {
		t.Errorf("summary = %+v", s)
	}
}

func TestRunDoesNotModifyThePlan(t *testing.T) {
	p := fixturePlan()
	run(t, context.Background(), p, fixtureARM(), newFakeClock())
	if !plan.IsUnknown(p.Steps[0].Body.Properties["ipAddress"]) {
		t.Error("the plan's public IP lost its unknown ipAddress")
	}
	if _, _, ok := plan.UnknownSource(p.Steps[2].Children[0].Properties["destinationAddressPrefix"]); !ok {
		t.Error("the plan's NSG rule lost its AfterApply marker")
	}
}

// TestRunOneWritePerStep is the write-count property of issue 6 item 6: no
// faults, N steps, exactly N provider writes, one per step, in order.
func TestRunOneWritePerStep(t *testing.T) {
	for _, n := range []int{0, 1, 7, 50} {
		p := pipPlan(n)
		f := newFakeARM()
		if _, _, err := run(t, context.Background(), p, f, newFakeClock()); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(f.writes) != n {
			t.Fatalf("n=%d: %d writes", n, len(f.writes))
		}
		for i, w := range f.writes {
			if w.Target.Key() != p.Steps[i].Target.Key() {
				t.Errorf("n=%d: write %d went to %s, want %s", n, i, w.Target.Address(), p.Steps[i].Target.Address())
			}
		}
	}
}

func TestRunSecondWriteOfSameResource(t *testing.T) {
	first, second := lbStep(), lbStep()
	// The second write drops the public frontend and moves the rule onto
	// the internal one; it still carries the plan-time etag.
	second.Children = second.Children[1:]
	second.Children[1].Properties["frontendIPConfiguration"] = plan.Ref(feIntID)
	f := fixtureARM()
	res, _, err := run(t, context.Background(), &plan.Plan{Steps: []*plan.Step{pipStep(), first, second}}, f, newFakeClock())
	if err != nil {
		t.Fatalf("Run: %v (a second write must match the etag the first returned, not the plan's)", err)
	}
	if got, want := f.writes[2].IfMatch, res.Applied[1].Resource.Etag; got != want {
		t.Errorf("second LB write sent If-Match %q, want %q from the first write", got, want)
	}
	if got := f.writes[2].Children[0].Properties["privateIPAddress"]; got == nil {
		t.Error("second LB write dropped the frontend's assigned private IP instead of keeping it")
	}
}

func TestRunUnresolvableMarkerFailsBeforeWriting(t *testing.T) {
	p := &plan.Plan{Steps: []*plan.Step{pipStep(), nsgStep()}} // no LB step: the frontend IP never comes
	f := fixtureARM()
	res, _, err := run(t, context.Background(), p, f, newFakeClock())
	if !errors.Is(err, ErrPartial) {
		t.Fatalf("err = %v, want ErrPartial", err)
	}
	if len(f.writes) != 1 {
		t.Errorf("%d writes, want 1 (the NSG step must not be sent)", len(f.writes))
	}
	if len(res.Failed) != 1 || res.Failed[0].Attempts != 0 {
		t.Fatalf("failed = %+v", res.Failed)
	}
	want := "nsg/aks-agentpool-nsg/rule/a1-TCP-80-internal: properties.destinationAddressPrefix: known after apply from lb/kubernetes/frontend/a1-snet privateIPAddress, but no earlier step wrote it"
	if got := res.Failed[0].Failure.Message; got != want {
		t.Errorf("failure message:\n got %s\nwant %s", got, want)
	}
}

func TestRunIfMatchAcrossWritesOfOneResource(t *testing.T) {
	observed := &plan.Resource{ID: pipID, Etag: `W/"p0"`, Properties: map[string]any{"ipAddress": "20.9.9.9"}}
	put := func(ifMatch string) *plan.Step {
		body := &plan.Resource{ID: pipID, Properties: map[string]any{"idleTimeoutInMinutes": 4}}
		return &plan.Step{Op: plan.OpPut, Target: pipID, Body: body, IfMatch: ifMatch,
			Changes: []*plan.Change{{Actions: []plan.Action{plan.ActionUpdate}, Before: observed, After: body}}}
	}
	del := &plan.Step{Op: plan.OpDelete, Target: pipID, IfMatch: `W/"p0"`,
		Changes: []*plan.Change{{Actions: []plan.Action{plan.ActionDelete}, Before: observed}}}
	tests := []struct {
		name  string
		steps []*plan.Step
		want  []string // If-Match of each write; "first" = the etag the first write returned
	}{
		{"update then delete", []*plan.Step{put(`W/"p0"`), del}, []string{`W/"p0"`, "first"}},
		{"delete then create (replace)", []*plan.Step{del, put("")}, []string{`W/"p0"`, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeARM(observed)
			res, _, err := run(t, context.Background(), &plan.Plan{Steps: tt.steps}, f, newFakeClock())
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for i, w := range f.writes {
				want := tt.want[i]
				if want == "first" {
					want = res.Applied[0].Resource.Etag
				}
				if w.IfMatch != want {
					t.Errorf("write %d sent If-Match %q, want %q", i+1, w.IfMatch, want)
				}
			}
		})
	}
}

func TestRunRecordsStepOutcomeAndDuration(t *testing.T) {
	f, clock := fixtureARM(), newFakeClock()
	f.onWrite = func(n int, _ *plan.Step) { clock.advance(time.Duration(n) * time.Second) }
	f.faults["nsg/aks-agentpool-nsg"] = []error{&armErr{status: 400, code: "SecurityRuleConflict", msg: "same priority"}}
	res, _, _ := run(t, context.Background(), fixturePlan(), f, clock)
	var got []string
	for _, l := range [][]*StepResult{res.Applied, res.Failed, res.NotAttempted} {
		for _, s := range l {
			got = append(got, fmt.Sprintf("%s %s %s %s %d", s.Address, s.Action, s.Outcome, s.Duration, s.Attempts))
		}
	}
	want := []string{
		"pip/kubernetes-a1 create applied 1s 1",
		"lb/kubernetes update applied 2s 1",
		"nsg/aks-agentpool-nsg update failed 3s 1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("step results (-want +got):\n%s", diff)
	}
	if res.Elapsed != 6*time.Second {
		t.Errorf("elapsed %s, want 6s", res.Elapsed)
	}
}

func TestRunRejectsMalformedStep(t *testing.T) {
	tests := []struct {
		name string
		step *plan.Step
		want string
	}{
		{"unknown op", &plan.Step{Op: "patch", Target: pipID}, `pip/kubernetes-a1: unknown step op "patch"`},
		{"put without body", &plan.Step{Op: plan.OpPut, Target: pipID}, "pip/kubernetes-a1: put step has no body"},
	}
	for _, tt := range tests {
		f := newFakeARM()
		res, _, err := run(t, context.Background(), &plan.Plan{Steps: []*plan.Step{tt.step}}, f, newFakeClock())
		if !errors.Is(err, ErrFailed) || len(f.writes) != 0 || res.Failed[0].Failure.Message != tt.want {
			t.Errorf("%s: err %v, %d writes", tt.name, err, len(f.writes))
		}
	}
}

// A write ARM accepted whose operation then failed may have changed Azure:
// even as the first step it is a partial apply, not "nothing applied".
func TestRunFailedOperationIsPartial(t *testing.T) {
	f := fixtureARM()
	f.faults["pip/kubernetes-a1"] = []error{&armErr{status: 200, code: "InternalServerError", msg: "failed", failedOp: true}}
	res, _, err := run(t, context.Background(), fixturePlan(), f, newFakeClock())
	if !errors.Is(err, ErrPartial) || len(res.Applied) != 0 || !res.Failed[0].Failure.OperationFailed || res.Failed[0].Failure.Status != 0 {
		t.Errorf("err %v, applied %d, failure %+v", err, len(res.Applied), res.Failed[0].Failure)
	}
}

// A value copied from a child that a later write of its parent removed is
// not resolved from the stale first result.
func TestRunForgetsChildrenARewriteRemoved(t *testing.T) {
	second := lbStep()
	second.Children = []*plan.Resource{second.Children[0]} // drops the internal frontend
	p := &plan.Plan{Steps: []*plan.Step{pipStep(), lbStep(), second, nsgStep()}}
	res, _, err := run(t, context.Background(), p, fixtureARM(), newFakeClock())
	if !errors.Is(err, ErrPartial) || len(res.Failed) != 1 || res.Failed[0].Address != "nsg/aks-agentpool-nsg" {
		t.Errorf("err %v; want the NSG step to fail on the removed frontend's IP", err)
	}
}
