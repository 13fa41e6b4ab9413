package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/apply"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// Helpers of the end-to-end tests (property, fault and scale): in-memory
// inputs, an emulator with a PLS-ready VNet, and body snapshots.

const exampleCluster = "aks-prod-weu"

// configFrom parses azure.json bytes as loadConfig does a file.
func configFrom(t testing.TB, data []byte, clusterName string) *cluster.Config {
	t.Helper()
	cfg, _, err := cluster.Parse(data)
	if err != nil {
		t.Fatalf("parse azure.json: %v", err)
	}
	cfg.ClusterName = clusterName
	if cfg.SubscriptionForIDs() == "" {
		cfg.SubscriptionID = emulatorSubscription
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("azure.json: %v", err)
	}
	return cfg
}

func exampleAzureJSON(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(examples, "azure.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func exampleConfig(t testing.TB) *cluster.Config {
	t.Helper()
	return configFrom(t, exampleAzureJSON(t), exampleCluster)
}

// inputsFrom mirrors LoadInputs for manifests held in memory: the bytes go
// through the real decoder, validation and desired.Build.
func inputsFrom(cfg *cluster.Config, name string, data []byte, prune bool) *Inputs {
	return Build(service.Decode(name, data), cfg, prune)
}

func mustInputs(t testing.TB, cfg *cluster.Config, data []byte, prune bool) *Inputs {
	t.Helper()
	in := inputsFrom(cfg, "generated.yaml", data, prune)
	if in.HasErrors() {
		var lines []string
		for _, d := range in.Diagnostics {
			if d.Severity == service.SeverityError {
				lines = append(lines, fmt.Sprintf("%+v", d))
			}
		}
		t.Fatalf("generated Services have errors:\n%s\n--- manifests ---\n%.4000s", strings.Join(lines, "\n"), data)
	}
	return in
}

// plsSubnet is where generated PLS place their NAT IPs. It is seeded as ARM
// creates subnets, with PLS network policies enabled: azsvc plans disabling
// them before the first PLS, as CCM does (ccm-semantics §8 "Subnet policy").
const plsSubnet = "pls-subnet"

// vnetSeed is the cluster VNet with the node subnet and the PLS subnet.
func vnetSeed(cfg *cluster.Config) string {
	base := fmt.Sprintf("/subscriptions/%s/resourceGroups/%s/providers/Microsoft.Network/",
		cfg.SubscriptionForIDs(), cfg.ResourceGroup)
	nsg := base + "networkSecurityGroups/" + cfg.SecurityGroupName
	return fmt.Sprintf(`{"id": %q, "location": %q, "properties": {
  "addressSpace": {"addressPrefixes": [%q]},
  "subnets": [
    {"name": %q, "properties": {"addressPrefix": %q, "networkSecurityGroup": {"id": %q}}},
    {"name": %q, "properties": {"addressPrefix": "10.225.1.0/24"}}
  ]}}`, base+"virtualNetworks/"+cfg.VnetName, cfg.Location, baselineVNetCIDR,
		cfg.SubnetName, baselineNodeSubnet, nsg, plsSubnet)
}

// guestSeed is a guest cluster's VNet in another subscription, where
// generated private endpoints go: the names of the HyperShift example's,
// with a subnet for a thousand endpoints.
var guestSeed = `[{"id": "/subscriptions/` + guestSub + `/resourceGroups/` + guestRG + `", "location": "westeurope"},
  {"id": "` + guestVNet + `", "location": "westeurope", "properties": {
    "addressSpace": {"addressPrefixes": ["10.100.0.0/16"]},
    "subnets": [{"name": "guest-pe-subnet", "properties": {"addressPrefix": "10.100.16.0/20"}}]}}]`

// newMemTarget opens an in-memory emulator holding the cluster VNet (with
// the PLS subnet) and a guest VNet in another subscription, then the
// engine's baseline.
func newMemTarget(t testing.TB, in *Inputs, opts emulator.Options) *Target {
	t.Helper()
	emu, err := emulator.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Seed([]byte(vnetSeed(in.Config)), []byte(guestSeed)); err != nil {
		t.Fatalf("seed emulator: %v", err)
	}
	tg, err := EmulatorTarget(emu, in, "test emulator")
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// retarget points the target's reads at what in needs (the read scope
// depends on the Services' annotations).
func retarget(tg *Target, in *Inputs) { tg.Read = ReadScopeOf(in) }

// retryAttempts is the attempts per step the tests give apply.
const retryAttempts = 5

// fastRetry keeps the retries of injected faults in the millisecond range.
func fastRetry() apply.Options {
	return apply.Options{Retry: apply.RetryPolicy{MaxAttempts: retryAttempts, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond}}
}

// planLines describes a plan's steps and changes for failure messages.
func planLines(p *plan.Plan) string {
	var b strings.Builder
	for i, st := range p.Steps {
		fmt.Fprintf(&b, "  step %d: %s %s\n", i+1, st.Op, st.Target.Address())
		for _, c := range st.Changes {
			fmt.Fprintf(&b, "    %v %s (%s)", c.Actions, c.ID().Address(), c.Reason)
			for _, a := range c.Attributes {
				fmt.Fprintf(&b, " %+v", a)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// requireEmptyPlan plans again and fails when anything would change.
func requireEmptyPlan(t testing.TB, in *Inputs, tg *Target, what string) {
	t.Helper()
	p, _, err := Plan(context.Background(), in, tg)
	if err != nil {
		t.Fatalf("%s: plan: %v", what, err)
	}
	if len(p.Steps) != 0 || len(p.Changes) != 0 {
		t.Fatalf("%s: second plan is not empty (%d steps):\n%s", what, len(p.Steps), planLines(p))
	}
}

// serveARM sends one request through the emulator's handler, outside the
// provider, at an api-version the path's resource provider serves.
func serveARM(emu *emulator.Emulator, method, id, body string) *httptest.ResponseRecorder {
	version := "2024-05-01"
	if strings.Contains(strings.ToLower(id), "/privatednszones/") {
		version = "2024-06-01"
	}
	req := httptest.NewRequest(method, emulator.Endpoint+id+"?api-version="+version, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	emu.Handler().ServeHTTP(rec, req)
	return rec
}

// getBody GETs one resource (or child) and returns its body with every
// etag removed, re-encoded canonically; ok is false on 404.
func getBody(t testing.TB, emu *emulator.Emulator, id string) (string, bool) {
	t.Helper()
	rec := serveARM(emu, http.MethodGet, id, "")
	if rec.Code == http.StatusNotFound {
		return "", false
	}
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", id, rec.Code, rec.Body.String())
	}
	var body any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("GET %s: %v", id, err)
	}
	out, err := json.Marshal(withoutEtags(body))
	if err != nil {
		t.Fatal(err)
	}
	return string(out), true
}

// withoutEtags drops etags, and the counters a private DNS zone keeps of
// its records and links (numberOfRecordSets, ...): neither is the body a
// user wrote.
func withoutEtags(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "etag")
		for k := range x {
			if strings.HasPrefix(k, "numberOf") {
				delete(x, k)
			}
		}
		for k, e := range x {
			x[k] = withoutEtags(e)
		}
	case []any:
		for i, e := range x {
			x[i] = withoutEtags(e)
		}
	}
	return v
}

// putBody PUTs a resource as a user's `az network ... create` would; the
// emulator stores it in GET shape.
func putBody(t testing.TB, emu *emulator.Emulator, id, body string) {
	t.Helper()
	if rec := serveARM(emu, http.MethodPut, id, body); rec.Code != http.StatusOK && rec.Code != http.StatusCreated {
		t.Fatalf("PUT %s: %d %s", id, rec.Code, rec.Body.String())
	}
}

// requireAllDesiredExist checks that every resource of the desired state
// exists in the emulator: nothing was lost.
func requireAllDesiredExist(t testing.TB, emu *emulator.Emulator, in *Inputs, what string) {
	t.Helper()
	for _, r := range in.Desired.Resources() {
		if r.Kind() == plan.KindPLSConnection {
			continue // an approval: written once, named by ARM
		}
		if _, ok := getBody(t, emu, r.ID.String()); !ok {
			t.Fatalf("%s: desired %s does not exist", what, r.ID.Address())
		}
	}
}
