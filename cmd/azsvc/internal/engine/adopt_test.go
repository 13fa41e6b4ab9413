package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

var uidLine = regexp.MustCompile(`(?m)^  uid: [0-9a-f-]+\n|, uid: [0-9a-f-]+\}`)

func withoutUIDs(manifests string) string {
	return uidLine.ReplaceAllStringFunc(manifests, func(m string) string {
		if strings.HasSuffix(m, "}") {
			return "}"
		}
		return ""
	})
}

// TestAdoptUIDFromAzure applies examples/exported-without-uid/cluster.yaml
// (what CCM built for the cluster's Services), then plans exported.yaml,
// the same Services without metadata.uid: every name is found in ARM, the
// plan is empty and says where each UID came from (issue 13 item 0).
func TestAdoptUIDFromAzure(t *testing.T) {
	dir := filepath.Join(examples, "exported-without-uid")
	built, err := os.ReadFile(filepath.Join(dir, "cluster.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	exported, err := os.ReadFile(filepath.Join(dir, "exported.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := docs(withoutUIDs(string(built))), docs(string(exported)); a != b {
		t.Fatalf("exported.yaml is not cluster.yaml without UIDs:\n%s\n---\n%s", a, b)
	}
	withUIDs := loadExample(t, filepath.Join(dir, "cluster.yaml"))
	tg := newExampleTarget(t, withUIDs, emulator.Options{InstantOperations: true})
	first := mustPlan(t, withUIDs, tg)
	if len(first.Blocked) > 0 {
		t.Fatalf("first plan blocked: %+v", first.Blocked)
	}
	mustApply(t, first, tg)
	requireEmptyPlan(t, withUIDs, tg, "with UIDs")

	files := []string{filepath.Join("examples", "exported-without-uid", "exported.yaml")}
	in := loadExample(t, filepath.Join(dir, "exported.yaml"))
	// Without adoption the derived UIDs would plan a second public IP, and
	// rules on the shared address that CCM's rules already hold.
	observed, err := tg.Provider.Read(context.Background(), tg.Read)
	if err != nil {
		t.Fatal(err)
	}
	naive, _, err := PlanAgainst(in.Desired, observed, in.Scope)
	if err != nil || !createsPublicIP(naive) || len(naive.Blocked) == 0 {
		t.Fatalf("derived UIDs plan no second public IP or no blocked port (err %v):\n%s", err, planLines(naive))
	}
	p := mustPlan(t, in, tg)
	requireEmpty(t, "manifests without UIDs", p)
	want := map[string]string{}
	for _, s := range withUIDs.Service.Services {
		want[s.Key()] = desired.Prefix(string(s.UID))
	}
	if len(p.Adopted) != len(want) || len(p.Blocked) > 0 {
		t.Fatalf("adopted %+v blocked %+v, want all %d Services and nothing blocked", p.Adopted, p.Blocked, len(want))
	}
	for _, a := range p.Adopted {
		if want[a.Service] != a.Prefix || len(a.Evidence) == 0 {
			t.Errorf("adopted %+v, want prefix %s with evidence", a, want[a.Service])
		}
	}
	renderGolden(t, filepath.Join(dir, "plan.golden.txt"), func(w *bytes.Buffer) error {
		return planview.Text(w, View(p, in, tg, files), style.New(false))
	})
	// Planning again with the same inputs adopts the same way.
	requireEmptyPlan(t, in, tg, "second plan without UIDs")
}

// docs drops comment lines, which differ between the two files.
func docs(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func createsPublicIP(p *plan.Plan) bool {
	for _, c := range p.Changes {
		if c.ID().Kind == plan.KindPublicIP && c.Has(plan.ActionCreate) {
			return true
		}
	}
	return false
}

// TestAdoptUIDConflict: two public IPs tagged with one Service lead to two
// frontends with rules for its port; azsvc cannot tell which UID CCM used
// and refuses the Service, naming both.
func TestAdoptUIDConflict(t *testing.T) {
	cfg := exampleConfig(t)
	two := `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop, uid: 6f0c2d1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f}
spec: {type: LoadBalancer, ports: [{port: 80, nodePort: 30080}]}
---
apiVersion: v1
kind: Service
metadata: {name: web2, namespace: shop, uid: 0b7e9c4a-2d1f-4e8b-a6c5-3f9d8e7a6b5c}
spec: {type: LoadBalancer, ports: [{port: 80, nodePort: 30081}]}
`
	withUIDs := mustInputs(t, cfg, []byte(two), false)
	tg := newMemTarget(t, withUIDs, emulator.Options{InstantOperations: true})
	mustApply(t, mustPlan(t, withUIDs, tg), tg)
	// Someone retagged web2's public IP as web's.
	pip := plan.NewID(cfg.SubscriptionForIDs(), cfg.ResourceGroup, plan.KindPublicIP,
		cfg.ClusterName+"-"+desired.Prefix("0b7e9c4a-2d1f-4e8b-a6c5-3f9d8e7a6b5c")).String()
	body, ok := getBody(t, tg.Emulator, pip)
	if !ok {
		t.Fatalf("no public IP %s", pip)
	}
	putBody(t, tg.Emulator, pip, strings.Replace(body, `"shop/web2"`, `"shop/web"`, 1))

	web := strings.SplitN(two, "---\n", 2)[0]
	in := mustInputs(t, cfg, []byte(withoutUIDs(web)), false)
	p := mustPlan(t, in, tg)
	var conflict *service.Diagnostic
	for i, d := range in.Diagnostics {
		if d.Code == service.CodeRefuseUIDConflict {
			conflict = &in.Diagnostics[i]
		}
	}
	if conflict == nil || conflict.Service != "shop/web" || conflict.Severity != service.SeverityError {
		t.Fatalf("diagnostics %+v, want a UID conflict error for shop/web", in.Diagnostics)
	}
	for _, uid := range []string{"6f0c2d1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f", "0b7e9c4a-2d1f-4e8b-a6c5-3f9d8e7a6b5c"} {
		if !strings.Contains(conflict.Message, desired.Prefix(uid)) {
			t.Errorf("conflict %q does not name %s", conflict.Message, desired.Prefix(uid))
		}
	}
	if len(p.Changes) != 0 || len(p.Adopted) != 0 {
		t.Errorf("a refused Service planned changes:\n%s adopted %+v", planLines(p), p.Adopted)
	}
	// Planning again does not repeat the error.
	mustPlan(t, in, tg)
	n := 0
	for _, d := range in.Diagnostics {
		if d.Code == service.CodeRefuseUIDConflict {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d UID conflicts after planning twice, want 1", n)
	}
}
