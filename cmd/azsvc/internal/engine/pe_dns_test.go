package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// hostedCluster renders a HyperShift hosted cluster's private-router
// Service and PrivateEndpoint (examples/hypershift-private-link), for
// cluster name, in the guest VNet of the example's seed; i keeps UIDs
// and node ports apart.
func hostedCluster(name string, i int) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: private-router
  namespace: clusters-%[1]s
  uid: 4d2b8f%02[2]d-1c3a-4e59-9b7d-0f2e6a8c1d35
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-pls-create: "true"
    service.beta.kubernetes.io/azure-pls-name: pls-%[1]s
    service.beta.kubernetes.io/azure-pls-ip-configuration-subnet: pls-nat-subnet
    service.beta.kubernetes.io/azure-pls-auto-approval: %[3]s
spec:
  type: LoadBalancer
  selector: {app: private-router}
  ports:
  - {name: https, protocol: TCP, port: 443, targetPort: 8443, nodePort: %[4]d}
---
apiVersion: azsvc.io/v1alpha1
kind: PrivateEndpoint
metadata: {name: private-router, namespace: clusters-%[1]s}
spec:
  service: private-router
  subnetID: %[5]s
  name: %[1]s-private-router-pe
  dns:
  - {zone: %[1]s.hypershift.local, records: [api, "*.apps"]}
  - {zone: example.com, records: [api-%[1]s, oauth-%[1]s]}
---
`, name, i, guestSub, 31000+i, guestPESub)
}

func hostedClusters(names ...string) []byte {
	var b strings.Builder
	for i, n := range names {
		b.WriteString(hostedCluster(n, i+1))
	}
	return []byte(b.String())
}

// TestUnownedZoneIsUsed: a zone that exists and azsvc does not manage is
// used, never rewritten or deleted; a VNet it already links is not linked
// again; only azsvc's own records in it come and go.
func TestUnownedZoneIsUsed(t *testing.T) {
	in := loadExample(t, hypershiftDir)
	tg := newExampleTarget(t, in, emulator.Options{InstantOperations: true})
	zone := "/subscriptions/" + guestSub + "/resourceGroups/" + guestRG + "/providers/Microsoft.Network/privateDnsZones/example.com"
	link, record := zone+"/virtualNetworkLinks/corp-link", zone+"/A/www"
	seed := fmt.Sprintf(`[{"id": %q, "location": "global", "tags": {"owner": "dns-team"}, "properties": {}},
  {"id": %q, "location": "global", "properties": {"virtualNetwork": {"id": %q}, "registrationEnabled": false}},
  {"id": %q, "properties": {"ttl": 3600, "aRecords": [{"ipv4Address": "10.9.9.9"}]}}]`, zone, link, guestVNet, record)
	if err := tg.Emulator.Seed([]byte(seed)); err != nil {
		t.Fatal(err)
	}
	ids := []string{zone, link, record}
	before := snapshotBodies(t, tg.Emulator, ids)
	p, _ := applyPlan(t, in, tg)
	for _, c := range p.Changes {
		if a := c.ID().Address(); a == "dnszone/example.com" || strings.HasPrefix(a, "dnszone/example.com/link/") {
			t.Errorf("plan writes %s %v, which an unmanaged zone and link serve", a, c.Actions)
		}
	}
	requireEmptyPlan(t, in, tg, "after apply")
	pe, records := observedEndpoint(t, tg, in, endpointKey(t, in, "private-router"))
	requireRecordsHold(t, pe, records)

	onlyService := loadFiles(t, true, filepath.Join(hypershiftDir, "service.yaml"))
	p, _ = applyPlan(t, onlyService, tg)
	steps := stepList(p)
	for _, want := range []string{"delete dnszone/example.com/a/api-foo", "delete dnszone/example.com/a/oauth-foo", "delete dnszone/foo.hypershift.local"} {
		if !slices.Contains(steps, want) {
			t.Errorf("missing %q in\n%s", want, strings.Join(steps, "\n"))
		}
	}
	for _, id := range ids {
		body, ok := getBody(t, tg.Emulator, id)
		if !ok || body != before[id] {
			t.Errorf("unmanaged %s changed or deleted:\nbefore %s\nafter  %s", id, before[id], body)
		}
	}
	requireEmptyPlan(t, onlyService, tg, "after removing the endpoint")
}

// TestSharedZoneDeletedWhenNoneDeclares: two hosted clusters share the base
// domain zone and its link; removing one (with --prune) keeps them,
// removing the other deletes them.
func TestSharedZoneDeletedWhenNoneDeclares(t *testing.T) {
	cfg := exampleConfig(t)
	both := mustInputs(t, cfg, hostedClusters("foo", "bar"), true)
	tg := newExampleTarget(t, both, emulator.Options{InstantOperations: true})
	applyPlan(t, both, tg)
	requireEmptyPlan(t, both, tg, "both clusters")
	shared := []string{"dnszone/example.com", "dnszone/example.com/link/guest-vnet-d22090fc"}
	if z, ok := both.Desired.Get(plan.KeyOf("/subscriptions/" + guestSub + "/resourceGroups/" + guestRG +
		"/providers/Microsoft.Network/privateDnsZones/example.com")); !ok || len(z.Services) != 2 {
		t.Fatalf("the base-domain zone should serve both endpoints: %+v", z)
	}

	foo := mustInputs(t, cfg, hostedClusters("foo"), true)
	p, _ := applyPlan(t, foo, tg)
	steps := stepList(p)
	for _, s := range shared {
		if slices.Contains(steps, "delete "+s) {
			t.Errorf("%s deleted while foo still declares it", s)
		}
	}
	for _, want := range []string{"delete dnszone/example.com/a/api-bar", "delete dnszone/bar.hypershift.local", "delete pe/bar-private-router-pe", "delete pls/pls-bar"} {
		if !slices.Contains(steps, want) {
			t.Errorf("missing %q in\n%s", want, strings.Join(steps, "\n"))
		}
	}
	requireEmptyPlan(t, foo, tg, "foo only")

	none := mustInputs(t, cfg, nil, true)
	p, _ = applyPlan(t, none, tg)
	steps = stepList(p)
	for _, s := range shared {
		if !slices.Contains(steps, "delete "+s) {
			t.Errorf("%s not deleted once nothing declares it:\n%s", s, strings.Join(steps, "\n"))
		}
	}
	requireEmptyPlan(t, none, tg, "no cluster")
}
