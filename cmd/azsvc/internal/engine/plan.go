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
	"github.com/azsvc/azsvc/providers/azure"
)

// Plan reads the target and diffs it against the desired state.
func Plan(ctx context.Context, in *Inputs, t *Target) (*plan.Plan, *plan.State, error) {
	observed, err := t.Provider.Read(ctx, t.Read)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", t.Describe(), err)
	}
	p, err := plan.Diff(in.Desired, observed, in.Scope)
	if err != nil {
		return nil, nil, err
	}
	return p, observed, nil
}

// Save writes p in its saved form (azsvc plan --out), with the hashes of
// the inputs and the target, so apply can refuse it once stale.
func Save(path string, p *plan.Plan, in *Inputs, t *Target) (*plan.SavedPlan, error) {
	saved := plan.NewSavedPlan(p, t.Describe(), InputHashes(in), in.Scope)
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
func LoadSaved(path string) (*plan.SavedPlan, *plan.Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read saved plan: %w", err)
	}
	var saved plan.SavedPlan
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

// InputHashes maps every input file to the SHA-256 of its bytes, and a live
// cluster ("cluster") to a hash of its Services' UIDs and resourceVersions.
func InputHashes(in *Inputs) map[string]string {
	out := map[string]string{}
	for name, data := range in.Service.Sources {
		sum := sha256.Sum256(data)
		out[name] = "sha256:" + hex.EncodeToString(sum[:])
	}
	if in.Cluster != nil {
		lines := make([]string, 0, len(in.Cluster.Snapshot.Services))
		for _, s := range in.Cluster.Snapshot.Services {
			lines = append(lines, s.Namespace+"/"+s.Name+" "+string(s.UID)+" "+s.ResourceVersion)
		}
		out["cluster"] = HashStrings(lines)
	}
	return out
}

// CheckFresh re-reads what p touches and refuses it (ErrStale) when
// anything changed since it was planned: apply runs it once the lease is
// taken, so a change another writer made before then is never overwritten.
func CheckFresh(ctx context.Context, p *plan.Plan, in *Inputs, t *Target) error {
	return CheckSaved(ctx, plan.NewSavedPlan(p, t.Describe(), nil, in.Scope), t)
}

// CheckSaved re-reads what a saved plan touches and reports what changed
// since it was made (apply refuses such a plan).
func CheckSaved(ctx context.Context, saved *plan.SavedPlan, t *Target) error {
	if saved.Target != t.Describe() {
		return &apply.StaleError{Changed: []apply.Drift{{Address: "target",
			Detail: fmt.Sprintf("plan was made for %s, not %s", saved.Target, t.Describe())}}}
	}
	read := t.Read
	for _, pre := range saved.Preconditions {
		addGroupOf(&read, pre.ID)
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

// addGroupOf adds the resource group of id to the read scope of its kind,
// so a saved plan is checked against every group it touches.
func addGroupOf(r *azure.ReadScope, id string) {
	pid, err := plan.ParseID(id)
	if err != nil {
		return
	}
	top := pid.Kind
	if p := top.Parent(); p != "" {
		top = p
	}
	switch top {
	case plan.KindLoadBalancer:
		r.LoadBalancerGroups = append(r.LoadBalancerGroups, pid.ResourceGroup)
	case plan.KindPublicIP:
		r.PublicIPGroups = append(r.PublicIPGroups, pid.ResourceGroup)
	case plan.KindSecurityGroup:
		r.SecurityGroupGroups = append(r.SecurityGroupGroups, pid.ResourceGroup)
	case plan.KindPrivateLinkService:
		r.PrivateLinkGroups = append(r.PrivateLinkGroups, pid.ResourceGroup)
	case plan.KindPrivateEndpoint:
		r.PrivateEndpointGroups = append(r.PrivateEndpointGroups, pid.ResourceGroup)
	case plan.KindPrivateDNSZone:
		r.DNSZoneGroups = append(r.DNSZoneGroups, pid.ResourceGroup)
	}
}
