package plan

import (
	"reflect"
	"testing"
)

func TestOwnership(t *testing.T) {
	lb := lbID(false)
	other := NewID(tSub, tRG, KindLoadBalancer, "team-lb")
	pipID := func(n string) ID { return NewID(tSub, tRG, KindPublicIP, n) }
	observed := NewState()
	userPIP := &Resource{ID: pipID("byo"), Properties: map[string]any{"ipAddress": "52.0.0.9"}}
	observed.Put(userPIP)
	scope := Scope{Cluster: tCluster, Services: []ServiceRef{
		{Name: "web/a", Prefix: svcA.prefix()},
		{Name: "web/pin", Prefix: "a" + uid(7), PinnedIPs: []string{"52.0.0.9", "10.0.0.50"}},
	}}
	desired := NewState()
	desired.Put(&Resource{ID: nsgID()})
	o := newOwners(scope, desired, observed)
	foreignPrefix := "a" + uid(99)
	tests := []struct {
		name string
		r    *Resource
		want ownership
	}{
		{"cluster LB", &Resource{ID: lb}, ownership{managed: true, deletable: true}},
		{"internal LB", &Resource{ID: lbID(true)}, ownership{managed: true, deletable: true}},
		{"other LB", &Resource{ID: other}, ownership{why: Unmanaged{Code: UnmanagedLB, Value: "team-lb"}}},
		{"frontend by prefix", &Resource{ID: ChildID(lb, KindFrontend, svcA.prefix())}, ownership{managed: true, deletable: true, services: []string{"web/a"}}},
		{"frontend prefix case-insensitive", &Resource{ID: ChildID(lb, KindFrontend, "A"+svcA.prefix()[1:]+"-nodes")}, ownership{managed: true, deletable: true, services: []string{"web/a"}}},
		{"frontend of an out-of-scope Service", &Resource{ID: ChildID(lb, KindFrontend, foreignPrefix)}, ownership{managed: true, deletable: true, foreign: true}},
		{"frontend shared by pinned private IP", &Resource{ID: ChildID(lb, KindFrontend, "custom"), Properties: map[string]any{"privateIPAddress": "10.0.0.50"}},
			ownership{managed: true, services: []string{"web/pin"}}},
		{"frontend shared by pinned public IP", &Resource{ID: ChildID(lb, KindFrontend, "custom2"), Properties: map[string]any{"publicIPAddress": Ref(userPIP.ID)}},
			ownership{managed: true, services: []string{"web/pin"}}},
		{"unowned frontend", &Resource{ID: ChildID(lb, KindFrontend, "team-fe")}, ownership{why: Unmanaged{Code: UnmanagedPrefix}}},
		{"child of another LB", &Resource{ID: ChildID(other, KindRule, svcA.prefix()+"-TCP-80")}, ownership{why: Unmanaged{Code: UnmanagedParentLB}}},
		{"rule by prefix", &Resource{ID: ChildID(lb, KindRule, svcA.prefix()+"-TCP-80")}, ownership{managed: true, deletable: true, services: []string{"web/a"}}},
		{"shared probe", &Resource{ID: ChildID(lb, KindProbe, "cluster-service-shared-health-probe")}, ownership{managed: true, deletable: true}},
		{"cluster pool", &Resource{ID: ChildID(lb, KindBackendPool, "Kubernetes-IPv6")}, ownership{managed: true}},
		{"other pool", &Resource{ID: ChildID(lb, KindBackendPool, "team")}, ownership{why: Unmanaged{Code: UnmanagedPool, Value: "team"}}},
		{"managed PIP", &Resource{ID: pipID("k-a"), Tags: map[string]string{TagService: "web/a,other/x", TagClusterName: tCluster}},
			ownership{managed: true, deletable: true, services: []string{"web/a"}, foreign: true, foreignServices: []string{"other/x"}}},
		{"legacy service tag", &Resource{ID: pipID("k-l"), Tags: map[string]string{"service": "web/a"}},
			ownership{managed: true, deletable: true, services: []string{"web/a"}}},
		{"PIP of another cluster", &Resource{ID: pipID("k-o"), Tags: map[string]string{TagService: "web/a", TagClusterName: "prod"}}, ownership{why: Unmanaged{Code: UnmanagedOtherCluster, Value: "prod"}}},
		{"user-assigned PIP pinned", userPIP, ownership{managed: true, services: []string{"web/pin"}}},
		{"user-assigned PIP not pinned", &Resource{ID: pipID("free")}, ownership{why: Unmanaged{Code: UnmanagedUserPIP}}},
		{"managed NSG rule", nsgRule("k8s-azure-lb_allow_IPv4_x", 500, "Allow"), ownership{managed: true, deletable: true}},
		{"NSG rule at 4096", nsgRule("k8s-azure-lb_allow_IPv4_x", 4096, "Allow"), ownership{managed: true, deletable: true}},
		{"NSG rule below band", nsgRule("k8s-azure-lb_allow_IPv4_x", 499, "Allow"), ownership{why: Unmanaged{Code: UnmanagedPriority, Value: "499"}}},
		{"NSG rule other name", nsgRule("allow-ssh", 600, "Allow"), ownership{why: Unmanaged{Code: UnmanagedRuleName}}},
		{"PLS by cluster tag", &Resource{ID: NewID(tSub, tRG, KindPrivateLinkService, "p"), Tags: map[string]string{TagClusterName: " Kubernetes ", TagOwnerService: "web/a"}},
			ownership{managed: true, deletable: true, services: []string{"web/a"}}},
		{"PLS of another cluster", &Resource{ID: NewID(tSub, tRG, KindPrivateLinkService, "p"), Tags: map[string]string{TagClusterName: "prod"}},
			ownership{why: Unmanaged{Code: UnmanagedUntagged, Value: "kubernetes"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := o.of(tt.r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLBOwnedByConfigNameOrInScopeFrontend(t *testing.T) {
	observed := NewState()
	slb := NewID(tSub, tRG, KindLoadBalancer, "slb7")
	observed.Put(&Resource{ID: slb})
	observed.Put(&Resource{ID: ChildID(slb, KindFrontend, svcA.prefix())})
	cfgLB := NewID(tSub, tRG, KindLoadBalancer, "config-b-internal")
	for _, tt := range []struct {
		scope Scope
		id    ID
		want  bool
	}{
		{Scope{Cluster: tCluster}, slb, false},
		{Scope{Cluster: tCluster, Services: []ServiceRef{svcA.ref()}}, slb, true},
		{Scope{Cluster: tCluster}, cfgLB, false},
		{Scope{Cluster: tCluster, LoadBalancerNames: []string{"Config-B"}}, cfgLB, true},
	} {
		o := newOwners(tt.scope, NewState(), observed)
		if got := o.of(&Resource{ID: tt.id}).managed; got != tt.want {
			t.Errorf("%s with scope %+v: managed = %v, want %v", tt.id.Address(), tt.scope, got, tt.want)
		}
	}
}
