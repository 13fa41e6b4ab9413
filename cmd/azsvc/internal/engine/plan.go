package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/diff"
	"github.com/azsvc/azsvc/plan/graph"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/preflight"
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
	return PlanAgainst(in.Desired, observed, in.Scope)
}

// PlanAgainst plans desired against an observed state already read.
func PlanAgainst(desired, observed *plan.State, scope plan.Scope) (*plan.Plan, *resolve.Resolved, error) {
	res, err := resolve.Resolve(desired, observed, scope)
	if err != nil {
		return nil, nil, err
	}
	changes, err := diff.Diff(res)
	if err != nil {
		return nil, nil, err
	}
	p, err := graph.Schedule(changes)
	if err != nil {
		return nil, nil, err
	}
	if p.Limits, err = preflight.Check(p, res.Observed); err != nil {
		return nil, nil, err
	}
	return p, res, nil
}

// Save writes p in its saved form (azsvc plan --out), with the hashes of
// the inputs, the target and the preconditions read from res, so apply
// can refuse it once stale.
func Save(path string, p *plan.Plan, res *resolve.Resolved, in *Inputs, t *Target) (*planfile.Plan, error) {
	pre := planfile.Preconditions(p, res.Observed, res.Managed)
	saved := planfile.New(p, t.Describe(), InputHashes(in), in.Scope, pre)
	data, err := json.MarshalIndent(saved, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode saved plan: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return nil, fmt.Errorf("write saved plan: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, fmt.Errorf("write saved plan: %w", err)
	}
	return saved, nil
}

// LoadSaved reads a plan written by Save.
func LoadSaved(path string) (*planfile.Plan, *plan.Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read saved plan: %w", err)
	}
	var saved planfile.Plan
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, nil, fmt.Errorf("%s: not a saved azsvc plan: %w", path, err)
	}
	if saved.FormatVersion == "" {
		return nil, nil, fmt.Errorf("%s: not a saved azsvc plan (no format_version)", path)
	}
	p, err := saved.Restore()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return &saved, p, nil
}

// InputHashes maps every input file to the SHA-256 of its bytes.
func InputHashes(in *Inputs) map[string]string {
	out := map[string]string{}
	for name, data := range in.Service.Sources {
		sum := sha256.Sum256(data)
		out[name] = "sha256:" + hex.EncodeToString(sum[:])
	}
	return out
}

// CheckSaved re-reads what a saved plan touches and reports what changed
// since it was made (apply refuses such a plan).
func CheckSaved(ctx context.Context, saved *planfile.Plan, t *Target) error {
	if saved.Target != t.Describe() {
		return &apply.StaleError{Changed: []apply.Drift{{Address: "target",
			Detail: fmt.Sprintf("plan was made for %s, not %s", saved.Target, t.Describe())}}}
	}
	read := t.Read.Clone()
	for _, pre := range saved.Preconditions {
		if id, err := plan.ParseID(pre.ID); err == nil {
			read.Add(id.Kind, id.ResourceGroup)
			if id.Kind == plan.KindSubnet {
				read.AddVNet(plan.VNetRef{ResourceGroup: id.ResourceGroup, Name: id.Names[0]})
			}
		}
	}
	now, err := t.Provider.Read(ctx, read)
	if err != nil {
		return fmt.Errorf("read %s: %w", t.Describe(), err)
	}
	return apply.CheckFresh(saved, now)
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
