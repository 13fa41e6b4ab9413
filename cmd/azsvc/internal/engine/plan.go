package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/pipeline"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/resolve"
)

// Plan reads the target and plans the inputs against it: resolve the final
// desired state, diff it with what ARM holds, schedule the changes into
// writes, check ARM's limits. It returns the resolved state too: a saved
// plan's preconditions come from it.
func Plan(ctx context.Context, in *Inputs, t *Target) (*plan.Plan, *resolve.Resolved, error) {
	observed, err := t.Provider.Read(ctx, t.Read)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", t.Describe(), err)
	}
	t.restore.Restore(observed)
	// With --prune, endpoints removed from the input are found through the
	// connections of the PLSs azsvc manages: a second read of their groups.
	more := resolve.ConnectedScope(observed, in.Scope, t.Read, t.Provider.Subscription())
	if len(more.Groups) > 0 {
		extra, err := t.Provider.Read(ctx, more)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", t.Describe(), err)
		}
		for k, r := range extra.All() {
			observed.PutKey(k, r)
		}
	}
	adoptUIDs(in, observed, nil)
	p, res, err := PlanAgainst(in.Desired, observed, in.Scope)
	if gone := deletedLBs(p, in); gone != nil && adoptUIDs(in, observed, gone) {
		p, res, err = PlanAgainst(in.Desired, observed, in.Scope)
	}
	if p != nil { // also a plan ARM would refuse: the renderers list why
		p.Adopted = in.Adopted
		p.AdoptedPorts = in.AdoptedPorts
		p.Membership = membership(p, in)
	}
	return p, res, err
}

// membership says which backend pools of the plan azsvc leaves to others.
func membership(p *plan.Plan, in *Inputs) []plan.Membership {
	changed := make(map[plan.Key]bool, len(p.Changes))
	for _, c := range p.Changes {
		if c.After != nil {
			changed[c.Key()] = true
		}
	}
	return desired.Membership(in.Desired, in.Config, &in.Service.Topology, func(k plan.Key) bool { return changed[k] })
}

// PlanAgainst plans desired against an observed state already read. When
// ARM would refuse the plan, it returns the plan and an error wrapping
// preflight.ErrRefused.
func PlanAgainst(desired, observed *plan.State, scope plan.Scope) (*plan.Plan, *resolve.Resolved, error) {
	return pipeline.Run(desired, observed, scope)
}

// InputHashes maps every input file to the SHA-256 of its bytes, and a live
// cluster ("cluster") to a hash of the UIDs and resourceVersions of its
// Services, Nodes and EndpointSlices.
func InputHashes(in *Inputs) map[string]string {
	out := map[string]string{}
	for name, data := range in.Service.Sources {
		sum := sha256.Sum256(data)
		out[name] = "sha256:" + hex.EncodeToString(sum[:])
	}
	if in.Cluster != nil {
		snap := in.Cluster.Snapshot
		lines := make([]string, 0, len(snap.Services)+len(snap.Nodes)+len(snap.EndpointSlices))
		for _, s := range snap.Services {
			lines = append(lines, s.Namespace+"/"+s.Name+" "+string(s.UID)+" "+s.ResourceVersion)
		}
		// Pools and node-IP NSG rules follow the Nodes and EndpointSlices.
		for _, n := range snap.Nodes {
			lines = append(lines, "node "+n.Name+" "+string(n.UID)+" "+n.ResourceVersion)
		}
		for _, e := range snap.EndpointSlices {
			lines = append(lines, "endpointslice "+e.Namespace+"/"+e.Name+" "+string(e.UID)+" "+e.ResourceVersion)
		}
		out["cluster"] = HashStrings(lines)
	}
	return out
}

// CheckFresh plans again and refuses p (a *apply.StaleError, exit 5)
// unless the plan made now has the same changes and steps, naming what
// changed since res was read: apply runs it once the lease is taken, so a
// change another writer made before then is never overwritten.
func CheckFresh(ctx context.Context, p *plan.Plan, res *resolve.Resolved, in *Inputs, t *Target) error {
	pre := planfile.Preconditions(p, res.Observed, res.Managed)
	return CheckSaved(ctx, planfile.New(p, t.Describe(), nil, in.Scope, pre), in, t)
}

// HashStrings is a short content hash ("sha256:" and 16 hex digits) of
// the lines given.
func HashStrings(lines []string) string {
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}
