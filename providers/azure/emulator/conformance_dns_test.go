package emulator

import (
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"
)

func (en *env) putZone(name string, opts *armprivatedns.PrivateZonesClientBeginCreateOrUpdateOptions) (armprivatedns.PrivateZone, error) {
	p, err := en.dns.NewPrivateZonesClient().BeginCreateOrUpdate(en.ctx, testRG, name, armprivatedns.PrivateZone{Location: to("global")}, opts)
	if err != nil {
		return armprivatedns.PrivateZone{}, err
	}
	res, err := p.PollUntilDone(en.ctx, en.poll)
	return res.PrivateZone, err
}

func (en *env) putLink(zone, name, vnet string, registration bool) (armprivatedns.VirtualNetworkLink, error) {
	p, err := en.dns.NewVirtualNetworkLinksClient().BeginCreateOrUpdate(en.ctx, testRG, zone, name, armprivatedns.VirtualNetworkLink{
		Location: to("global"), Properties: &armprivatedns.VirtualNetworkLinkProperties{
			VirtualNetwork: &armprivatedns.SubResource{ID: to(id("virtualNetworks", vnet))}, RegistrationEnabled: to(registration)}}, nil)
	if err != nil {
		return armprivatedns.VirtualNetworkLink{}, err
	}
	res, err := p.PollUntilDone(en.ctx, en.poll)
	return res.VirtualNetworkLink, err
}

func TestPrivateDNS(t *testing.T) {
	en := newEnv(t, Options{})
	zone, err := en.putZone("privatelink.example.com", nil)
	if err != nil {
		t.Fatal(err)
	}
	if *zone.Properties.NumberOfRecordSets != 1 || *zone.Properties.MaxNumberOfVirtualNetworkLinks != 1000 {
		t.Fatalf("zone counts %d %d", *zone.Properties.NumberOfRecordSets, *zone.Properties.MaxNumberOfVirtualNetworkLinks)
	}
	_, err = en.putZone("privatelink.example.com", &armprivatedns.PrivateZonesClientBeginCreateOrUpdateOptions{IfNoneMatch: to("*")})
	wantCode(t, err, "PreconditionFailed", http.StatusPreconditionFailed)
	_, err = en.putZone("privatelink.example.com", &armprivatedns.PrivateZonesClientBeginCreateOrUpdateOptions{IfMatch: to("stale")})
	wantCode(t, err, "PreconditionFailed", http.StatusPreconditionFailed)
	if _, err = en.putZone("privatelink.example.com", &armprivatedns.PrivateZonesClientBeginCreateOrUpdateOptions{IfMatch: zone.Etag}); err != nil {
		t.Fatalf("matching If-Match: %v", err)
	}

	link, err := en.putLink("privatelink.example.com", "MyLink", "vnet", false)
	if err != nil {
		t.Fatal(err)
	}
	if *link.Name != "mylink" || *link.Properties.VirtualNetworkLinkState != armprivatedns.VirtualNetworkLinkStateCompleted {
		t.Fatalf("link name %s state %s (Private DNS lower-cases child names)", *link.Name, *link.Properties.VirtualNetworkLinkState)
	}
	_, err = en.putLink("privatelink.example.com", "other", "vnet", false)
	wantCode(t, err, "Conflict", http.StatusConflict)
	_, err = en.putLink("privatelink.example.com", "dangling", "missing", false)
	wantCode(t, err, "InvalidResourceReference", http.StatusBadRequest)

	records := en.dns.NewRecordSetsClient()
	rs, err := records.CreateOrUpdate(en.ctx, testRG, "privatelink.example.com", armprivatedns.RecordTypeA, "API", armprivatedns.RecordSet{
		Properties: &armprivatedns.RecordSetProperties{TTL: to[int64](300), ARecords: []*armprivatedns.ARecord{{IPv4Address: to("10.0.9.4")}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *rs.Name != "api" || *rs.Properties.Fqdn != "api.privatelink.example.com." {
		t.Fatalf("record %s %s", *rs.Name, *rs.Properties.Fqdn)
	}
	_, err = records.CreateOrUpdate(en.ctx, testRG, "privatelink.example.com", armprivatedns.RecordTypeA, "api", rs.RecordSet,
		&armprivatedns.RecordSetsClientCreateOrUpdateOptions{IfNoneMatch: to("*")})
	wantCode(t, err, "PreconditionFailed", http.StatusPreconditionFailed)
	z, err := en.dns.NewPrivateZonesClient().Get(en.ctx, testRG, "privatelink.example.com", nil)
	if err != nil {
		t.Fatal(err)
	}
	if *z.Properties.NumberOfRecordSets != 2 || *z.Properties.NumberOfVirtualNetworkLinks != 1 {
		t.Fatalf("counts %d records %d links", *z.Properties.NumberOfRecordSets, *z.Properties.NumberOfVirtualNetworkLinks)
	}
	pager := records.NewListPager(testRG, "privatelink.example.com", nil)
	page, err := pager.NextPage(en.ctx)
	if err != nil || len(page.Value) != 2 { // the A record set and the zone's SOA
		t.Fatalf("list ALL: %v %d", err, len(page.Value))
	}

	// A zone with links cannot go (409); records go with the zone.
	zones := en.dns.NewPrivateZonesClient()
	_, err = zones.BeginDelete(en.ctx, testRG, "privatelink.example.com", nil)
	wantCode(t, err, "CannotDeleteResource", http.StatusConflict)
	lp, err := en.dns.NewVirtualNetworkLinksClient().BeginDelete(en.ctx, testRG, "privatelink.example.com", "mylink", nil)
	if err == nil {
		_, err = lp.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatal(err)
	}
	zp, err := zones.BeginDelete(en.ctx, testRG, "privatelink.example.com", nil)
	if err == nil {
		_, err = zp.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = records.Get(en.ctx, testRG, "privatelink.example.com", armprivatedns.RecordTypeA, "api", nil)
	wantCode(t, err, "ResourceNotFound", http.StatusNotFound)
}

// A VNet registers its VMs in at most one zone (arm-rules §2.4).
func TestPrivateDNSRegistrationLimit(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	for _, z := range []string{"a.example.com", "b.example.com"} {
		if _, err := en.putZone(z, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := en.putLink("a.example.com", "reg", "vnet", true); err != nil {
		t.Fatal(err)
	}
	_, err := en.putLink("b.example.com", "reg", "vnet", true)
	wantCode(t, err, "Conflict", http.StatusConflict)
	if _, err := en.putLink("b.example.com", "resolve-only", "vnet", false); err != nil {
		t.Fatalf("a resolution-only link to a second zone is allowed: %v", err)
	}
}
