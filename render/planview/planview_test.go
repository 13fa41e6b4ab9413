package planview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/golden"
	"github.com/azsvc/azsvc/plan/plantest"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

var (
	web  = svcSpec{name: "web/frontend", prefix: "a1b2c3d4e5f60718293a4b5c6d7e8f90", ports: []int{80, 443}}
	shop = svcSpec{name: "shop/api", prefix: "a0f1e2d3c4b5a69788796a5b4c3d2e1f", ports: []int{8443}, pls: true}
)

func header() Header {
	return Header{Target: "local emulator (.azsvc/state.json)", Subscription: sub, ResourceGroup: rg, Cluster: cluster, LBSKU: "Standard", Source: "deploy/"}
}

func mustDiff(t testing.TB, desired, observed *plan.State, scope plan.Scope) *plan.Plan {
	t.Helper()
	p, _, err := plantest.Plan(desired, observed, scope)
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	return p
}

// scenarios are the plans the golden files show.
func scenarios(t *testing.T) map[string]Input {
	out := map[string]Input{}

	desired, observed := newWorld()
	add(desired, observed, web, true)
	out["create"] = Input{Plan: mustDiff(t, desired, observed, scopeFor(web)), Header: header(),
		Sources: map[string]string{"web/frontend": "deploy/web.yaml"}}

	desired, observed = newWorld()
	observeLB(observed)
	w, s := web, shop
	w.ip, s.ip = "20.1.2.3", "20.1.2.4"
	add(desired, observed, w, true)
	add(desired, observed, s, false)
	if r, ok := observed.Get(plan.ChildID(lb(), plan.KindRule, w.prefix+"-TCP-80").Key()); ok {
		r.Properties["idleTimeoutInMinutes"] = 30
	}
	if r, ok := observed.Get(plan.ChildID(lb(), plan.KindProbe, w.prefix+"-TCP-443").Key()); ok {
		r.Properties["protocol"] = "Http"
		r.Properties["requestPath"] = "/"
	}
	observed.Put(&plan.Resource{ID: plan.ChildID(nsg(), plan.KindSecurityRule, "allow-ssh"), Properties: map[string]any{"priority": 100, "access": "Allow", "direction": "Inbound"}})
	blocked := plan.NewID(sub, rg, plan.KindPublicIP, "kubernetes-a9999999999999999999999999999999")
	observed.Put(&plan.Resource{ID: blocked, Location: "eastus", Properties: map[string]any{"ipAddress": "52.0.0.1"}})
	desired.Put(&plan.Resource{ID: blocked, Location: "eastus", Services: []string{"web/other"}, Tags: map[string]string{"k8s-azure-service": "web/other"}})
	p := mustDiff(t, desired, observed, scopeFor(w, s, svcSpec{name: "web/other", prefix: "a9999999999999999999999999999999"}))
	p.Limits = append(p.Limits, plan.Limit{Name: "nsg_rules", Scope: "nsg/" + nsgName, Used: 812, Max: 1000})
	out["mixed"] = Input{Plan: p, Header: header(), PlanID: "sha256:0123abcd",
		Sources: map[string]string{"web/frontend": "deploy/web.yaml", "shop/api": "deploy/shop.yaml"},
		Diagnostics: []service.Diagnostic{{Code: "AZSVC1002", Severity: service.SeverityWarning, Service: "web/frontend",
			Pos: service.Position{File: "deploy/web.yaml", Line: 7, Column: 5}, Message: "appProtocol http switches the probe to HTTP /", Hint: "set a health probe request path"}}}

	desired, observed = newWorld()
	observeLB(observed)
	add(desired, observed, w, true)
	zonal, _ := desired.Get(plan.NewID(sub, rg, plan.KindPublicIP, cluster+"-"+w.prefix).Key())
	zonal.Zones = []string{"1", "2", "3"}
	out["replace"] = Input{Plan: mustDiff(t, desired, observed, scopeFor(w)), Header: header()}

	desired, observed = newWorld()
	observeLB(observed)
	add(desired, observed, w, true)
	out["empty"] = Input{Plan: mustDiff(t, desired, observed, scopeFor(w)), Header: header()}

	// A node joins the IP-based pool and another leaves; the pool of a
	// Local Service has no EndpointSlice input.
	desired, observed = newWorld()
	observeLB(observed)
	add(desired, observed, w, true)
	members := func(st *plan.State, nodes ...int) {
		pool, _ := st.Get(plan.ChildID(lb(), plan.KindBackendPool, cluster).Key())
		var list []any
		for _, n := range nodes {
			list = append(list, map[string]any{"name": fmt.Sprintf("aks-nodepool1-%d", n),
				"properties": map[string]any{"ipAddress": fmt.Sprintf("10.224.0.%d", 4+n)}})
		}
		pool.Properties[plan.PoolMembersField] = list
		pool.Properties["virtualNetwork"] = map[string]any{"id": "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/aks-vnet"}
	}
	members(desired, 0, 1, 2, 4)
	members(observed, 0, 1, 2, 3)
	p = mustDiff(t, desired, observed, scopeFor(w))
	p.Membership = []plan.Membership{{Code: plan.MembershipNoEndpoints, Pools: []string{"lb/kubernetes/pool/web-frontend"}}}
	out["pools"] = Input{Plan: p, Header: header()}

	// Nothing can change, but two desired resources are blocked: one by
	// ownership, one because its subnet does not exist.
	desired, observed = newWorld()
	observeLB(observed)
	add(desired, observed, w, true)
	observed.Put(&plan.Resource{ID: blocked, Location: "eastus", Properties: map[string]any{"ipAddress": "52.0.0.1"}})
	desired.Put(&plan.Resource{ID: blocked, Location: "eastus", Services: []string{"web/other"}, Tags: map[string]string{"k8s-azure-service": "web/other"}})
	vnet := plan.NewID(sub, rg, plan.KindVirtualNetwork, "vnet")
	desired.Put(&plan.Resource{ID: plan.ChildID(vnet, plan.KindSubnet, "pls-subnet"), Services: []string{"web/frontend"},
		Properties: map[string]any{"privateLinkServiceNetworkPolicies": "Disabled"}})
	out["blocked"] = Input{Plan: mustDiff(t, desired, observed, scopeFor(w, svcSpec{name: "web/other", prefix: "a9999999999999999999999999999999"})),
		Header: header()}
	return out
}

