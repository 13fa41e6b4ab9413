package graph

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// world is a graph.Input over an observed and a desired state.
type world struct {
	observed, desired *plan.State
	changes           []*plan.Change
}

func (w *world) Referrers(k plan.Key) []plan.Key             { return plan.NewIndex(w.observed).Referrers(k) }
func (w *world) Children(p plan.Key) []*plan.Resource        { return w.observed.Children(p) }
func (w *world) Observed(k plan.Key) (*plan.Resource, bool)  { return w.observed.Get(k) }
func (w *world) Desired(k plan.Key) (*plan.Resource, bool)   { return w.desired.Get(k) }
func (w *world) DesiredChildren(p plan.Key) []*plan.Resource { return w.desired.Children(p) }
func (w *world) Changes() []*plan.Change                     { return w.changes }
func (w *world) Blocked() []plan.Blocked                     { return nil }
func (w *world) Awaiting() []plan.Awaiting                   { return nil }
func (w *world) NoOp() int                                   { return 0 }

var (
	lbA    = plan.NewID("sub", "rg", plan.KindLoadBalancer, "a")
	lbB    = plan.NewID("sub", "rg", plan.KindLoadBalancer, "b")
	subnet = plan.ChildID(plan.NewID("sub", "rg", plan.KindVirtualNetwork, "vnet"), plan.KindSubnet, "s")
)

// frontend on lb named name: holding public IP pip, or with a private
// address ip ("static:" in front for a static one) in subnet.
func frontend(lb plan.ID, name, pip, ip string) *plan.Resource {
	props := map[string]any{}
	if pip != "" {
		props["publicIPAddress"] = plan.Ref(plan.NewID("sub", "rg", plan.KindPublicIP, pip))
	}
	if ip != "" {
		props["subnet"] = plan.Ref(subnet)
		props["privateIPAllocationMethod"] = "Dynamic"
		if s, ok := strings.CutPrefix(ip, "static:"); ok {
			ip, props["privateIPAllocationMethod"] = s, "Static"
		}
		props["privateIPAddress"] = ip
	}
	return &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, name), Properties: props}
}

// moveWorld plans the changes from before to after (frontends; load
// balancers a and b exist on both sides).
func moveWorld(before, after []*plan.Resource) *world {
	w := &world{observed: plan.NewState(), desired: plan.NewState()}
	for _, lb := range []plan.ID{lbA, lbB} {
		w.observed.Put(&plan.Resource{ID: lb, Properties: map[string]any{}})
		w.desired.Put(&plan.Resource{ID: lb, Properties: map[string]any{}})
	}
	byKey := map[plan.Key]*plan.Change{}
	for _, r := range before {
		w.observed.Put(r)
		byKey[r.Key()] = &plan.Change{Actions: []plan.Action{plan.ActionDelete}, Before: r}
	}
	for _, r := range after {
		w.desired.Put(r)
		if c, ok := byKey[r.Key()]; ok {
			c.Actions, c.After = []plan.Action{plan.ActionUpdate}, r
			continue
		}
		byKey[r.Key()] = &plan.Change{Actions: []plan.Action{plan.ActionCreate}, After: r}
	}
	for _, c := range byKey {
		w.changes = append(w.changes, c)
	}
	return w
}

// stepsOf renders a plan's writes as "lb:action name,..." per step.
func stepsOf(p *plan.Plan) string {
	var out []string
	for _, st := range p.Steps {
		var ch []string
		for _, c := range st.Changes {
			ch = append(ch, string(c.Actions[0])+" "+c.ID().Name())
		}
		out = append(out, st.Target.Name()+": "+strings.Join(ch, ", "))
	}
	return strings.Join(out, " | ")
}

// TestScheduleReleasesAddressesFirst: a frontend that takes a public IP or
// static private IP another frontend holds is written after the write that
// releases it, even when that puts a delete before a create.
func TestScheduleReleasesAddressesFirst(t *testing.T) {
	tests := []struct {
		name          string
		before, after []*plan.Resource
		want          string
	}{
		{"a public IP moves from b to a",
			[]*plan.Resource{frontend(lbB, "svc", "pip", "")}, []*plan.Resource{frontend(lbA, "svc", "pip", "")},
			"b: delete svc | a: create svc"},
		{"a static private IP moves from b to a",
			[]*plan.Resource{frontend(lbB, "svc", "", "10.0.0.9")}, []*plan.Resource{frontend(lbA, "svc", "", "static:10.0.0.9")},
			"b: delete svc | a: create svc"},
		{"an update that drops the public IP releases it",
			[]*plan.Resource{frontend(lbB, "old", "pip", "")},
			[]*plan.Resource{frontend(lbB, "old", "pip2", ""), frontend(lbA, "new", "pip", "")},
			"b: update old | a: create new"},
		{"a frontend renamed on its load balancer keeps its static IP in one write",
			[]*plan.Resource{frontend(lbA, "old", "", "static:10.0.0.9")}, []*plan.Resource{frontend(lbA, "new", "", "static:10.0.0.9")},
			"a: delete old, create new"},
		{"a dynamic private IP is not taken: creates first",
			[]*plan.Resource{frontend(lbB, "svc", "", "10.0.0.9")}, []*plan.Resource{frontend(lbA, "svc", "", "10.0.0.9")},
			"a: create svc | b: delete svc"},
		{"two load balancers swapping public IPs: a partial write first",
			[]*plan.Resource{frontend(lbA, "x", "pip1", ""), frontend(lbB, "y", "pip2", "")},
			[]*plan.Resource{frontend(lbA, "y", "pip2", ""), frontend(lbB, "x", "pip1", "")},
			"a: delete x | b: delete y, create x | a: create y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Schedule(moveWorld(tt.before, tt.after))
			if err != nil {
				t.Fatal(err)
			}
			if got := stepsOf(p); got != tt.want {
				t.Errorf("steps\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestScheduleAddressSwapCycle: two frontends updated to take each other's
// public IP cannot be ordered: the plan names the cycle.
func TestScheduleAddressSwapCycle(t *testing.T) {
	w := moveWorld([]*plan.Resource{frontend(lbA, "x", "pip1", ""), frontend(lbB, "y", "pip2", "")},
		[]*plan.Resource{frontend(lbA, "x", "pip2", ""), frontend(lbB, "y", "pip1", "")})
	_, err := Schedule(w)
	if err == nil || !strings.Contains(err.Error(), "dependency cycle") || !strings.Contains(err.Error(), "update lb/a/frontend/x") {
		t.Fatalf("err = %v, want a dependency cycle naming the updates", err)
	}
}
