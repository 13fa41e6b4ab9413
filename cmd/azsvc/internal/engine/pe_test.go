package engine

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/applyview"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

// TestHyperShiftEndToEnd is issue 14's "done when": from an empty emulator
// seeded with the guest VNet, apply creates every resource, the A records
// hold the endpoint's IP and a second plan has nothing to do; removing the
// PrivateEndpoint with --prune deletes records, links, zones and the
// endpoint, in that order, and keeps the PLS; the emulator never rejects a
// step.
func TestHyperShiftEndToEnd(t *testing.T) {
	in := loadExample(t, hypershiftDir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	applyPlan(t, in, tg)
	requireAllDesiredExist(t, tg.Emulator, in, "after apply")
	pe := endpointKey(t, in, "private-router")
	got, records := observedEndpoint(t, tg, in, pe)
	requireRecordsHold(t, got, records)
	if len(records) != 4 {
		t.Errorf("%d records, want api, *.apps, api-foo and oauth-foo", len(records))
	}
	if p := mustPlan(t, in, tg); planview.Summarize(p).HasChanges {
		t.Fatalf("second plan has changes (plan --detailed-exitcode would exit 2):\n%s", planLines(p))
	}

	onlyService := loadFiles(t, true, filepath.Join(hypershiftDir, "service.yaml"))
	p, _ := applyPlan(t, onlyService, tg)
	want := []string{
		"delete dnszone/example.com/a/api-foo", "delete dnszone/example.com/a/oauth-foo",
		"delete dnszone/foo.hypershift.local/a/*.apps", "delete dnszone/foo.hypershift.local/a/api",
		"delete dnszone/example.com/link/guest-vnet-d22090fc", "delete dnszone/foo.hypershift.local/link/guest-vnet-d22090fc",
		"delete dnszone/example.com", "delete dnszone/foo.hypershift.local",
		"delete pe/private-router-pe",
	}
	if got := stepList(p); !slices.Equal(got, want) {
		t.Errorf("removing the endpoint: steps\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	requireEmptyPlan(t, onlyService, tg, "after removing the endpoint")
	for _, r := range onlyService.Desired.OfKind(plan.KindPrivateLinkService) {
		if _, ok := getBody(t, tg.Emulator, r.ID.String()); !ok {
			t.Errorf("%s was deleted with the endpoint", r.ID.Address())
		}
	}
}

// TestRemovingServiceAndEndpoint: without the Service either, the plan
// deletes the endpoint's chain first, then the PLS, then the load
// balancer.
func TestRemovingServiceAndEndpoint(t *testing.T) {
	in := loadExample(t, hypershiftDir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	applyPlan(t, in, tg)
	empty := Build(&service.Input{}, in.Config, true)
	p, _ := applyPlan(t, empty, tg)
	steps := stepList(p)
	pos := func(s string) int { return slices.Index(steps, s) }
	if pe, pls, lb := pos("delete pe/private-router-pe"), pos("delete pls/pls-foo"), pos("delete lb/aks-prod-weu-internal"); pe < 0 || pls < pe || lb < pls {
		t.Errorf("want the endpoint, then the PLS, then the LB deleted:\n%s", strings.Join(steps, "\n"))
	}
	for _, s := range steps[:pos("delete pe/private-router-pe")] {
		if !strings.HasPrefix(s, "delete dnszone/") {
			t.Errorf("%s runs before the endpoint's delete", s)
		}
	}
	requireEmptyPlan(t, empty, tg, "after removing everything")
}

// TestManualApprovalPendingThenApproved follows
// examples/private-endpoint-manual: apply leaves the connection Pending
// and says so in the plan and the apply summary (and succeeds); approve:
// true then approves it with one PUT of the connection, and everything
// converges.
func TestManualApprovalPendingThenApproved(t *testing.T) {
	dir := filepath.Join(examples, "private-endpoint-manual")
	in := loadExample(t, dir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	p := mustPlan(t, in, tg)
	if len(p.Awaiting) != 1 || p.Awaiting[0].Address != "pe/orders-consumer" {
		t.Errorf("plan awaiting %+v, want pe/orders-consumer", p.Awaiting)
	}
	var human bytes.Buffer
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{Observer: applyview.NewHuman(&human, applyview.HumanOptions{})}); err != nil {
		t.Fatalf("apply: %v", err)
	}
	if out := human.String(); !strings.Contains(out, "Apply complete!") || !strings.Contains(out, "Awaiting approval by the PLS owner") ||
		!strings.Contains(out, "  pe/orders-consumer\n") {
		t.Errorf("the apply summary does not say the endpoint awaits approval:\n%s", out)
	}
	again := mustPlan(t, in, tg)
	if len(again.Steps) != 0 || len(again.Awaiting) != 1 || again.Awaiting[0].Status != plan.ConnectionPending {
		t.Fatalf("second plan: %d steps, awaiting %+v", len(again.Steps), again.Awaiting)
	}

	approving := withApprove(in, true)
	p = mustPlan(t, approving, tg)
	if got := stepList(p); len(got) != 1 || !strings.HasPrefix(got[0], "put pls/orders-pls/connection/orders-consumer.") {
		t.Fatalf("approving plan: %v", got)
	}
	if c := p.Changes[0]; c.Reason != plan.ReasonApproveConnection || len(p.Awaiting) != 0 {
		t.Errorf("approval change %v %s, awaiting %+v", c.Actions, c.Reason, p.Awaiting)
	}
	renderGolden(t, filepath.Join(dir, "plan-approve.golden.txt"), func(w *bytes.Buffer) error {
		return planview.Text(w, exampleView(p, approving, tg, dir), style.New(false))
	})
	tg.Emulator.Counters().Reset()
	mustApply(t, p, tg)
	if c := tg.Emulator.Counters(); c.Writes("") != 1 || c.Count(emulator.MethodPut, "Microsoft.Network/privateLinkServices/privateEndpointConnections") != 1 {
		t.Errorf("approval took writes:\n%s", c)
	}
	got, records := observedEndpoint(t, tg, approving, endpointKey(t, approving, "orders-consumer"))
	if s := plan.AsPrivateEndpoint(got).Status(); s != plan.ConnectionApproved {
		t.Errorf("connection is %s after approval", s)
	}
	requireRecordsHold(t, got, records)
	requireEmptyPlan(t, approving, tg, "after approval")
	if p := mustPlan(t, approving, tg); len(p.Awaiting) != 0 {
		t.Errorf("still awaiting %+v", p.Awaiting)
	}
}

// TestLostConnectionReplacesEndpoint: for a connection the PLS owner
// rejected or removed, the plan re-creates the endpoint, with its DNS
// records following the new address (drift only with plan --since).
func TestLostConnectionReplacesEndpoint(t *testing.T) {
	for _, status := range []string{plan.ConnectionRejected, plan.ConnectionDisconnected} {
		t.Run(status, func(t *testing.T) {
			in := loadExample(t, hypershiftDir)
			tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
			applyPlan(t, in, tg)
			pe := endpointKey(t, in, "private-router")
			pls := in.Desired.OfKind(plan.KindPrivateLinkService)[0].ID
			setConnection(t, tg.Emulator, pls, pe, status)

			p := mustPlan(t, in, tg)
			var replace *plan.Change
			for _, c := range p.Changes {
				if c.Key() == pe {
					replace = c
				}
			}
			if replace == nil || !replace.IsReplace() || replace.Reason != plan.ReasonConnectionLost || !replace.Disruptive {
				t.Fatalf("want the endpoint's replacement:\n%s", planLines(p))
			}
			if status == plan.ConnectionRejected {
				renderGolden(t, filepath.Join(hypershiftDir, "plan-rejected.golden.txt"), func(w *bytes.Buffer) error {
					return planview.Text(w, exampleView(p, in, tg, hypershiftDir), style.New(false))
				})
			}
			mustApply(t, p, tg)
			got, records := observedEndpoint(t, tg, in, pe)
			if s := plan.AsPrivateEndpoint(got).Status(); s != plan.ConnectionApproved {
				t.Errorf("the new endpoint's connection is %s", s)
			}
			requireRecordsHold(t, got, records)
			requireEmptyPlan(t, in, tg, "after the replacement")
		})
	}
}
