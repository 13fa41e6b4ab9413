package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// TestPruneKeepsConnectedPLS: with --prune and only a PrivateEndpoint in
// the input that names a PLS by ID, the Service that carries the PLS is not
// in the input, yet its frontend and PLS stay: deleting them would cut the
// endpoint the input declares (its re-creation then fails against nothing).
// The plan says why; nothing of the endpoint's chain is deleted.
func TestPruneKeepsConnectedPLS(t *testing.T) {
	in := loadExample(t, hypershiftDir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	applyPlan(t, in, tg)
	var plsID string
	for _, e := range mustRead(t, tg).OfKind(plan.KindPrivateLinkService) {
		plsID = e.ID.String()
	}
	if plsID == "" {
		t.Fatal("the example made no private link service")
	}
	data, err := os.ReadFile(filepath.Join(hypershiftDir, "endpoint.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	byID := strings.Replace(string(data), "  service: private-router\n", "  privateLinkServiceID: "+plsID+"\n", 1)
	file := filepath.Join(t.TempDir(), "endpoint.yaml")
	if err := os.WriteFile(file, []byte(byID), 0o644); err != nil {
		t.Fatal(err)
	}
	only := loadFiles(t, true, file)
	retarget(tg, only)
	p := mustPlan(t, only, tg)
	for _, s := range stepList(p) {
		if strings.HasPrefix(s, "delete pls/") || strings.HasPrefix(s, "delete pe/") || strings.HasPrefix(s, "delete dnszone/") ||
			strings.Contains(s, "/frontend/") && strings.HasPrefix(s, "delete ") {
			t.Errorf("the plan deletes %s, which the declared endpoint needs:\n%s", s, planLines(p))
		}
	}
	if !slices.ContainsFunc(p.Blocked, func(b plan.Blocked) bool { return b.Code == plan.BlockEndpointConnected }) {
		t.Errorf("no endpoint_connected block in %+v", p.Blocked)
	}
}
