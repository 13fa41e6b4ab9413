package desired

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

const testUID = "257b9655-5137-4ad2-b091-ef3f07043ad3" // prefix testPrefix

// testConfig is a parsed azure.json for tests, changed by muts.
func testConfig(t testing.TB, muts ...func(*cluster.Config)) *cluster.Config {
	t.Helper()
	cfg, _, err := cluster.Parse([]byte(`{"subscriptionId":"sub","resourceGroup":"rg","location":"westeurope",
		"vnetName":"vnet","subnetName":"subnet","securityGroupName":"nsg"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range muts {
		m(cfg)
	}
	return cfg
}

func sharedProbeMode(c *cluster.Config) { c.HealthProbeMode = cluster.ProbeModeShared }
func basicSKU(c *cluster.Config)        { c.LoadBalancerSKU = cluster.SKUBasic }

// manifest builds a Service manifest: annotations as "key: value" lines
// (keys without the service.beta.kubernetes.io/ prefix), spec as extra
// indented YAML under spec, ports as YAML list items.
func manifest(name string, annotations map[string]string, spec string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n  namespace: ns\n  uid: %s\n", name, uidFor(name))
	if len(annotations) > 0 {
		b.WriteString("  annotations:\n")
		for k, v := range annotations {
			fmt.Fprintf(&b, "    service.beta.kubernetes.io/%s: %q\n", k, v)
		}
	}
	b.WriteString("spec:\n  type: LoadBalancer\n")
	b.WriteString(spec)
	return b.String()
}

// uidFor gives test Service "svc" the UID behind testPrefix and others a
// UID derived from their name, so names in assertions stay readable. (The
// derivation is the UUIDv5 azsvc once gave manifests without a UID; the
// goldens of this package are written with it.)
func uidFor(name string) string {
	if name == "svc" {
		return testUID
	}
	return uuid.NewSHA1(uuid.MustParse("446a0fa1-5952-517f-881e-bf6079095bce"), []byte("test/"+name)).String()
}

const tcp80 = `  ports:
  - {name: http, protocol: TCP, port: 80, nodePort: 30080}
`

// build decodes manifests and builds their desired state.
func build(t testing.TB, cfg *cluster.Config, manifests ...string) (*plan.State, plan.Scope, []service.Diagnostic) {
	t.Helper()
	var svcs []*service.Service
	for i, m := range manifests {
		in := service.Decode(fmt.Sprintf("m%d.yaml", i), []byte(m))
		for _, d := range in.Diagnostics {
			if d.Severity == service.SeverityError {
				t.Fatalf("manifest %d: %s: %s", i, d.Pos, d.Message)
			}
		}
		svcs = append(svcs, in.Services...)
	}
	return Build(svcs, cfg)
}

// mustBuild is build that fails on diagnostics.
func mustBuild(t testing.TB, cfg *cluster.Config, manifests ...string) *plan.State {
	t.Helper()
	st, _, diags := build(t, cfg, manifests...)
	for _, d := range diags {
		t.Fatalf("unexpected diagnostic %s %s: %s", d.Code, d.Pos, d.Message)
	}
	return st
}

// named returns the resource of kind k named name, or nil.
func named(st *plan.State, k plan.Kind, name string) *plan.Resource {
	for _, r := range st.OfKind(k) {
		if r.Name() == name {
			return r
		}
	}
	return nil
}

// names lists the names of resources of kind k.
func names(st *plan.State, k plan.Kind) []string {
	var out []string
	for _, r := range st.OfKind(k) {
		out = append(out, r.Name())
	}
	return out
}

func refName(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	id, _ := m["id"].(string)
	return id[strings.LastIndex(id, "/")+1:]
}
