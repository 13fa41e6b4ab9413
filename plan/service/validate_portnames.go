package service

import (
	"fmt"

	"github.com/azsvc/azsvc/plan/quote"
)

// portNames checks that no two ports share a name: the API server refuses
// the manifest (spec.ports[i].name: Duplicate value), and CCM resolves a
// health-probe_port given by name to the first port of that name (§1.4
// #41), so the probe could target the other port's nodePort.
func (c valueRules) portNames() {
	first := map[string]int{}
	for i, p := range c.s.Spec.Ports {
		if p.Name == "" {
			continue
		}
		if j, dup := first[p.Name]; dup {
			c.add(c.s.diag(CodeDuplicatePortName, portPath(i, "name"),
				fmt.Sprintf("port name %s is used twice (spec.ports[%d] and [%d]): the API server rejects the Service", quote.Value(p.Name), j, i),
				"give every port a name of its own"))
			continue
		}
		first[p.Name] = i
	}
}
