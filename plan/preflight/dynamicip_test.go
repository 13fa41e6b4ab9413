package preflight

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

func dynamic() map[string]any {
	return map[string]any{"subnet": plan.Ref(subnetID), "privateIPAllocationMethod": "Dynamic", "privateIPAddress": plan.Unknown}
}

// TestStaticIPTakenByDynamic: the lowest free address of a subnet goes to
// the first new dynamic IP configuration; a static IP written by a later
// step at that address is refused (issue 21 item 4).
func TestStaticIPTakenByDynamic(t *testing.T) {
	const nodes = "vnet/vnet/subnet/nodes"
	const fe = "lb/kubernetes-internal/frontend/b2"
	taken := func(ip, by string) []plan.Refusal {
		return []plan.Refusal{{Address: "pls/pls-a1", Code: plan.RefuseIPTakenDynamic, IP: ip, Subnet: nodes, Other: by}}
	}
	tests := []struct {
		name     string
		observed []*plan.Resource
		nodeIPs  map[string]string
		steps    []*plan.Step
		want     []plan.Refusal
	}{
		{"the first free address", nil, nil,
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10")), frontend("b2", dynamic())), pls("10.224.0.4")},
			taken("10.224.0.4", fe)},
		{"above what the dynamic IPs take", nil, nil,
			[]*plan.Step{lb("Standard", frontend("a1", static("10.224.0.10")), frontend("b2", dynamic())), pls("10.224.0.5")}, nil},
		{"past the addresses azsvc knows are held", []*plan.Resource{frontend("old", static("10.224.0.4"))},
			map[string]string{"10.224.0.5": "node-0"},
			[]*plan.Step{lb("Standard", frontend("old", static("10.224.0.4")), frontend("b2", dynamic())), pls("10.224.0.6")},
			taken("10.224.0.6", fe)},
		{"a dynamic frontend keeps its address", []*plan.Resource{frontend("b2", map[string]any{
			"subnet": plan.Ref(subnetID), "privateIPAllocationMethod": "Dynamic", "privateIPAddress": "10.224.0.9"})}, nil,
			[]*plan.Step{lb("Standard", frontend("b2", dynamic())), pls("10.224.0.4")}, nil},
		{"a static IP of the same write is taken first", nil, nil,
			[]*plan.Step{lb("Standard", frontend("b2", dynamic()), frontend("a1", static("10.224.0.4")))}, nil},
		{"a static IP written before the dynamic one", nil, nil,
			[]*plan.Step{pls("10.224.0.4"), lb("Standard", frontend("a1", static("10.224.0.10")), frontend("b2", dynamic()))}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			observed := plan.NewState()
			observed.Put(subnet("Disabled"))
			if len(tt.observed) > 0 {
				observed.Put(&plan.Resource{ID: lbID, SKU: map[string]any{"name": "Standard"}})
			}
			for _, r := range tt.observed {
				observed.Put(r)
			}
			p := &plan.Plan{Steps: tt.steps}
			_ = Check(p, plan.NewIndex(observed), tt.nodeIPs)
			var got []plan.Refusal
			for _, r := range p.Refused {
				if r.Code == plan.RefuseIPTakenDynamic {
					got = append(got, r)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("refused %+v\nwant    %+v", got, tt.want)
			}
		})
	}
}

// BenchmarkStaticIPTakenByDynamic10000: 10,000 new dynamic frontends in one
// load balancer write, then PLS writes with static NAT IPs: the replay
// stays linear (one cursor per write and subnet, as ARM's).
func BenchmarkStaticIPTakenByDynamic10000(b *testing.B) {
	var kids []*plan.Resource
	for i := range 10000 {
		kids = append(kids, frontend(fmt.Sprintf("f%d", i), dynamic()))
	}
	steps := []*plan.Step{lb("Standard", kids...)}
	for i := range 100 {
		steps = append(steps, pls(fmt.Sprintf("10.224.200.%d", i+10)))
	}
	observed := plan.NewState()
	observed.Put(subnet("Disabled"))
	idx := plan.NewIndex(observed)
	b.ReportAllocs()
	p := &plan.Plan{Steps: steps}
	for b.Loop() {
		if refused := checkDynamicTakes(newWorld(p, idx), steps); len(refused) != 0 {
			b.Fatal(refused)
		}
	}
}