func TestGolden(t *testing.T) {
	for name, in := range scenarios(t) {
		for _, f := range []struct {
			ext    string
			render func(*bytes.Buffer) error
		}{
			{"txt", func(b *bytes.Buffer) error { return Text(b, in, style.New(false)) }},
			{"color.txt", func(b *bytes.Buffer) error { return Text(b, in, style.New(true)) }},
			{"json", func(b *bytes.Buffer) error { return JSON(b, in) }},
			{"md", func(b *bytes.Buffer) error { return Markdown(b, in, MarkdownOptions{Artifact: "plan.json"}) }},
		} {
			if name != "mixed" && f.ext == "color.txt" {
				continue
			}
			t.Run(name+"."+f.ext, func(t *testing.T) {
				var b bytes.Buffer
				if err := f.render(&b); err != nil {
					t.Fatal(err)
				}
				assertGolden(t, filepath.Join("testdata", name+"."+f.ext), b.Bytes())
			})
		}
	}
}

func assertGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	golden.Check(t, path, got)
}

func TestJSONShape(t *testing.T) {
	in := scenarios(t)["mixed"]
	var b bytes.Buffer
	if err := JSON(&b, in); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"changes", "steps", "drift", "blocked", "limits", "diagnostics"} {
		if _, ok := doc[k].([]any); !ok {
			t.Errorf("%s is %T, want an array", k, doc[k])
		}
	}
	changes := doc["changes"].([]any)
	for i, c := range changes {
		m := c.(map[string]any)
		if int(m["order"].(float64)) != i+1 {
			t.Errorf("change %d has order %v", i, m["order"])
		}
	}
	// empty plans still have arrays, never null
	b.Reset()
	if err := JSON(&b, scenarios(t)["empty"]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "null,") && strings.Contains(b.String(), `"changes": null`) {
		t.Errorf("null arrays in empty plan:\n%s", b.String())
	}
}

