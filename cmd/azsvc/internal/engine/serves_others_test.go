package engine

import (
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestRuleServingOthersIsShared: two Services share the NSG rule of port
// 80; a plan of one of them alone, moving it to 8080, keeps the other's
// address in the rule, which makes that change a shared one (the reviewer
// sees it above the Services), while the new rule of 8080 is the Service's.
func TestRuleServingOthersIsShared(t *testing.T) {
	cfg := exampleConfig(t)
	svc := func(name, uid, port, nodePort string) string {
		return "apiVersion: v1\nkind: Service\nmetadata:\n  name: " + name + "\n  namespace: web\n  uid: " + uid +
			"\nspec:\n  type: LoadBalancer\n  ports: [{name: http, port: " + port + ", nodePort: " + nodePort + "}]\n"
	}
	a := svc("a", "11111111-0000-4000-8000-000000000001", "80", "30081")
	b := svc("b", "22222222-0000-4000-8000-000000000002", "80", "30082")
	tg := appliedTarget(t, mustInputs(t, cfg, []byte(a+"---\n"+b), false), emulator.Options{InstantOperations: true})
	moved := strings.Replace(a, "port: 80,", "port: 8080,", 1)
	p := mustPlan(t, mustInputs(t, cfg, []byte(moved), false), tg)
	var shared, own []string
	for _, c := range p.Changes {
		if c.ID().Kind != plan.KindSecurityRule {
			continue
		}
		if c.ServesOthers {
			shared = append(shared, c.ID().Address())
		} else {
			own = append(own, c.ID().Address())
		}
	}
	if len(shared) != 1 || len(own) != 1 {
		t.Fatalf("NSG rule changes serving others %v, the Service's own %v; want one each:\n%s", shared, own, planLines(p))
	}
}
