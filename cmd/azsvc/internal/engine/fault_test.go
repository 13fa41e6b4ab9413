package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// faultCase is one kind of failure injected at one step of an apply.
type faultCase struct {
	name string
	kind emulator.FaultKind // 0: a process stop (ctx cancelled after the step's write)
	// times is how many consecutive writes fail; retryAttempts of them
	// exhaust apply's retry budget, so the transient fault stops the run
	// (and leaves none for the recovery run).
	times int
}

func faultCases() []faultCase {
	return []faultCase{
		{"429", emulator.FaultThrottle, 1},
		{"500", emulator.FaultInternalError, 1},
		{"503", emulator.FaultUnavailable, 1},
		{"409-AnotherOperationInProgress", emulator.FaultConflict, 1},
		{"429-persistent", emulator.FaultThrottle, retryAttempts},
		{"500-persistent", emulator.FaultInternalError, retryAttempts},
		{"503-persistent", emulator.FaultUnavailable, retryAttempts},
		{"409-persistent", emulator.FaultConflict, retryAttempts},
		{"operation-Failed", emulator.FaultFailOperation, 1},
		{"process-stop", 0, 0},
	}
}

// faultServices are six Services (three public, three internal, one of
// them with a PLS and a private endpoint in the guest subscription, manual
// and approved by azsvc, with records in two zones): from empty, eighteen
// writes (three public IPs, two LBs, the NSG, the PLS subnet, the PLS,
// the endpoint, its approval, two zones, two links, four records).
func faultServices() []byte {
	g := newGenerator(6)
	var svcs []*genService
	for i := range 6 {
		s := g.service()
		s.internal, s.dual, s.pls, s.ep = i >= 3, false, i == 5, nil
		if s.pls {
			s.ep = &genEndpoint{manual: true, approve: true, own: true, shared: true}
		}
		svcs = append(svcs, s)
	}
	return manifests(svcs)
}