// hugePlan creates n Services from nothing and deletes d observed ones.
func hugePlan(t testing.TB, n, d int) Input {
	desired, observed := newWorld()
	observeLB(observed)
	scope := plan.Scope{Cluster: cluster}
	for i := 0; i < n+d; i++ {
		s := svcSpec{name: fmt.Sprintf("ns%d/svc%d", i%7, i), prefix: fmt.Sprintf("a%031x", i+1), ports: []int{80, 443}}
		if i >= n {
			s.ip = fmt.Sprintf("20.0.%d.%d", i/250, i%250+1)
		}
		add(desired, observed, s, i < n)
		scope.Services = append(scope.Services, plan.ServiceRef{Name: s.name, Prefix: s.prefix})
	}
	return Input{Plan: mustDiff(t, desired, observed, scope), Header: header(), PlanID: "sha256:huge"}
}

func TestMarkdownNeverExceedsBudget(t *testing.T) {
	in := hugePlan(t, 300, 20)
	var full bytes.Buffer
	if err := Markdown(&full, in, MarkdownOptions{Budget: 100_000_000}); err != nil {
		t.Fatal(err)
	}
	if utf8.RuneCount(full.Bytes()) <= PRCommentBudget {
		t.Fatalf("fixture too small to test truncation: %d characters", utf8.RuneCount(full.Bytes()))
	}
	var b bytes.Buffer
	opts := MarkdownOptions{Artifact: "plan.json", FullPlan: []Place{{Name: "the job's step summary"}}}
	if err := Markdown(&b, in, opts); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if n := utf8.RuneCountInString(got); n > PRCommentBudget {
		t.Fatalf("comment has %d characters, over %d", n, PRCommentBudget)
	}
	for _, want := range []string{"<!-- azsvc:plan v1 cluster=kubernetes", "### azsvc plan: kubernetes / rg ⚠️ disruptive",
		"**Plan: ", "#### ⚠️ Disruptive changes (", "##### Not shown here (",
		"The full plan is in the job's step summary and the saved plan `plan.json` (`azsvc show plan.json`)."} {
		if !strings.Contains(got, want) {
			t.Errorf("folded comment lacks %q", want)
		}
	}
	// The headline and the notice of what is left out come first.
	if i, j := strings.Index(got, "> **This comment shows "), strings.Index(got, "#### ⚠️ Disruptive"); i < 0 || i > j {
		t.Errorf("the notice of the Services left out is not above the changes:\n%.1500s", got)
	}
	// The disruptive section is complete: every impact line of the full text is there.
	for _, line := range strings.Split(full.String(), "\n") {
		if strings.HasPrefix(line, "- `-`") && !strings.Contains(got, line) {
			t.Errorf("disruptive line dropped: %s", line)
		}
	}
	// The Services shown are the first ones in natural order.
	if !strings.Contains(got, "<summary>svc0: ") || !strings.Contains(got, "##### Namespace ns0 (") {
		t.Errorf("the first Service of the first namespace is not shown")
	}
	var again bytes.Buffer
	if err := Markdown(&again, in, opts); err != nil || again.String() != got {
		t.Errorf("markdown is not deterministic (err %v)", err)
	}
}

// TestMarkdownNamesOnlyWrittenPlaces: without a saved plan or summary file
// the comment points at no file, only at the command that prints the full
// plan.
func TestMarkdownNamesOnlyWrittenPlaces(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, hugePlan(t, 300, 0), MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if !strings.Contains(got, "Run `azsvc plan -o json`, or give `--out FILE` and run `azsvc show FILE`, for the full plan.") ||
		strings.Contains(got, "saved plan") || strings.Contains(got, "step summary") || strings.Contains(got, "artifact") {
		t.Errorf("comment points at a place that was not written:\n%.3000s", got)
	}
}

