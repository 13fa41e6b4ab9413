package apply

import (
	"context"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// siblingARM is fakeARM where the children written on their own endpoint
// carry their parent's etag, as NRP's do (arm-rules §2.3): a subnet write
// renews the etag of every subnet of its VNet.
type siblingARM struct{ *fakeARM }

func (s siblingARM) Write(ctx context.Context, step *plan.Step) (*plan.Resource, []*plan.Resource, error) {
	res, children, err := s.fakeARM.Write(ctx, step)
	if err != nil || res == nil {
		return res, children, err
	}
	parent, _ := step.Target.ParentID()
	for _, r := range s.resources {
		if p, ok := r.ID.ParentID(); ok && p.Key() == parent.Key() {
			r.Etag = res.Etag
		}
	}
	return res, children, nil
}

// TestRunChainsSiblingEtags: writes to several subnets of one VNet, each
// planned with the etag they shared at plan time, all apply: each sends
// the etag the previous sibling's write returned (issue 21 item 3). A
// subnet of another VNet with the same etag string keeps its own.
func TestRunChainsSiblingEtags(t *testing.T) {
	vnet := plan.NewID("s", "rg", plan.KindVirtualNetwork, "vnet")
	other := plan.NewID("s", "rg", plan.KindVirtualNetwork, "other")
	subnet := func(parent plan.ID, name string) *plan.Resource {
		return &plan.Resource{ID: plan.ChildID(parent, plan.KindSubnet, name), Etag: `W/"v0"`,
			Properties: map[string]any{"addressPrefix": "10.0.0.0/24", "privateLinkServiceNetworkPolicies": "Enabled"}}
	}
	observed := []*plan.Resource{subnet(vnet, "a"), subnet(vnet, "b"), subnet(vnet, "c"), subnet(other, "d")}
	var steps []*plan.Step
	for _, o := range observed {
		after := o.Clone()
		after.Properties["privateLinkServiceNetworkPolicies"] = "Disabled"
		steps = append(steps, &plan.Step{Op: plan.OpPut, Target: o.ID, Body: after, IfMatch: o.Etag,
			Changes: []*plan.Change{{Actions: []plan.Action{plan.ActionUpdate}, Before: o, After: after}}})
	}
	f := siblingARM{newFakeARM(observed...)}
	res, err := Run(context.Background(), &plan.Plan{Steps: steps}, f, Options{Clock: newFakeClock()})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := []string{`W/"v0"`, res.Applied[0].Resource.Etag, res.Applied[1].Resource.Etag, `W/"v0"`}
	for i, w := range f.writes {
		if w.IfMatch != want[i] {
			t.Errorf("write %d (%s) sent If-Match %q, want %q", i+1, w.Target.Address(), w.IfMatch, want[i])
		}
	}
}
