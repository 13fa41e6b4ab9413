package engine

import (
	"path/filepath"
	"testing"

	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestStatusGitOps is examples/gitops, whose manifests hold no UID or node
// port: against an empty subscription status says that nothing is in
// Azure yet and that the UIDs are unknown; against what CCM built for the
// same Services (cluster.yaml) the UIDs come from Azure, as plan finds
// them, and every condition is True.
func TestStatusGitOps(t *testing.T) {
	dir := filepath.Join(examples, "gitops")
	repo := loadExample(t, filepath.Join(dir, "deploy"))
	empty := newExampleTarget(t, repo, emulator.Options{InstantOperations: true})
	built := loadExample(t, filepath.Join(dir, "cluster.yaml"))
	ccm := newExampleTarget(t, built, emulator.Options{InstantOperations: true})
	mustApply(t, mustPlan(t, built, ccm), ccm)

	view := statusInput(t, repo, empty, dir)
	for _, s := range view.Report.Services {
		if s.InAzure || s.UID != conditions.UIDUnknown {
			t.Errorf("%s against an empty subscription: in Azure %v, UID %s", s.Name, s.InAzure, s.UID)
		}
		requireCondition(t, view.Report, s.Name, conditions.LoadBalancerReady, conditions.False, conditions.NotCreated)
		if c := requireCondition(t, view.Report, s.Name, conditions.InSync, conditions.False, conditions.ChangesPending); c.Changes.Unresolved == 0 {
			t.Errorf("%s: InSync %+v does not count the values the API server assigns", s.Name, *c.Changes)
		}
	}
	statusGolden(t, view, filepath.Join(dir, "status.golden.txt"), false, "")

	view = statusInput(t, repo, ccm, dir)
	if !view.Report.Ready() || len(view.Report.Services) != 3 {
		t.Fatalf("over what CCM built: ready %v, %d Services", view.Report.Ready(), len(view.Report.Services))
	}
	for _, s := range view.Report.Services {
		if s.UID != conditions.UIDFromAzure {
			t.Errorf("%s: UID %s, want from Azure", s.Name, s.UID)
		}
	}
	statusGolden(t, view, filepath.Join(dir, "status-ccm.golden.txt"), false, "")
}

// TestStatusReadsGrowOnlyByPages: status reads ARM as plan does, with list
// calls per type and resource group, never one read per Service: 1,000
// Services cost the reads of 100 plus exactly the extra list pages.
func TestStatusReadsGrowOnlyByPages(t *testing.T) {
	cfg := scaleConfig(t)
	reads := func(n, pageSize int) (int, *Target) {
		in := mustInputs(t, cfg, scaleManifests(n), false)
		tg := appliedTarget(t, in, emulator.Options{InstantOperations: true, PageSize: pageSize})
		if r := mustStatus(t, in, tg); !r.Ready() || len(r.Services) != n {
			t.Fatalf("%d Services: ready %v, %d reported", n, r.Ready(), len(r.Services))
		}
		c := tg.Emulator.Counters()
		if c.Writes("") != 0 || c.Count(emulator.MethodGet, "") != 0 {
			t.Fatalf("%d Services: status made %d writes and %d single GETs:\n%s", n, c.Writes(""), c.Count(emulator.MethodGet, ""), c)
		}
		return c.Reads(""), tg
	}
	const unpaged = 1 << 20
	small, _ := reads(100, unpaged)
	large, _ := reads(1000, unpaged)
	if small != large {
		t.Fatalf("without paging, status of 100 Services takes %d reads and of 1,000 %d", small, large)
	}
	paged, tg := reads(1000, 100)
	if want := extraPages(mustRead(t, tg), 100); paged-large != want {
		t.Fatalf("1,000 Services with 100-item pages: %d reads, %d more than unpaged; want %d more (the extra pages)", paged, paged-large, want)
	}
	t.Logf("status reads: 100 Services %d, 1,000 Services %d (unpaged), %d with 100-item pages", small, large, paged)
}