func TestMarkdownHardBudgetWithHugeDisruptiveList(t *testing.T) {
	in := hugePlan(t, 0, 400)
	var b bytes.Buffer
	if err := Markdown(&b, in, MarkdownOptions{Budget: 20000}); err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCount(b.Bytes()); n > 20000 {
		t.Fatalf("%d characters over a 20000 budget", n)
	}
	for _, want := range []string{"more disruptive changes not shown", "> **This plan is too large for one comment:**"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in the cut comment", want)
		}
	}
}

// TestMarkdownBudgetWithManyNamespaces: one Service per namespace, with
// Kubernetes' longest names; the count of the Services not shown lists the
// first namespaces and sums up the rest, and never breaks the budget.
func TestMarkdownBudgetWithManyNamespaces(t *testing.T) {
	in := hugePlan(t, 590, 0)
	long := strings.Repeat("n", 55)
	for _, c := range in.Plan.Changes {
		for i, s := range c.Services {
			c.Services[i] = long + strings.ReplaceAll(s, "/", "x") + "/" + long + s[:3]
		}
	}
	var b bytes.Buffer
	if err := Markdown(&b, in, MarkdownOptions{Budget: 30000}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if n := utf8.RuneCountInString(got); n > 30000 {
		t.Fatalf("comment has %d characters, over 30000", n)
	}
	if !strings.Contains(got, "more namespaces_ | ") || !strings.Contains(got, "**Plan: ") {
		t.Errorf("capped namespace table or summary line missing:\n%.2000s", got)
	}
}

// TestMarkdownStepSummaryBudgetInBytes: a step summary's limit is in
// bytes, so multi-byte text fits it measured in bytes.
func TestMarkdownStepSummaryBudgetInBytes(t *testing.T) {
	in := hugePlan(t, 200, 0)
	for _, c := range in.Plan.Changes {
		for i, s := range c.Services {
			c.Services[i] = s + "-é"
		}
	}
	var b bytes.Buffer
	if err := Markdown(&b, in, MarkdownOptions{Budget: 40000, Bytes: true}); err != nil {
		t.Fatal(err)
	}
	if n := b.Len(); n > 40000 {
		t.Fatalf("%d bytes over a 40000-byte budget", n)
	}
}

// TestServicesInNaturalOrder: svc-2 before svc-10, ns-2 before ns-10.
func TestServicesInNaturalOrder(t *testing.T) {
	names := []string{"ns-10/svc-1", "ns-2/svc-10", "ns-2/svc-2", "ns-2/svc-02", "ns-1/b", "ns-1/a10", "ns-1/a9"}
	var changes []*plan.Change
	for _, n := range names {
		changes = append(changes, &plan.Change{Actions: []plan.Action{plan.ActionCreate}, Services: []string{n},
			After: &plan.Resource{ID: plan.ChildID(lb(), plan.KindProbe, strings.ReplaceAll(n, "/", "-"))}})
	}
	var got []string
	for _, g := range groups(changes) {
		got = append(got, g.name)
	}
	want := []string{"ns-1/a9", "ns-1/a10", "ns-1/b", "ns-2/svc-02", "ns-2/svc-2", "ns-2/svc-10", "ns-10/svc-1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestMarkdownHardLimitWithHugeFindings: findings are never cut by the
// folding steps; when they alone overflow the budget the comment is cut at
// a line, with an open fence closed, and says so.
func TestMarkdownHardLimitWithHugeFindings(t *testing.T) {
	in := hugePlan(t, 0, 30)
	for i := range 400 {
		in.Diagnostics = append(in.Diagnostics, service.Diagnostic{Code: "AZSVC3014", Severity: service.SeverityWarning,
			Pos: service.Position{File: fmt.Sprintf("deploy/svc-%d.yaml", i), Line: 7, Column: 5}, Message: strings.Repeat("ignored setting ", 8)})
	}
	var b bytes.Buffer
	if err := Markdown(&b, in, MarkdownOptions{Budget: 20000}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if n := utf8.RuneCountInString(got); n > 20000 {
		t.Fatalf("%d characters over a 20000 budget", n)
	}
	if !strings.Contains(got, "**Cut here: the comment limit was reached.**") || strings.Count(got, "```")%2 != 0 {
		t.Errorf("cut comment without its note or with an open fence:\n%s", got[max(0, len(got)-600):])
	}
}
