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
