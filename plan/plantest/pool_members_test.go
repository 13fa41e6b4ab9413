package plantest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

const tVNet = "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet"

func member(name, ip string, extra ...any) any {
	p := map[string]any{"ipAddress": ip}
	for i := 0; i+1 < len(extra); i += 2 {
		p[extra[i].(string)] = extra[i+1]
	}
	return map[string]any{"name": name, "properties": p}
}

func poolKey() plan.Key { return plan.ChildID(lbID(false), plan.KindBackendPool, tCluster).Key() }

// withMembers sets the cluster pool's members (and virtualNetwork, when
// vnet is set) in st.
func withMembers(t *testing.T, st *plan.State, vnet string, members ...any) {
	t.Helper()
	pool, ok := st.Get(poolKey())
	if !ok {
		t.Fatal("no cluster pool")
	}
	pool.Properties[plan.PoolMembersField] = members
	if vnet != "" {
		pool.Properties["virtualNetwork"] = map[string]any{"id": vnet}
	}
}

func poolChange(p *plan.Plan) *plan.Change {
	for _, c := range p.Changes {
		if c.Key() == poolKey() {
			return c
		}
	}
	return nil
}

// TestPoolMembers: an IP-based pool is planned as CCM edits the pool it
// read: members that stay keep their name, fields and order, new ones are
// appended, members without an address go, and the pool's virtualNetwork
// is ARM's, or its first member's; one LB PUT carries the change.
func TestPoolMembers(t *testing.T) {
	a := svc{name: "shop/web", uid: uid(1), ports: []int{80}}
	tests := []struct {
		name     string
		observed []any
		obsVNet  string
		desired  []any
		want     []any // nil: no change
		wantVNet any
	}{
		{"same nodes in another order: nothing to do",
			[]any{member("n2", "10.0.0.5", "adminState", "None"), member("n1", "10.0.0.4")}, tVNet,
			[]any{member("n1", "10.0.0.4"), member("n2", "10.0.0.5")}, nil, nil},
		{"a node joins, one leaves, a renamed member keeps its name",
			[]any{member("address1", "10.0.0.4"), member("n2", "10.0.0.5")}, tVNet,
			[]any{member("n1", "10.0.0.4"), member("n3", "10.0.0.6")},
			[]any{member("address1", "10.0.0.4"), member("n3", "10.0.0.6")}, map[string]any{"id": tVNet}},
		{"a member without an address goes",
			[]any{member("n1", "10.0.0.4"), map[string]any{"name": "nic", "properties": map[string]any{}}}, tVNet,
			[]any{member("n1", "10.0.0.4")},
			[]any{member("n1", "10.0.0.4")}, map[string]any{"id": tVNet}},
		{"the members' virtualNetwork moves to the pool",
			[]any{member("n1", "10.0.0.4", "virtualNetwork", map[string]any{"id": tVNet + "-old"})}, "",
			[]any{member("n1", "10.0.0.4")},
			[]any{member("n1", "10.0.0.4")}, map[string]any{"id": tVNet + "-old"}},
		{"a first member takes the desired virtualNetwork",
			nil, "",
			[]any{member("n1", "10.0.0.4")},
			[]any{member("n1", "10.0.0.4")}, map[string]any{"id": tVNet}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			desired := world(a)
			withMembers(t, desired, tVNet, tc.desired...)
			observed := observe(world(a))
			withMembers(t, observed, tc.obsVNet, tc.observed...)
			p := mustDiff(t, desired, observed, scopeOf(false, a))
			c := poolChange(p)
			if tc.want == nil {
				if c != nil {
					t.Fatalf("pool change %v %v", c.Actions, c.Attributes)
				}
				return
			}
			if c == nil || !c.Has(plan.ActionUpdate) || c.Reason != plan.ReasonNodesChanged {
				t.Fatalf("pool change %+v, want an update for nodes_changed:\n%v", c, stepLines(p))
			}
			if got := c.After.Properties[plan.PoolMembersField]; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("members %v, want %v", got, tc.want)
			}
			if got := c.After.Properties["virtualNetwork"]; !reflect.DeepEqual(got, tc.wantVNet) {
				t.Errorf("virtualNetwork %v, want %v", got, tc.wantVNet)
			}
			if len(p.Steps) != 1 || p.Steps[0].Target.Kind != plan.KindLoadBalancer {
				t.Errorf("steps %v, want one LB PUT", stepLines(p))
			}
		})
	}
}

// TestPoolMembersDrainEveryPool: a node leaving drains from the pools of
// both load balancers, one PUT each, and from no other resource.
func TestPoolMembersDrainEveryPool(t *testing.T) {
	pub := svc{name: "shop/web", uid: uid(1), ports: []int{80}}
	in := svc{name: "shop/db", uid: uid(2), ports: []int{5432}, internal: true}
	nodes := func(st *plan.State, ips ...string) {
		for _, internal := range []bool{false, true} {
			pool, _ := st.Get(plan.ChildID(lbID(internal), plan.KindBackendPool, tCluster).Key())
			var list []any
			for i, ip := range ips {
				list = append(list, member(fmt.Sprintf("n%d", i), ip))
			}
			pool.Properties[plan.PoolMembersField] = list
			pool.Properties["virtualNetwork"] = map[string]any{"id": tVNet}
		}
	}
	desired := world(pub, in)
	nodes(desired, "10.0.0.4", "10.0.0.5")
	observed := observe(world(pub, in))
	nodes(observed, "10.0.0.4", "10.0.0.5", "10.0.0.6")
	p := mustDiff(t, desired, observed, scopeOf(false, pub, in))
	if len(p.Changes) != 2 || len(p.Steps) != 2 {
		t.Fatalf("changes and steps %v, want the two pools in two LB PUTs", stepLines(p))
	}
	for _, st := range p.Steps {
		if st.Target.Kind != plan.KindLoadBalancer || len(st.Changes) != 1 || st.Changes[0].ID().Kind != plan.KindBackendPool {
			t.Errorf("step %v", stepLines(p))
		}
	}
}

// TestLocalServicePoolOwned: the per-Service pool of an in-scope ETP Local
// Service (multi-SLB) is CCM's, so azsvc plans its members; another
// Service's is left alone.
func TestLocalServicePoolOwned(t *testing.T) {
	a := svc{name: "shop/web", uid: uid(1), ports: []int{80}}
	add := func(st *plan.State, name string, ips ...string) {
		var list []any
		for i, ip := range ips {
			list = append(list, member(fmt.Sprintf("n%d", i), ip))
		}
		st.Put(&plan.Resource{ID: plan.ChildID(lbID(false), plan.KindBackendPool, name), Services: []string{a.name},
			Properties: map[string]any{plan.PoolMembersField: list, "virtualNetwork": map[string]any{"id": tVNet}}})
	}
	for _, tc := range []struct {
		pool    string
		blocked bool
	}{{"shop-web", false}, {"shop-other", true}} {
		desired := world(a)
		add(desired, tc.pool, "10.0.0.4")
		observed := observe(world(a))
		add(observed, tc.pool, "10.0.0.4", "10.0.0.5")
		p := mustDiff(t, desired, observed, scopeOf(false, a))
		if blocked := len(p.Blocked) > 0; blocked != tc.blocked || !blocked && len(p.Changes) != 1 {
			t.Errorf("%s: blocked %v, changes %v", tc.pool, p.Blocked, stepLines(p))
		}
	}
}
