package desired

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// TestInvariants checks properties every desired state must have, over a
// varied generated Service set: names valid for ARM, every resource serving
// a Service in scope, every reference resolving inside the state (or to a
// resource azsvc never creates: user-assigned PIPs, prefixes, subnets),
// rules referencing children of their own LB.
func TestInvariants(t *testing.T) {
	// ARM's name rule (arm-rules §1.2): at most 80 characters, starting
	// with a word character, ending with a word character or "_".
	armName := regexp.MustCompile(`^\w[\w.\-]{0,78}[\w_]$|^\w$`)
	svcs := generated(500)
	st, scope, diags := Build(svcs, testConfig(t))
	if len(diags) != 0 || len(scope.Services) != len(svcs) {
		t.Fatalf("diags %v, scope %d", diags, len(scope.Services))
	}
	inScope := map[string]bool{}
	for _, s := range scope.Services {
		inScope[s.Name] = true
	}
	for _, r := range st.Resources() {
		if !armName.MatchString(r.Name()) {
			t.Errorf("%s: name is not a valid ARM name", r.ID.Address())
		}
		if len(r.Services) == 0 {
			t.Errorf("%s serves no Service", r.ID.Address())
		}
		for _, s := range r.Services {
			if !inScope[s] {
				t.Errorf("%s serves %s, which is not in scope", r.ID.Address(), s)
			}
		}
		for _, ref := range r.References() {
			if _, ok := st.Get(ref); ok {
				continue
			}
			if !strings.Contains(string(ref), "/subnets/") && !strings.Contains(string(ref), "/publicipprefixes/") {
				t.Errorf("%s references %s, which is not in the desired state", r.ID.Address(), ref)
			}
		}
		if r.Kind() == plan.KindRule {
			lb := r.ID.Names[0]
			for _, k := range []string{"frontendIPConfiguration", "backendAddressPool", "probe"} {
				if ref, ok := r.Properties[k].(map[string]any); ok && !strings.Contains(ref["id"].(string), "/loadBalancers/"+lb+"/") {
					t.Errorf("%s: %s on another LB: %v", r.ID.Address(), k, ref["id"])
				}
			}
		}
	}
}

// TestDeterministic checks that input order does not matter: the same
// Services in reverse order give the same state, scope and diagnostics.
func TestDeterministic(t *testing.T) {
	svcs := generated(300)
	svcs = append(svcs, mustDecode(t,
		manifest("shared-a", map[string]string{"azure-load-balancer-ipv4": "20.62.10.5"}, tcp80),
		manifest("shared-b", map[string]string{"azure-load-balancer-ipv4": "20.62.10.5"}, "  ports:\n  - {port: 81, nodePort: 30081}\n"),
	)...)
	reversed := make([]*service.Service, len(svcs))
	for i, s := range svcs {
		reversed[len(svcs)-1-i] = s
	}
	cfg := testConfig(t)
	st1, scope1, d1 := Build(svcs, cfg)
	st2, scope2, d2 := Build(reversed, cfg)
	opts := cmp.Comparer(func(a, b *plan.Resource) bool {
		return a.Key() == b.Key() && cmp.Equal(a.Services, b.Services) && cmp.Equal(a.Tags, b.Tags) &&
			cmp.Equal(a.Zones, b.Zones) && cmp.Equal(a.SKU, b.SKU) && cmp.Equal(render(a.Properties), render(b.Properties))
	})
	if d := cmp.Diff(st1.Resources(), st2.Resources(), opts); d != "" {
		t.Errorf("states differ with input order (-first +reversed):\n%s", d)
	}
	if d := cmp.Diff(scope1, scope2); d != "" {
		t.Errorf("scopes differ:\n%s", d)
	}
	if d := cmp.Diff(d1, d2); d != "" {
		t.Errorf("diagnostics differ:\n%s", d)
	}
}

// render turns markers into comparable strings.
func render(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			out[k] = render(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = render(x)
		}
		return out
	}
	if plan.IsUnknown(v) {
		src, field, _ := plan.UnknownSource(v)
		return "unknown:" + string(src) + "#" + field
	}
	return v
}

func mustDecode(t *testing.T, manifests ...string) []*service.Service {
	t.Helper()
	var out []*service.Service
	for _, m := range manifests {
		out = append(out, service.Decode("m.yaml", []byte(m)).Services...)
	}
	return out
}
