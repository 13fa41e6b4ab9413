package engine

import (
	"fmt"
	"testing"

	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// unowned is a set of resources azsvc must never touch (ccm-semantics
// §2.4): a user's frontend, probe and rule on the cluster's own LB, a user
// rule in the cluster NSG, and two public IPs without the service tag (one
// behind the user frontend, one standalone).
type unowned struct {
	bodies []string // PUT in order: public IPs, NSG, LB
	puts   []string // the IDs the bodies are PUT at
	ids    []string // resources and children whose bodies must not change
	// seed holds a private DNS zone azsvc does not manage, in the guest
	// subscription, with a link to the guest VNet and a record: generated
	// endpoints write records of their own in it (partnerZone).
	seed string
}

// partnerZone is the unmanaged zone of unowned.
const partnerZone = "partner.internal"

func newUnowned(cfg *cluster.Config) unowned {
	base := fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/",
		cfg.SubscriptionForIDs(), cfg.ResourceGroup)
	lb := base + "loadBalancers/" + cfg.LBBase()
	nsg := base + "networkSecurityGroups/" + cfg.SecurityGroupName
	fePIP, loosePIP := base+"publicIPAddresses/user-frontend-pip", base+"publicIPAddresses/user-standalone-pip"
	fe, probe, rule := lb+"/frontendIPConfigurations/user-fe", lb+"/probes/user-probe", lb+"/loadBalancingRules/user-rule"
	pool := lb + "/backendAddressPools/" + cfg.LBBase()
	nsgRule := nsg + "/securityRules/allow-bastion-ssh"
	pip := func(id, addr string) string {
		return fmt.Sprintf(`{"id": %q, "location": %q, "sku": {"name": "Standard", "tier": "Regional"},
  "tags": {"owner": "platform-team"},
  "properties": {"publicIPAddressVersion": "IPv4", "publicIPAllocationMethod": "Static", "ipAddress": %q, "idleTimeoutInMinutes": 4}}`,
			id, cfg.Location, addr)
	}
	lbBody := fmt.Sprintf(`{"id": %q, "location": %q, "sku": {"name": "Standard", "tier": "Regional"}, "properties": {
  "frontendIPConfigurations": [{"name": "user-fe", "id": %q, "properties": {"publicIPAddress": {"id": %q}}}],
  "backendAddressPools": [{"name": %q, "id": %q, "properties": {}}],
  "probes": [{"name": "user-probe", "id": %q, "properties": {"protocol": "Tcp", "port": 22222, "intervalInSeconds": 15, "probeThreshold": 3}}],
  "loadBalancingRules": [{"name": "user-rule", "id": %q, "properties": {
    "frontendIPConfiguration": {"id": %q}, "backendAddressPool": {"id": %q}, "probe": {"id": %q},
    "protocol": "Tcp", "frontendPort": 2222, "backendPort": 22222, "enableFloatingIP": false,
    "idleTimeoutInMinutes": 7, "enableTcpReset": true, "loadDistribution": "Default", "disableOutboundSnat": true}}]}}`,
		lb, cfg.Location, fe, fePIP, cfg.LBBase(), pool, probe, rule, fe, pool, probe)
	nsgBody := fmt.Sprintf(`{"id": %q, "location": %q, "properties": {"securityRules": [{"name": "allow-bastion-ssh", "id": %q, "properties": {
  "priority": 100, "direction": "Inbound", "access": "Allow", "protocol": "Tcp", "sourcePortRange": "*",
  "destinationPortRange": "22", "sourceAddressPrefix": "10.0.0.0/8", "destinationAddressPrefix": "*"}}]}}`,
		nsg, cfg.Location, nsgRule)
	zone := "/subscriptions/" + guestSub + "/resourceGroups/" + guestRG + "/providers/Microsoft.Network/privateDnsZones/" + partnerZone
	link, record := zone+"/virtualNetworkLinks/partner-link", zone+"/A/www"
	seed := fmt.Sprintf(`[{"id": %q, "location": "global", "tags": {"owner": "partner"}, "properties": {}},
  {"id": %q, "location": "global", "properties": {"virtualNetwork": {"id": %q}, "registrationEnabled": false}},
  {"id": %q, "properties": {"ttl": 3600, "aRecords": [{"ipv4Address": "10.9.9.9"}]}}]`, zone, link, guestVNet, record)
	return unowned{
		bodies: []string{pip(fePIP, "20.61.0.10"), pip(loosePIP, "20.61.0.11"), nsgBody, lbBody},
		puts:   []string{fePIP, loosePIP, nsg, lb},
		ids:    []string{fePIP, loosePIP, fe, probe, rule, nsgRule, zone, link, record},
		seed:   seed,
	}
}

// create PUTs the unowned resources through ARM, after the baseline.
func (u unowned) create(t testing.TB, emu *emulator.Emulator) {
	t.Helper()
	for i, id := range u.puts {
		putBody(t, emu, id, u.bodies[i])
	}
	if err := emu.Seed([]byte(u.seed)); err != nil {
		t.Fatal(err)
	}
}

// snapshot GETs every unowned resource (bodies minus etags).
func (u unowned) snapshot(t testing.TB, emu *emulator.Emulator) map[string]string {
	t.Helper()
	return snapshotBodies(t, emu, u.ids)
}

// snapshotBodies GETs each resource (body minus etags); a missing one
// fails the test.
func snapshotBodies(t testing.TB, emu *emulator.Emulator, ids []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, id := range ids {
		body, ok := getBody(t, emu, id)
		if !ok {
			t.Fatalf("%s does not exist", id)
		}
		out[id] = body
	}
	return out
}

// requireUnchanged fails when any unowned body differs from before.
func (u unowned) requireUnchanged(t testing.TB, emu *emulator.Emulator, before map[string]string, what string) {
	t.Helper()
	for _, id := range u.ids {
		body, ok := getBody(t, emu, id)
		switch {
		case !ok:
			t.Fatalf("%s: unowned %s was deleted", what, id)
		case body != before[id]:
			t.Fatalf("%s: unowned %s changed:\nbefore %s\nafter  %s", what, id, before[id], body)
		}
	}
}
