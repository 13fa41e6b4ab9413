package engine

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// foreignResources are what a platform team or another cluster put next to
// the cluster's own: a public IP, and on the cluster's LB a frontend, pool,
// probe and rule named after no Service; in the cluster's NSG a bastion
// rule and a k8s-azure-lb look-alike below the managed band (unowned, §2.4
// "NSG rule"), plus a managed-looking rule of another cluster whose only
// destination belongs to no Service in scope.
type foreignResources struct {
	puts   [][2]string // id, body: PUT in order
	frozen []string    // IDs whose bodies (minus etags) must not change
}

func newForeignResources(cfg *cluster.Config) foreignResources {
	base := fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/", cfg.SubscriptionForIDs(), cfg.ResourceGroup)
	pip := base + "publicIPAddresses/bastion-pip"
	lb := base + "loadBalancers/" + cfg.LBBase()
	fe, pool := lb+"/frontendIPConfigurations/bastion-fe", lb+"/backendAddressPools/bastion-pool"
	probe, rule := lb+"/probes/bastion-ssh", lb+"/loadBalancingRules/bastion-ssh"
	nsg := base + "networkSecurityGroups/" + cfg.SecurityGroupName
	bastion, legacy := nsg+"/securityRules/allow-bastion", nsg+"/securityRules/k8s-azure-lb_allow_IPv4_legacy"
	otherCluster := nsg + "/securityRules/k8s-azure-lb_allow_IPv4_0123456789abcdef0123456789abcdef"

	pipBody := fmt.Sprintf(`{"location": %q, "sku": {"name": "Standard", "tier": "Regional"}, "tags": {"owner": "platform"},
  "properties": {"publicIPAllocationMethod": "Static", "publicIPAddressVersion": "IPv4"}}`, cfg.Location)
	lbBody := fmt.Sprintf(`{"location": %q, "sku": {"name": "Standard", "tier": "Regional"}, "properties": {
  "frontendIPConfigurations": [{"name": "bastion-fe", "properties": {"publicIPAddress": {"id": %q}}}],
  "backendAddressPools": [{"name": "bastion-pool", "properties": {}}],
  "probes": [{"name": "bastion-ssh", "properties": {"protocol": "Tcp", "port": 2222, "intervalInSeconds": 10, "numberOfProbes": 2}}],
  "loadBalancingRules": [{"name": "bastion-ssh", "properties": {"frontendIPConfiguration": {"id": %q},
    "backendAddressPool": {"id": %q}, "probe": {"id": %q}, "protocol": "Tcp", "frontendPort": 22, "backendPort": 2222,
    "enableFloatingIP": false, "idleTimeoutInMinutes": 9, "enableTcpReset": true, "disableOutboundSnat": true}}]}}`,
		cfg.Location, pip, fe, pool, probe)
	nsgRule := func(name string, priority int, dest string) string {
		return fmt.Sprintf(`{"name": %q, "properties": {"priority": %d, "direction": "Inbound", "access": "Allow", "protocol": "Tcp",
  "sourcePortRange": "*", "sourceAddressPrefix": "Internet", "destinationPortRanges": ["22", "8080"], "destinationAddressPrefix": %q}}`,
			name, priority, dest)
	}
	nsgBody := fmt.Sprintf(`{"location": %q, "properties": {"securityRules": [%s, %s, %s]}}`, cfg.Location,
		nsgRule("allow-bastion", 400, "10.224.0.250"), nsgRule("k8s-azure-lb_allow_IPv4_legacy", 300, "20.99.0.2"),
		nsgRule("k8s-azure-lb_allow_IPv4_0123456789abcdef0123456789abcdef", 4090, "20.99.0.1"))
	return foreignResources{
		puts:   [][2]string{{pip, pipBody}, {lb, lbBody}, {nsg, nsgBody}},
		frozen: []string{pip, fe, pool, probe, rule, bastion, legacy, otherCluster},
	}
}

func (f foreignResources) snapshot(t *testing.T, emu *emulator.Emulator) map[string]string {
	t.Helper()
	return snapshotBodies(t, emu, f.frozen)
}

// TestUnownedResourcesUntouched seeds foreign resources through ARM, then
// plans and applies each example: the plan changes none of them and every
// body is byte-identical afterwards (DESIGN.md "a write of a shared parent
// carries every unowned child exactly as it was read").
func TestUnownedResourcesUntouched(t *testing.T) {
	for _, dir := range scenarios(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			in := loadExample(t, dir)
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			foreign := newForeignResources(in.Config)
			for _, put := range foreign.puts {
				putBody(t, tg.Emulator, put[0], put[1])
			}
			before := foreign.snapshot(t, tg.Emulator)

			p := mustPlan(t, in, tg)
			for _, c := range p.Changes {
				if _, ok := before[c.ID().String()]; ok {
					t.Errorf("plan changes %s: %v", c.ID().Address(), c.Actions)
				}
			}
			mustApply(t, p, tg)
			after := foreign.snapshot(t, tg.Emulator)
			for _, id := range foreign.frozen {
				if after[id] != before[id] {
					t.Errorf("%s changed:\nbefore %s\nafter  %s", addressOf(id), before[id], after[id])
				}
			}
			requireEmpty(t, "second plan", mustPlan(t, in, tg))
		})
	}
}

func addressOf(id string) string {
	if pid, err := plan.ParseID(id); err == nil {
		return pid.Address()
	}
	return id
}
