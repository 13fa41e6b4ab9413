package engine

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

var (
	propSeeds = flag.Int("seeds", 20, "number of seeds TestPropertyConverge runs")
	propSeed  = flag.Int64("seed", -1, "run TestPropertyConverge for this one seed only")
)

// transition changes the Service set; it returns a description for
// failure messages.
type transition func(g *generator, svcs []*genService) ([]*genService, string)

func transitions() []transition {
	return []transition{addServices, changeAnnotations, flipInternal, removeServices, addPLS, toggleEndpoint, changeEndpoint}
}

func addServices(g *generator, svcs []*genService) ([]*genService, string) {
	n := 1 + g.rng.IntN(3)
	for range n {
		svcs = append(svcs, g.service())
	}
	return limitPLS(svcs), fmt.Sprintf("add %d Services", n)
}

func changeAnnotations(g *generator, svcs []*genService) ([]*genService, string) {
	if len(svcs) == 0 {
		return addServices(g, svcs)
	}
	s := svcs[g.rng.IntN(len(svcs))]
	switch g.rng.IntN(4) {
	case 0:
		s.idle = 4 + g.rng.IntN(27)
		return svcs, fmt.Sprintf("%s/%s: idle timeout %d", s.ns, s.name, s.idle)
	case 1:
		if len(s.ranges) > 0 {
			s.ranges, s.denyAll = nil, false
			return svcs, fmt.Sprintf("%s/%s: drop source ranges", s.ns, s.name)
		}
		g.setRanges(s)
		return svcs, fmt.Sprintf("%s/%s: source ranges %v deny-all %v", s.ns, s.name, s.ranges, s.denyAll)
	case 2:
		s.local = !s.local
		s.healthPort = 0
		if s.local {
			s.healthPort = g.allocNodePort()
		}
		return svcs, fmt.Sprintf("%s/%s: ETP Local %v", s.ns, s.name, s.local)
	}
	s.ports = g.ports()
	return svcs, fmt.Sprintf("%s/%s: ports %v", s.ns, s.name, s.ports)
}

func flipInternal(g *generator, svcs []*genService) ([]*genService, string) {
	if len(svcs) == 0 {
		return addServices(g, svcs)
	}
	s := svcs[g.rng.IntN(len(svcs))]
	s.internal = !s.internal
	s.pls, s.dual, s.ep = false, false, nil
	return svcs, fmt.Sprintf("%s/%s: internal %v", s.ns, s.name, s.internal)
}

func removeServices(g *generator, svcs []*genService) ([]*genService, string) {
	if len(svcs) <= 2 {
		return addServices(g, svcs)
	}
	n := 1 + g.rng.IntN(2)
	var names []string
	for range n {
		i := g.rng.IntN(len(svcs))
		names = append(names, svcs[i].ns+"/"+svcs[i].name)
		svcs = append(svcs[:i:i], svcs[i+1:]...)
	}
	return svcs, fmt.Sprintf("remove %v", names)
}

func addPLS(g *generator, svcs []*genService) ([]*genService, string) {
	for _, i := range g.rng.Perm(len(svcs)) {
		if s := svcs[i]; s.internal && !s.pls {
			s.pls = true
			return limitPLS(svcs), fmt.Sprintf("%s/%s: add PLS", s.ns, s.name)
		}
	}
	s := g.service()
	s.internal, s.dual, s.pls = true, false, true
	return limitPLS(append(svcs, s)), fmt.Sprintf("add %s/%s with PLS", s.ns, s.name)
}

// limitPLS keeps at most four PLS: ARM allows eight per LB, and the PLS
// subnet is small.
func limitPLS(svcs []*genService) []*genService {
	n := 0
	for _, s := range svcs {
		if s.pls {
			n++
			s.pls = n <= 4
		}
		if !s.pls {
			s.ep = nil // an endpoint needs its Service's PLS
		}
	}
	return svcs
}

