package plantest

import (
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// A frontend that names a public IP (azure-pip-name, ccm-semantics §1.3
// #24) or a subnet (azure-load-balancer-internal-subnet, #2) that neither
// exists nor is planned: CCM fails that Service only. azsvc blocks it and
// plans the other Services of the same load balancers, whose writes must
// not carry the bad frontend (ARM would refuse the whole body:
// InvalidResourceReference, arm-rules §2.2).
func TestMissingFrontendReferencesFailOnlyTheirService(t *testing.T) {
	goodE := svc{name: "web/good", uid: uid(10), ports: []int{80}}
	byo := svc{name: "web/byo", uid: uid(11), ports: []int{80}}
	goodI := svc{name: "web/good-int", uid: uid(12), ports: []int{80}, internal: true}
	typo := svc{name: "web/typo", uid: uid(13), ports: []int{81}, internal: true}
	desired := world(goodE, byo, goodI, typo)

	// byo uses a user-assigned public IP by name: no managed one is planned.
	byoPIP := plan.NewID(tSub, tRG, plan.KindPublicIP, "byo-pip")
	desired.Delete(plan.NewID(tSub, tRG, plan.KindPublicIP, tCluster+"-"+byo.prefix()).Key())
	fe, _ := desired.Get(plan.ChildID(lbID(false), plan.KindFrontend, byo.prefix()).Key())
	fe.Properties["publicIPAddress"] = plan.Ref(byoPIP)
	for _, r := range desired.OfKind(plan.KindSecurityRule) {
		dests := plan.AsSecurityRule(r).Destinations()
		for i, d := range dests {
			if src, _, ok := plan.UnknownSource(d); ok && strings.Contains(string(src), strings.ToLower(byo.prefix())) {
				dests[i] = plan.AfterApply(byoPIP.Key(), "ipAddress")
			}
		}
		plan.SetDestinations(r.Properties, dests)
	}
	// typo names a subnet the VNet does not have.
	typoSubnet := plan.ID{Subscription: tSub, ResourceGroup: tRG, Kind: plan.KindSubnet, Names: []string{"vnet", "nodes-typo"}}
	fe, _ = desired.Get(plan.ChildID(lbID(true), plan.KindFrontend, typo.prefix()).Key())
	fe.Properties["subnet"] = plan.Ref(typoSubnet)

	observed := plan.NewState()
	observed.Put(&plan.Resource{ID: nsgID(), Location: "eastus"})
	nodes, _ := plan.ParseID(tSubnet)
	observed.Put(&plan.Resource{ID: nodes, Properties: map[string]any{"addressPrefix": "10.0.0.0/16"}})

	p, err := diffOf(desired, observed, scopeOf(false, goodE, byo, goodI, typo))
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, strings.Join(stepLines(p), "\n"))
	}
	var blocked []string
	for _, b := range p.Blocked {
		blocked = append(blocked, b.Code.String()+" "+b.Address+" "+strings.Join(b.Services, ","))
	}
	want := []string{"user_pip_missing pip/byo-pip web/byo", "subnet_missing vnet/vnet/subnet/nodes-typo web/typo"}
	slices.Sort(blocked)
	slices.Sort(want)
	if !slices.Equal(blocked, want) {
		t.Fatalf("blocked %q\nwant    %q", blocked, want)
	}
	for _, c := range p.Changes {
		if slices.Contains(c.Services, byo.name) && len(c.Services) == 1 || slices.Contains(c.Services, typo.name) && len(c.Services) == 1 {
			t.Errorf("planned %s for a failed Service", c.ID().Address())
		}
		if c.ID().Kind == plan.KindSecurityRule && c.After != nil {
			for _, d := range plan.AsSecurityRule(c.After).Destinations() {
				if src, _, ok := plan.UnknownSource(d); ok && src == byoPIP.Key() {
					t.Errorf("%s still allows the missing public IP's address", c.ID().Address())
				}
			}
		}
	}
	for _, st := range p.Steps {
		for _, k := range st.Children {
			if strings.Contains(k.Name(), byo.prefix()) || strings.Contains(k.Name(), typo.prefix()) {
				t.Errorf("%s %s carries %s of a failed Service", st.Op, st.Target.Address(), k.ID.Address())
			}
		}
	}
	for _, s := range []svc{goodE, goodI} {
		if _, ok := findChange(p, plan.ChildID(lbID(s.internal), plan.KindFrontend, s.prefix()).Key()); !ok {
			t.Errorf("%s: its frontend is not planned", s.name)
		}
	}
}

func findChange(p *plan.Plan, k plan.Key) (*plan.Change, bool) {
	for _, c := range p.Changes {
		if c.ID().Key() == k {
			return c, true
		}
	}
	return nil, false
}
