package plantest

import (
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

func TestOwnership(t *testing.T) {
	lb := lbID(false)
	other := plan.NewID(tSub, tRG, plan.KindLoadBalancer, "team-lb")
	pipID := func(n string) plan.ID { return plan.NewID(tSub, tRG, plan.KindPublicIP, n) }
	observed := plan.NewState()
	userPIP := &plan.Resource{ID: pipID("byo"), Properties: map[string]any{"ipAddress": "52.0.0.9"}}
	observed.Put(userPIP)
	scope := plan.Scope{Cluster: tCluster, Services: []plan.ServiceRef{
		{Name: "web/a", Prefix: svcA.prefix()},
		{Name: "web/pin", Prefix: "a" + uid(7), PinnedIPs: []string{"52.0.0.9", "10.0.0.50"}},
	}}
	desired := plan.NewState()
	desired.Put(&plan.Resource{ID: nsgID()})
	o := resolve.NewOwners(scope, desired, observed)
	foreignPrefix := "a" + uid(99)
	tests := []struct {
		name string
		r    *plan.Resource
		want resolve.Ownership
	}{
		{"cluster LB", &plan.Resource{ID: lb}, resolve.Ownership{Managed: true, Deletable: true}},
		{"internal LB", &plan.Resource{ID: lbID(true)}, resolve.Ownership{Managed: true, Deletable: true}},
		{"other LB", &plan.Resource{ID: other}, resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedLB, Value: "team-lb"}}},
		{"frontend by prefix", &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, svcA.prefix())}, resolve.Ownership{Managed: true, Deletable: true, Services: []string{"web/a"}}},
		{"frontend prefix case-insensitive", &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "A"+svcA.prefix()[1:]+"-nodes")}, resolve.Ownership{Managed: true, Deletable: true, Services: []string{"web/a"}}},
		{"frontend of an out-of-scope Service", &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, foreignPrefix)}, resolve.Ownership{Managed: true, Deletable: true, Foreign: true}},
		{"frontend shared by pinned private IP", &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "custom"), Properties: map[string]any{"privateIPAddress": "10.0.0.50"}},
			resolve.Ownership{Managed: true, Services: []string{"web/pin"}}},
		{"frontend shared by pinned public IP", &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "custom2"), Properties: map[string]any{"publicIPAddress": plan.Ref(userPIP.ID)}},
			resolve.Ownership{Managed: true, Services: []string{"web/pin"}}},
		{"unowned frontend", &plan.Resource{ID: plan.ChildID(lb, plan.KindFrontend, "team-fe")}, resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedPrefix}}},
		{"child of another LB", &plan.Resource{ID: plan.ChildID(other, plan.KindRule, svcA.prefix()+"-TCP-80")}, resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedParentLB}}},
		{"rule by prefix", &plan.Resource{ID: plan.ChildID(lb, plan.KindRule, svcA.prefix()+"-TCP-80")}, resolve.Ownership{Managed: true, Deletable: true, Services: []string{"web/a"}}},
		{"shared probe", &plan.Resource{ID: plan.ChildID(lb, plan.KindProbe, "cluster-service-shared-health-probe")}, resolve.Ownership{Managed: true, Deletable: true}},
		{"cluster pool", &plan.Resource{ID: plan.ChildID(lb, plan.KindBackendPool, "Kubernetes-IPv6")}, resolve.Ownership{Managed: true}},
		{"other pool", &plan.Resource{ID: plan.ChildID(lb, plan.KindBackendPool, "team")}, resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedPool, Value: "team"}}},
		{"managed PIP", &plan.Resource{ID: pipID("k-a"), Tags: map[string]string{plan.TagService: "web/a,other/x", plan.TagClusterName: tCluster}},
			resolve.Ownership{Managed: true, Deletable: true, Services: []string{"web/a"}, Foreign: true, ForeignServices: []string{"other/x"}}},
		{"legacy service tag", &plan.Resource{ID: pipID("k-l"), Tags: map[string]string{"service": "web/a"}},
			resolve.Ownership{Managed: true, Deletable: true, Services: []string{"web/a"}}},
		{"PIP of another cluster", &plan.Resource{ID: pipID("k-o"), Tags: map[string]string{plan.TagService: "web/a", plan.TagClusterName: "prod"}}, resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedOtherCluster, Value: "prod"}}},
		{"user-assigned PIP pinned", userPIP, resolve.Ownership{Managed: true, Services: []string{"web/pin"}}},
		{"user-assigned PIP not pinned", &plan.Resource{ID: pipID("free")}, resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedUserPIP}}},
		{"managed NSG rule", nsgRule("k8s-azure-lb_allow_IPv4_x", 500, "Allow"), resolve.Ownership{Managed: true, Deletable: true}},
		{"NSG rule at 4096", nsgRule("k8s-azure-lb_allow_IPv4_x", 4096, "Allow"), resolve.Ownership{Managed: true, Deletable: true}},
		{"NSG rule below band", nsgRule("k8s-azure-lb_allow_IPv4_x", 499, "Allow"), resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedPriority, Value: "499"}}},
		{"NSG rule other name", nsgRule("allow-ssh", 600, "Allow"), resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedRuleName}}},
		{"PLS by cluster tag", &plan.Resource{ID: plan.NewID(tSub, tRG, plan.KindPrivateLinkService, "p"), Tags: map[string]string{plan.TagClusterName: " Kubernetes ", plan.TagOwnerService: "web/a"}},
			resolve.Ownership{Managed: true, Deletable: true, Services: []string{"web/a"}}},
		{"PLS of another cluster", &plan.Resource{ID: plan.NewID(tSub, tRG, plan.KindPrivateLinkService, "p"), Tags: map[string]string{plan.TagClusterName: "prod"}},
			resolve.Ownership{Why: plan.Unmanaged{Code: plan.UnmanagedUntagged, Value: "kubernetes"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := o.Of(tt.r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLBOwnedByConfigNameOrInScopeFrontend(t *testing.T) {
	observed := plan.NewState()
	slb := plan.NewID(tSub, tRG, plan.KindLoadBalancer, "slb7")
	observed.Put(&plan.Resource{ID: slb})
	observed.Put(&plan.Resource{ID: plan.ChildID(slb, plan.KindFrontend, svcA.prefix())})
	cfgLB := plan.NewID(tSub, tRG, plan.KindLoadBalancer, "config-b-internal")
	for _, tt := range []struct {
		scope plan.Scope
		id    plan.ID
		want  bool
	}{
		{plan.Scope{Cluster: tCluster}, slb, false},
		{plan.Scope{Cluster: tCluster, Services: []plan.ServiceRef{svcA.ref()}}, slb, true},
		{plan.Scope{Cluster: tCluster}, cfgLB, false},
		{plan.Scope{Cluster: tCluster, LoadBalancerNames: []string{"Config-B"}}, cfgLB, true},
	} {
		o := resolve.NewOwners(tt.scope, plan.NewState(), observed)
		if got := o.Of(&plan.Resource{ID: tt.id}).Managed; got != tt.want {
			t.Errorf("%s with scope %+v: managed = %v, want %v", tt.id.Address(), tt.scope, got, tt.want)
		}
	}
}