// toggleEndpoint adds a PrivateEndpoint to a Service with a PLS, or
// removes one (deleted with --prune, which the property test sets).
func toggleEndpoint(g *generator, svcs []*genService) ([]*genService, string) {
	for _, i := range g.rng.Perm(len(svcs)) {
		s := svcs[i]
		if !s.pls {
			continue
		}
		if s.ep != nil {
			s.ep = nil
			return svcs, fmt.Sprintf("%s/%s: remove its endpoint", s.ns, s.name)
		}
		s.ep = g.endpoint()
		return svcs, fmt.Sprintf("%s/%s: add endpoint %+v", s.ns, s.name, *s.ep)
	}
	return addPLS(g, svcs)
}

// changeEndpoint flips an endpoint's approval, manual connection (which
// re-creates the endpoint) or DNS entries.
func changeEndpoint(g *generator, svcs []*genService) ([]*genService, string) {
	for _, i := range g.rng.Perm(len(svcs)) {
		e := svcs[i].ep
		if e == nil {
			continue
		}
		switch g.rng.IntN(4) {
		case 0:
			e.approve = !e.approve
		case 1:
			e.manual = !e.manual
		case 2:
			e.own, e.partner = !e.own, !e.partner
		default:
			e.shared = !e.shared
			if e.ttl == 0 {
				e.ttl = 120
			} else {
				e.ttl = 0
			}
		}
		return svcs, fmt.Sprintf("%s/%s: endpoint now %+v", svcs[i].ns, svcs[i].name, *e)
	}
	return toggleEndpoint(g, svcs)
}

// TestPropertyConverge drives random Service sets through plan and apply
// (issue 6 item 5): every apply succeeds (the emulator never rejects an
// operation for ordering), unowned resources stay byte-identical and the
// second plan is always empty. -seeds N runs more seeds, -seed S one.
func TestPropertyConverge(t *testing.T) {
	cfg := exampleConfig(t)
	seeds := make([]uint64, 0, *propSeeds)
	if *propSeed >= 0 {
		seeds = append(seeds, uint64(*propSeed))
	} else {
		for i := range *propSeeds {
			seeds = append(seeds, uint64(i+1))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			runProperty(t, cfg, seed)
		})
	}
}

func runProperty(t *testing.T, cfg *cluster.Config, seed uint64) {
	g := newGenerator(seed)
	var svcs []*genService
	for range 5 + g.rng.IntN(11) {
		svcs = append(svcs, g.service())
	}
	svcs = limitPLS(svcs)
	u := newUnowned(cfg)
	in := mustInputs(t, cfg, manifests(svcs), true)
	tg := newMemTarget(t, in, emulator.Options{InstantOperations: true})
	u.create(t, tg.Emulator)
	before := u.snapshot(t, tg.Emulator)
	steps := 4 + g.rng.IntN(3)
	what := fmt.Sprintf("seed %d (rerun: go test ./cmd/azsvc/internal/engine/ -run TestPropertyConverge -args -seed %d), initial %d Services", seed, seed, len(svcs))
	applied := 0
	for i := 0; ; i++ {
		data := manifests(svcs)
		in := mustInputs(t, cfg, data, true)
		retarget(tg, in)
		p := mustPlan(t, in, tg)
		if i == 0 && len(p.Steps) == 0 {
			t.Fatalf("%s: the first plan from an empty cluster has no steps", what)
		}
		if _, err := apply.Run(context.Background(), p, tg.Provider, apply.Options{}); err != nil {
			t.Fatalf("%s: apply: %v\nplan:\n%s\nmanifests:\n%s", what, err, planLines(p), data)
		}
		applied += len(p.Steps)
		requireEmptyPlan(t, in, tg, what)
		u.requireUnchanged(t, tg.Emulator, before, what)
		if i == steps {
			t.Logf("%d transitions, %d steps applied, %d Services at the end", steps, applied, len(svcs))
			return
		}
		all := transitions()
		var desc string
		svcs, desc = all[g.rng.IntN(len(all))](g, svcs)
		what = fmt.Sprintf("seed %d (rerun: go test ./cmd/azsvc/internal/engine/ -run TestPropertyConverge -args -seed %d), transition %d: %s", seed, seed, i+1, desc)
	}
}
