package planview

import (
	"fmt"

	"github.com/azsvc/azsvc/plan"
)

// A hand-built, CCM-shaped world: svcSpec describes a Service, add puts
// what CCM would build for it into a desired state and, when ip is set,
// the converged observed resources into an observed state.

const (
	sub, rg, cluster, nsgName = "sub", "rg", "kubernetes", "aks-agentpool-nsg"
)

type svcSpec struct {
	name   string
	prefix string
	ports  []int
	ip     string // observed public IP; "" = not yet in Azure
	pls    bool
}

func lb() plan.ID  { return plan.NewID(sub, rg, plan.KindLoadBalancer, cluster) }
func nsg() plan.ID { return plan.NewID(sub, rg, plan.KindSecurityGroup, nsgName) }

func newWorld() (desired, observed *plan.State) {
	desired, observed = plan.NewState(), plan.NewState()
	desired.Put(&plan.Resource{ID: nsg(), Location: "eastus"})
	observed.Put(&plan.Resource{ID: nsg(), Location: "eastus", Etag: `W/"nsg-1"`})
	desired.Put(&plan.Resource{ID: lb(), Location: "eastus", SKU: map[string]any{"name": "Standard"}})
	desired.Put(&plan.Resource{ID: plan.ChildID(lb(), plan.KindBackendPool, cluster), Properties: map[string]any{}})
	return desired, observed
}

func observeLB(observed *plan.State) {
	observed.Put(&plan.Resource{ID: lb(), Location: "eastus", SKU: map[string]any{"name": "Standard", "tier": "Regional"}, Etag: `W/"lb-1"`})
	observed.Put(&plan.Resource{ID: plan.ChildID(lb(), plan.KindBackendPool, cluster), Properties: map[string]any{}})
}

// add puts s into desired (when want) and observed (when s.ip != "").
func add(desired, observed *plan.State, s svcSpec, want bool) {
	pip := plan.NewID(sub, rg, plan.KindPublicIP, cluster+"-"+s.prefix)
	fe := plan.ChildID(lb(), plan.KindFrontend, s.prefix)
	pool := plan.ChildID(lb(), plan.KindBackendPool, cluster)
	var rs []*plan.Resource
	rs = append(rs,
		&plan.Resource{ID: pip, Location: "eastus", SKU: map[string]any{"name": "Standard"},
			Tags:       map[string]string{"k8s-azure-service": s.name, "k8s-azure-cluster-name": cluster},
			Properties: map[string]any{"publicIPAllocationMethod": "Static", "publicIPAddressVersion": "IPv4"}},
		&plan.Resource{ID: fe, Properties: map[string]any{"publicIPAddress": plan.Ref(pip)}})
	var ports []any
	for _, p := range s.ports {
		name := fmt.Sprintf("%s-TCP-%d", s.prefix, p)
		probe := plan.ChildID(lb(), plan.KindProbe, name)
		rs = append(rs,
			&plan.Resource{ID: probe, Properties: map[string]any{"protocol": "Tcp", "port": 30000 + p, "intervalInSeconds": 5, "numberOfProbes": 2}},
			&plan.Resource{ID: plan.ChildID(lb(), plan.KindRule, name), Properties: map[string]any{
				"protocol": "Tcp", "frontendPort": p, "backendPort": p, "enableFloatingIP": true, "idleTimeoutInMinutes": 4,
				"frontendIPConfiguration": plan.Ref(fe), "backendAddressPool": plan.Ref(pool), "probe": plan.Ref(probe)}})
		ports = append(ports, fmt.Sprint(p))
	}
	if s.pls {
		rs = append(rs, &plan.Resource{ID: plan.NewID(sub, rg, plan.KindPrivateLinkService, "pls-"+s.prefix), Location: "eastus",
			Tags:       map[string]string{"k8s-azure-cluster-name": cluster, "k8s-azure-owner-service": s.name},
			Properties: map[string]any{"loadBalancerFrontendIpConfigurations": []any{plan.Ref(fe)}}})
	}
	rule := &plan.Resource{ID: plan.ChildID(nsg(), plan.KindSecurityRule, fmt.Sprintf("k8s-azure-lb_allow_IPv4_%s", s.prefix[:8])),
		Properties: map[string]any{"protocol": "Tcp", "access": "Allow", "direction": "Inbound", "sourceAddressPrefix": "Internet",
			"sourcePortRange": "*", "destinationPortRanges": ports, "destinationAddressPrefix": plan.AfterApply(pip.Key(), "ipAddress")}}
	rs = append(rs, rule)
	for _, r := range rs {
		if want {
			d := *r
			d.Services = []string{s.name}
			desired.Put(&d)
		}
		if s.ip == "" {
			continue
		}
		o := &plan.Resource{ID: r.ID, Location: r.Location, SKU: r.SKU, Tags: r.Tags, Etag: `W/"` + r.ID.Name() + `"`, Properties: map[string]any{}}
		for k, v := range r.Properties {
			o.Properties[k] = v
		}
		switch r.ID.Kind {
		case plan.KindPublicIP:
			o.Properties["ipAddress"] = s.ip
		case plan.KindSecurityRule:
			o.Properties["destinationAddressPrefix"] = s.ip
			o.Properties["priority"] = 500 + len(s.prefix)
		case plan.KindPrivateLinkService:
			o.Properties["privateEndpointConnections"] = []any{map[string]any{"name": "pe-1"}}
		}
		observed.Put(o)
	}
}

func scopeFor(specs ...svcSpec) plan.Scope {
	sc := plan.Scope{Cluster: cluster}
	for _, s := range specs {
		sc.Services = append(sc.Services, plan.ServiceRef{Name: s.name, Prefix: s.prefix})
	}
	return sc
}
