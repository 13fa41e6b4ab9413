package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/resolve"
	"github.com/azsvc/azsvc/plan/service"
)

// A saved plan is checked, not trusted: apply makes it again from the
// inputs it records, against the target as it is now, and refuses it
// (exit 5) unless the plan made now does exactly what the saved one says.
// That re-checks everything the saved plan relies on at once: that no
// resource it touches changed, that azsvc still owns what it deletes and
// updates, and that nobody edited the file (its checksum says that too).

// Save writes p in its saved form (azsvc plan --out), readable by its
// owner only: the sources, preconditions and target apply checks it with,
// and the record of what it leaves in Azure that a later plan --since
// compares with; since names the saved plan p's drift was found against.
func Save(path string, p *plan.Plan, res *resolve.Resolved, in *Inputs, t *Target, since string) (*planfile.Plan, error) {
	src, err := SourcesOf(in)
	if err != nil {
		return nil, err
	}
	src.Target = t.Chosen
	saved := planfile.New(p, t.Describe(), InputHashes(in), in.Scope, planfile.Preconditions(p, res.Observed, res.Managed))
	saved.Sources, saved.Record, saved.Since = src, planfile.RecordOf(p, res), since
	data, err := planfile.Marshal(saved)
	if err != nil {
		return nil, err
	}
	var pathErr *OutPathError
	if err := writeFileAtomic(path, data); errors.As(err, &pathErr) {
		return nil, err
	} else if err != nil {
		return nil, fmt.Errorf("write saved plan: %w", err)
	}
	return saved, nil
}

// LoadSaved reads a plan written by Save, refusing a modified file.
func LoadSaved(path string) (*planfile.Plan, *plan.Plan, error) {
	data, err := readBounded(path, MaxSavedPlanSize, "saved plan")
	if err != nil {
		return nil, nil, err
	}
	saved, err := planfile.Unmarshal(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	p, err := saved.Restore()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return saved, p, nil
}

// SourcesOf records what a plan of in was made from: the manifests in the
// order read, azure.json without its secrets, the settings that shape a
// plan.
func SourcesOf(in *Inputs) (planfile.Sources, error) {
	cfg, err := cluster.Redacted(in.ConfigData)
	if err != nil {
		return planfile.Sources{}, fmt.Errorf("%s: %w", in.ConfigName, err)
	}
	src := planfile.Sources{Files: in.Files, Config: planfile.Source{Name: in.ConfigName, Content: string(cfg)},
		ClusterName: in.Config.ClusterName, Subscription: in.Subscription, Prune: in.Scope.Prune}
	for _, name := range in.Service.Files {
		src.Manifests = append(src.Manifests, planfile.Source{Name: name, Content: string(in.Service.Sources[name])})
	}
	if src.Cluster, err = clusterSource(in.Cluster); err != nil {
		return planfile.Sources{}, err
	}
	return src, nil
}

// InputsFromSaved rebuilds the inputs a saved plan was made from. A
// configuration given now (s.AzureConfig) must be the recorded one but for
// its secrets, which it supplies for the credentials; the settings that
// shape a plan (cluster name, subscription, prune) are the recorded ones.
func InputsFromSaved(saved *planfile.Plan, s Settings) (*Inputs, error) {
	src := saved.Sources
	data := []byte(src.Config.Content)
	if s.AzureConfig != "" {
		given, err := readBounded(s.AzureConfig, MaxConfigSize, "cluster configuration")
		if err != nil {
			return nil, err
		}
		if red, err := cluster.Redacted(given); err != nil || string(red) != src.Config.Content {
			return nil, &apply.StaleError{Changed: []apply.Drift{{Address: "config",
				Detail: fmt.Sprintf("%s is not the configuration the plan was made with (%s)", s.AzureConfig, src.Config.Name)}}}
		}
		data = given
	}
	s.AzureConfig, s.ClusterName, s.Subscription, s.Prune, s.Files = src.Config.Name, src.ClusterName, src.Subscription, src.Prune, src.Files
	s.AllowEmptyPrune = true // the plan was made, so it passed (or was allowed past) that check
	s.Focus = Focus{Services: saved.Scope.Focus}
	names := make([]string, len(src.Manifests))
	files := make(map[string][]byte, len(src.Manifests))
	for i, m := range src.Manifests {
		names[i], files[m.Name] = m.Name, []byte(m.Content)
	}
	live, err := clusterFromSaved(src.Cluster)
	if err != nil {
		return nil, err
	}
	s.Cluster = live
	svc := service.DecodeFiles(names, files)
	Overlay(svc, live)
	return inputsOf(s, svc, data)
}

// CheckSaved makes the saved plan again against t and refuses it
// (*apply.StaleError, exit 5) unless the plan made now has the same
// changes and steps, exactly. The refusal names what changed since: the
// resources whose owned content moved, else the first step that differs.
func CheckSaved(ctx context.Context, saved *planfile.Plan, in *Inputs, t *Target) error {
	// A recorded emulator target was opened from its absolute path
	// (TargetOfSaved), which the header, naming the path as given, need
	// not show.
	if saved.Target != t.Describe() && saved.Sources.Target.Kind != "emulator" {
		return &apply.StaleError{Changed: []apply.Drift{{Address: "target",
			Detail: fmt.Sprintf("plan was made for %s, not %s", saved.Target, t.Describe())}}}
	}
	if in.HasErrors() {
		return &apply.StaleError{Changed: []apply.Drift{{Address: "inputs", Detail: "the recorded manifests no longer plan without errors"}}}
	}
	p, res, err := Plan(ctx, in, t)
	if err != nil {
		return err
	}
	if in.HasErrors() { // a UID Azure no longer tells apart (adoptUIDs)
		return &apply.StaleError{Changed: []apply.Drift{{Address: "inputs", Detail: "the recorded manifests no longer plan without errors"}}}
	}
	fresh := planfile.New(p, t.Describe(), nil, in.Scope, nil)
	where := planfile.SameChanges(saved, fresh)
	if where == "" {
		return nil
	}
	stale := apply.CheckFresh(saved, res.Observed.State)
	if stale != nil {
		return stale
	}
	return &apply.StaleError{Changed: []apply.Drift{{Address: where, Detail: "the plan made now differs here from the saved one"}}}
}