// TestFaultAtEveryStepConverges injects each fault kind at each step index
// of a multi-step apply (issue 6 item 5); after it, a fresh plan and apply
// without faults must converge (second plan empty) with every desired
// resource present.
func TestFaultAtEveryStepConverges(t *testing.T) {
	cfg := exampleConfig(t)
	data := faultServices()
	in := mustInputs(t, cfg, data, false)
	addrs := faultFreeSteps(t, in)
	steps := len(addrs)
	if steps < 5 {
		t.Fatalf("the fault scenario has %d steps, want at least 5", steps)
	}
	matrix := map[string][]string{}
	for _, fc := range faultCases() {
		for k := range steps {
			t.Run(fmt.Sprintf("%s/step-%d", fc.name, k+1), func(t *testing.T) {
				outcome := runFault(t, cfg, data, fc, k, steps)
				matrix[fc.name] = append(matrix[fc.name], outcome)
			})
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fault matrix, steps %s; first-apply outcome, every cell then converged:\n", strings.Join(addrs, ", "))
	for _, fc := range faultCases() {
		fmt.Fprintf(&b, "  %-32s %s\n", fc.name, strings.Join(matrix[fc.name], " "))
	}
	t.Log(b.String())
}

// faultFreeSteps applies the scenario once without faults and checks one
// write per step, so "the Nth PUT" is "step N". It returns the steps'
// addresses.
func faultFreeSteps(t *testing.T, in *Inputs) []string {
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	p := mustPlan(t, in, tg)
	tg.Emulator.Counters().Reset()
	if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
		t.Fatalf("fault-free apply: %v", err)
	}
	c := tg.Emulator.Counters()
	if c.Writes("") != len(p.Steps) || c.Count(emulator.MethodPut, "") != len(p.Steps) {
		t.Fatalf("fault-free apply: %d writes (%d PUTs) for %d steps:\n%s", c.Writes(""), c.Count(emulator.MethodPut, ""), len(p.Steps), c)
	}
	requireEmptyPlan(t, in, tg, "fault-free")
	var addrs []string
	for i, st := range p.Steps {
		addrs = append(addrs, fmt.Sprintf("%d=%s", i+1, st.Target.Address()))
	}
	return addrs
}

// runFault applies with the fault at step k (0-based), checks that it hit,
// then converges without faults. It returns the first apply's outcome.
func runFault(t *testing.T, cfg *cluster.Config, data []byte, fc faultCase, k, steps int) string {
	in := mustInputs(t, cfg, data, false)
	opts := emulator.Options{InstantOperations: true}
	if fc.kind != 0 {
		opts.Faults = []emulator.Fault{{Kind: fc.kind, Method: emulator.MethodPut, Nth: k + 1, Times: fc.times, RetryAfter: 2 * time.Millisecond}}
	}
	tg := newMemTarget(t, in, opts)
	p := mustPlan(t, in, tg)
	if len(p.Steps) != steps {
		t.Fatalf("plan has %d steps, the fault-free run had %d", len(p.Steps), steps)
	}
	res, err := applyWithFault(p, tg.Provider, fc, k)
	outcome := faultOutcome(t, res, err, fc, k, steps)
	// A fresh process: new inputs, a new plan from what ARM holds now.
	in = mustInputs(t, cfg, data, false)
	p2 := mustPlan(t, in, tg)
	if _, err := apply.Run(context.Background(), p2, tg.Provider, fastRetry()); err != nil {
		t.Fatalf("%s at step %d: recovery apply: %v\nplan:\n%s", fc.name, k+1, err, planLines(p2))
	}
	what := fmt.Sprintf("%s at step %d", fc.name, k+1)
	requireEmptyPlan(t, in, tg, what)
	requireAllDesiredExist(t, tg.Emulator, in, what)
	return outcome
}

// faultOutcome checks that the fault hit step k and names the result:
// "retried" (the step succeeded on a later attempt), "stopped" (the run
// stopped at step k) or "cancelled" (process stop after step k; after the
// last step there is nothing left to stop, so the run is "complete").
func faultOutcome(t *testing.T, res *apply.Result, err error, fc faultCase, k, steps int) string {
	t.Helper()
	switch {
	case fc.kind == 0 && k == steps-1:
		if err != nil || len(res.Applied) != steps {
			t.Fatalf("process stop after the last step: err %v, %d of %d applied", err, len(res.Applied), steps)
		}
		return "complete"
	case fc.kind == 0:
		var ae *apply.Error
		if !errors.As(err, &ae) || ae.Kind != apply.ErrInterrupted || len(res.Applied) != k+1 {
			t.Fatalf("process stop after step %d: err %v, %d applied", k+1, err, len(res.Applied))
		}
		return "cancelled"
	case err == nil && fc.kind == emulator.FaultFailOperation && synchronous(res.Applied[k].Step):
		return "sync" // no operation to fail: record sets and connection approvals answer at once
	case err == nil:
		if res.Applied[k].Attempts < 2 {
			t.Fatalf("%s at step %d: the run succeeded without retrying step %d", fc.name, k+1, k+1)
		}
		return "retried"
	case len(res.Failed) == 1 && res.Failed[0].Index == k:
		return "stopped"
	}
	t.Fatalf("%s at step %d: unexpected result: %v", fc.name, k+1, err)
	return ""
}

// synchronous reports a write ARM answers without a long-running operation
// (arm-rules §3.1): a record set, a PLS connection approval.
func synchronous(st *plan.Step) bool {
	return st.Target.Kind == plan.KindARecord || st.Target.Kind == plan.KindPLSConnection
}

// applyWithFault applies p with fc's fault; a fault of kind 0 stops the run
// instead (as Ctrl-C would) once step k+1 has completed.
func applyWithFault(p *plan.Plan, prov apply.Provider, fc faultCase, k int) (*apply.Result, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := fastRetry()
	if fc.kind == 0 {
		run.Observer = apply.ObserverFunc(func(e apply.Event) {
			if e.Type == apply.EventComplete && e.Step == k+1 {
				cancel()
			}
		})
	}
	return apply.Run(ctx, p, prov, run)
}
