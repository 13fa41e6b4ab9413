package engine

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestPrivateLinkOrderGolden pins, as data, the order of a Private Link
// chain's writes (issue 14 item 4): create the Service's public IP, load
// balancer and frontend, the PLS, the endpoint, its approval, the zones,
// the links, the records; delete the records, links, zones, the endpoint,
// the PLS, the load balancer and the public IP. The steps go to
// testdata/private-link-order.golden.txt (-update rewrites it); both
// applies run against the emulator, which rejects any step out of order.
func TestPrivateLinkOrderGolden(t *testing.T) {
	dir := filepath.Join("testdata", "private-link-order")
	in := loadExample(t, dir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	var out bytes.Buffer
	create, _ := applyPlan(t, in, tg)
	writeSteps(&out, "create from an empty cluster", create)
	requireEmptyPlan(t, in, tg, "after create")

	none := Build(&service.Input{}, in.Config, true)
	del, _ := applyPlan(t, none, tg)
	writeSteps(&out, "delete with --prune once the Service and the PrivateEndpoint leave the input", del)
	requireEmptyPlan(t, none, tg, "after delete")
	renderGolden(t, filepath.Join("testdata", "private-link-order.golden.txt"), func(w *bytes.Buffer) error {
		_, err := w.Write(out.Bytes())
		return err
	})
}

// writeSteps lists a plan's writes and the kinds each carries.
func writeSteps(w *bytes.Buffer, title string, p *plan.Plan) {
	fmt.Fprintf(w, "# %s\n", title)
	for i, st := range p.Steps {
		var kinds []string
		for _, c := range st.Changes {
			kinds = append(kinds, fmt.Sprintf("%s %s", c.Actions, c.ID().Kind))
		}
		fmt.Fprintf(w, "%2d %-6s %-60s %v\n", i+1, st.Op, st.Target.Address(), kinds)
	}
}
