package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestSharedIPOutOfScopeServiceKeepsNSGRule applies examples/shared-ip and
// then plans with only mqtt-broker: web-ingress is out of scope, so its NSG
// rule (ports 80,443 to the shared 20.62.10.5) stays, as do its LB rules
// (DESIGN.md "Services absent from the input are out of scope",
// ccm-semantics §5.5 step 1).
func TestSharedIPOutOfScopeServiceKeepsNSGRule(t *testing.T) {
	dir := filepath.Join(examples, "shared-ip")
	in := loadExample(t, dir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	mustApply(t, mustPlan(t, in, tg), tg)

	data, err := os.ReadFile(filepath.Join(dir, "service.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var mqtt string
	for _, doc := range strings.Split(string(data), "\n---\n") {
		if strings.Contains(doc, "name: mqtt-broker") {
			mqtt = doc
		}
	}
	if mqtt == "" {
		t.Fatal("examples/shared-ip has no mqtt-broker Service")
	}
	only := filepath.Join(t.TempDir(), "mqtt.yaml")
	if err := os.WriteFile(only, []byte(mqtt), 0o600); err != nil {
		t.Fatal(err)
	}
	narrow := loadExample(t, only)
	again, err := EmulatorTarget(tg.Emulator, narrow, "same emulator")
	if err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, narrow, again)
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindSecurityRule || c.IsDelete() {
			t.Errorf("plan with web-ingress out of scope changes %v %s (%s)", c.Actions, c.ID().Address(), c.Reason)
		}
	}
	requireEmpty(t, "plan with only mqtt-broker", p)
}

// TestSharedIPLeavingServiceReleasesItsPorts: a Service that leaves a
// frontend shared by pinned IP (pruned, or moving to another port) takes
// its address out of the NSG rules of the ports it served, keeping it where
// another Service on the address still serves the port (ccm-semantics §5.5
// step 1). Left behind, the rule kept Internet → 20.62.10.5:8883 open after
// the LB rule was gone, and the next plan said nothing.
func TestSharedIPLeavingServiceReleasesItsPorts(t *testing.T) {
	dir := filepath.Join(examples, "shared-ip")
	data, err := os.ReadFile(filepath.Join(dir, "service.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, doc := range strings.Split(string(data), "\n---\n") {
		for _, name := range []string{"web-ingress", "mqtt-broker"} {
			if strings.Contains(doc, "name: "+name+"\n") {
				docs[name] = doc
			}
		}
	}
	const webRule, mqttRule = "k8s-azure-lb_allow_IPv4_556f7044ec033071ec0dfcf7cd85bc93", "k8s-azure-lb_allow_IPv4_d4a0c5b28e92c80a7d75f0e07b88ba8e"
	tests := []struct {
		name        string
		manifest    string
		prune       bool
		gone, stays string // NSG rules
	}{
		{"the Service naming the frontend pruned", docs["web-ingress"], true, mqttRule, webRule},
		{"the other Service pruned", docs["mqtt-broker"], true, webRule, mqttRule},
		{"the Service naming the frontend moving to another port, the other out of scope",
			strings.Replace(docs["mqtt-broker"], "port: 8883", "port: 8884", 1), false, mqttRule, webRule},
		{"the other Service moving to another port, the first out of scope",
			strings.Replace(docs["web-ingress"], "port: 443", "port: 444", 1), false, webRule, mqttRule},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := loadExample(t, dir)
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			mustApply(t, mustPlan(t, in, tg), tg)

			file := filepath.Join(t.TempDir(), "svc.yaml")
			if err := os.WriteFile(file, []byte(tt.manifest), 0o600); err != nil {
				t.Fatal(err)
			}
			after := loadFiles(t, tt.prune, file)
			retarget(tg, after)
			mustApply(t, mustPlan(t, after, tg), tg)
			requireEmpty(t, "the plan after", mustPlan(t, after, tg))
			nsg := plan.NewID(in.Config.SubscriptionForIDs(), in.Config.NSGResourceGroup(), plan.KindSecurityGroup, in.Config.SecurityGroupName)
			body, _ := getBody(t, tg.Emulator, nsg.String())
			if strings.Contains(body, tt.gone) {
				t.Errorf("NSG rule %s still allows the ports the leaving Service served:\n%s", tt.gone, body)
			}
			if !strings.Contains(body, tt.stays) {
				t.Errorf("NSG rule %s of the Service that stays was removed:\n%s", tt.stays, body)
			}
		})
	}
}
