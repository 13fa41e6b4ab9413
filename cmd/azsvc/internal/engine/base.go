package engine

import (
	"context"
	"fmt"
	"os"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/resolve"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
)

// A base→head plan (azsvc plan --base REF) shows what a pull request
// changes with no Azure access at all: the base input is planned and
// applied into a throwaway in-memory emulator, and the head input (the -f
// paths as they are now) is planned against what that left. It reads no
// state file, reaches no network and needs no subscription. Values the API
// server assigns are placeholders on both sides (plan.Placeholder): those
// of an unchanged Service port compare equal.

// Base is where a base→head plan's base input came from.
type Base struct {
	// Ref is --base as given: a directory, or a git revision.
	Ref string
	// Commit is the revision's commit; "" for a directory.
	Commit string
	// Input is the base's Services and PrivateEndpoints.
	Input *service.Input
}

// Describe names the base for the plan header.
func (b *Base) Describe() string {
	if b.Commit == "" {
		return b.Ref + " (a directory)"
	}
	return fmt.Sprintf("%s (commit %.12s)", b.Ref, b.Commit)
}

// ReadBase reads the base input of s: ref as a directory holding the base
// manifests, else the -f paths of s as git revision ref holds them.
func ReadBase(ctx context.Context, ref string, s Settings) (*Base, error) {
	opts := service.Options{MaxInputSize: s.MaxInputSize}
	if st, err := os.Stat(ref); err == nil && st.IsDir() {
		in, err := service.LoadWith([]string{ref}, nil, opts)
		if err != nil {
			return nil, fmt.Errorf("--base %s: %w", ref, err)
		}
		return &Base{Ref: ref, Input: in}, nil
	}
	for _, f := range s.Files {
		if f == "-" {
			return nil, targetErrorf("--base %s reads the -f paths at that git revision, and stdin (-f -) has none: give the base as a directory instead", ref)
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	rev, ok, err := openRevision(ctx, dir, ref)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, targetErrorf("--base %s is neither a directory nor a git revision of the work tree here", ref)
	}
	names, err := rev.files(ctx, dir, s.Files)
	if err != nil {
		return nil, fmt.Errorf("--base %s: %w", ref, err)
	}
	limit := s.MaxInputSize
	if limit <= 0 {
		limit = service.DefaultMaxInputSize
	}
	data, err := rev.read(ctx, names, limit)
	if err != nil {
		return nil, fmt.Errorf("--base %s: %w", ref, err)
	}
	shown := make([]string, len(names))
	files := make(map[string][]byte, len(names))
	for i, n := range names {
		shown[i] = ref + ":" + n // git's own notation, in the base's positions
		files[shown[i]] = data[n]
	}
	return &Base{Ref: ref, Commit: rev.commit, Input: service.DecodeFiles(shown, files)}, nil
}

// PlanBase plans head against what base would build, in a throwaway
// emulator seeded with the cluster baseline and the seed files. Everything
// in it is the base's, so the plan prunes: a Service the head input
// removed is deleted, and named from the base. The base's own errors leave
// its refused Services out, as a plan would; a base that ARM would refuse
// as a whole is an error.
func PlanBase(ctx context.Context, base *Base, head *Inputs, seeds [][]byte) (*plan.Plan, *resolve.Resolved, *Target, error) {
	emu, err := emulator.Open(emulator.Options{InstantOperations: true, Placeholders: true})
	if err != nil {
		return nil, nil, nil, err
	}
	if err := emu.Seed(seeds...); err != nil {
		return nil, nil, nil, fmt.Errorf("--seed: %w", err)
	}
	was := buildBase(base.Input, head.Config)
	built, err := applyBase(ctx, emu, was)
	if err != nil {
		// Not the head's refusal (%v, not %w): the head plan never ran, and
		// a plan without its base compares nothing.
		return nil, nil, nil, fmt.Errorf("--base %s: %v; fix the base, or plan against Azure or the emulator instead", base.Ref, err)
	}
	t, err := emulatorTarget(emu, head, "throwaway, holding what --base "+base.Ref+" builds; not Azure", false)
	if err != nil {
		return nil, nil, nil, err
	}
	t.restore = built
	head.Scope.Prune = true
	p, res, err := Plan(ctx, head, t)
	if p != nil {
		nameFromBase(p, was.Service.Services)
	}
	return p, res, t, err
}

// buildBase is Build without validation: the base's findings are not
// shown (the head's are), and what CCM would refuse is left out either
// way (desired.BuildWith).
func buildBase(svc *service.Input, cfg *cluster.Config) *Inputs {
	in := &Inputs{Service: svc, Config: cfg}
	in.buildDesired()
	return in
}

// applyBase plans the base input against the emulator and applies it,
// placeholders and all; it returns them, to restore on reading back.
func applyBase(ctx context.Context, emu *emulator.Emulator, was *Inputs) (plan.Placeholders, error) {
	t, err := emulatorTarget(emu, was, "base", true)
	if err != nil {
		return nil, err
	}
	p, _, err := Plan(ctx, was, t)
	if err != nil && p != nil && len(p.Refused) > 0 {
		r := p.Refused[0]
		more := ""
		if n := len(p.Refused) - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more)", n)
		}
		return nil, fmt.Errorf("what the base input builds would not apply: ARM would refuse %s: %s%s",
			plan.ShownAddress(r.Address), planview.RefusalText(r), more)
	}
	if err != nil {
		return nil, fmt.Errorf("the base input cannot be planned: %w", err)
	}
	if _, err := apply.Run(ctx, p, t.Provider, apply.Options{}); err != nil {
		return nil, fmt.Errorf("what the base input builds does not apply: %w", err)
	}
	return plan.PlaceholdersOf(was.Desired), nil
}

// nameFromBase names the Services the head input removed from the base
// input's Services (their name prefix, a placeholder one included): a
// Service deleted between base and head is named by namespace/name.
func nameFromBase(p *plan.Plan, svcs []*service.Service) {
	byPrefix := make(map[string]string, len(svcs))
	for _, s := range svcs {
		byPrefix[desired.PrefixOf(s)] = s.Key()
	}
	p.Removed = plan.NameRemoved(p.Removed, plan.KnownNames{By: plan.NamedByBase, Names: byPrefix})
}

// ReadSeeds reads --seed files.
func ReadSeeds(paths []string) ([][]byte, error) {
	out := make([][]byte, 0, len(paths))
	for _, p := range paths {
		data, err := readBounded(p, MaxConfigSize, "seed file")
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	return out, nil
}
