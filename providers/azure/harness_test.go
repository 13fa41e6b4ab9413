package azure_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

const (
	sub      = "00000000-0000-0000-0000-0000000000aa"
	rg       = "mc_rg"
	location = "eastus"
)

// env is one in-process emulator and a provider wired to it.
type env struct {
	emu *emulator.Emulator
	p   *azure.Provider
}

func newEnv(tb testing.TB, opts emulator.Options) *env {
	tb.Helper()
	emu, err := emulator.Open(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = emu.Close() })
	p, err := azure.NewEmulator(azure.EmulatorOptions{
		Subscription:  sub,
		Endpoint:      emulator.Endpoint,
		Transport:     emu.Transport(),
		Description:   "in memory",
		PollFrequency: time.Millisecond,
		RetryDelay:    time.Millisecond,
	})
	if err != nil {
		tb.Fatal(err)
	}
	if err := emu.EnsureBaseline(sub, rg, location, "aks-vnet", "10.224.0.0/12",
		map[string]string{"aks-subnet": "10.224.0.0/16"}, "aks-agentpool-nsg"); err != nil {
		tb.Fatal(err)
	}
	// A PLS needs a subnet with its network policies disabled (arm-rules §2.2).
	pls := fmt.Sprintf(`{"id": %q, "name": "pls-vnet", "type": "Microsoft.Network/virtualNetworks", "location": %q,
		"properties": {"addressSpace": {"addressPrefixes": ["10.230.0.0/16"]}, "subnets": [{"name": "pls-subnet",
		"id": %q, "properties": {"addressPrefix": "10.230.0.0/24", "privateLinkServiceNetworkPolicies": "Disabled"}}]}}`,
		vnetID("pls-vnet"), location, subnetID("pls-vnet", "pls-subnet"))
	if err := emu.Seed([]byte(pls)); err != nil {
		tb.Fatal(err)
	}
	return &env{emu: emu, p: p}
}

func (e *env) scope() plan.ReadScope {
	var rs plan.ReadScope
	for _, k := range plan.ReadKinds {
		rs.Add(k, rg)
	}
	return rs
}

func (e *env) read(tb testing.TB) *plan.State {
	tb.Helper()
	st, err := e.p.Read(context.Background(), e.scope())
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func (e *env) write(tb testing.TB, steps ...*plan.Step) {
	tb.Helper()
	for _, s := range steps {
		if _, _, err := e.p.Write(context.Background(), s); err != nil {
			tb.Fatalf("write %s %s: %v", s.Op, s.Target.Address(), err)
		}
	}
}

func vnetID(name string) string {
	return fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/virtualNetworks/%s", sub, rg, name)
}

func subnetID(vnet, name string) string { return vnetID(vnet) + "/subnets/" + name }

// services builds the steps that create n public Services on load balancer
// lb, CCM-shaped: a public IP each, then one LB write with a frontend, probe
// and rule per Service over one shared pool, then one NSG write with a rule
// per Service (priorities from first).
func services(lb, nsg string, first, n int) []*plan.Step {
	lbID := plan.NewID(sub, rg, plan.KindLoadBalancer, lb)
	poolID := plan.ChildID(lbID, plan.KindBackendPool, lb)
	nsgID := plan.NewID(sub, rg, plan.KindSecurityGroup, nsg)
	var steps []*plan.Step
	children := []*plan.Resource{{ID: poolID, Properties: map[string]any{}}}
	var rules []*plan.Resource
	for i := first; i < first+n; i++ {
		prefix := fmt.Sprintf("a%031d", i)
		pip := plan.NewID(sub, rg, plan.KindPublicIP, "kubernetes-"+prefix)
		steps = append(steps, &plan.Step{Op: plan.OpPut, Target: pip, Body: &plan.Resource{
			ID: pip, Location: location, SKU: map[string]any{"name": "Standard"},
			Tags:       map[string]string{"k8s-azure-service": fmt.Sprintf("default/svc-%d", i)},
			Properties: map[string]any{"publicIPAllocationMethod": "Static", "publicIPAddressVersion": "IPv4", "ipAddress": plan.Unknown},
		}})
		fe := plan.ChildID(lbID, plan.KindFrontend, prefix)
		probe := plan.ChildID(lbID, plan.KindProbe, prefix+"-TCP-80")
		rule := plan.ChildID(lbID, plan.KindRule, prefix+"-TCP-80")
		children = append(children,
			&plan.Resource{ID: fe, Properties: map[string]any{"publicIPAddress": plan.Ref(pip)}},
			&plan.Resource{ID: probe, Properties: map[string]any{"protocol": "Tcp", "port": 30080 + i%1000, "intervalInSeconds": 5, "numberOfProbes": 2}},
			&plan.Resource{ID: rule, Properties: map[string]any{
				"frontendIPConfiguration": plan.Ref(fe), "backendAddressPool": plan.Ref(poolID), "probe": plan.Ref(probe),
				"protocol": "Tcp", "frontendPort": 80, "backendPort": 80, "enableFloatingIP": true,
				"idleTimeoutInMinutes": 4, "enableTcpReset": true, "disableOutboundSnat": false, "loadDistribution": "Default"}})
		rules = append(rules, &plan.Resource{ID: plan.ChildID(nsgID, plan.KindSecurityRule, prefix+"-TCP-80-Internet"), Properties: map[string]any{
			"priority": 500 + i%3000, "direction": "Inbound", "access": "Allow", "protocol": "Tcp",
			"sourceAddressPrefix": "Internet", "sourcePortRange": "*",
			"destinationAddressPrefix": "20.0.0.1", "destinationPortRange": "80"}})
	}
	steps = append(steps,
		&plan.Step{Op: plan.OpPut, Target: lbID, Children: children, Body: &plan.Resource{
			ID: lbID, Location: location, SKU: map[string]any{"name": "Standard", "tier": "Regional"}, Properties: map[string]any{}}},
		&plan.Step{Op: plan.OpPut, Target: nsgID, Children: rules, Body: &plan.Resource{
			ID: nsgID, Location: location, Properties: map[string]any{}}})
	return steps
}
