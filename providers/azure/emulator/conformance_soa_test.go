package emulator

import (
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"
)

// Issue 21 item 8: a private DNS zone has an SOA record set "@" from its
// creation: readable and listable (and counted in numberOfRecordSets),
// updatable except for its host and serial number, never deleted but with
// its zone.
func TestPrivateDNSZoneSOA(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	const zone = "privatelink.example.com"
	if _, err := en.putZone(zone, nil); err != nil {
		t.Fatal(err)
	}
	records := en.dns.NewRecordSetsClient()
	soa, err := records.Get(en.ctx, testRG, zone, armprivatedns.RecordTypeSOA, "@", nil)
	if err != nil {
		t.Fatalf("GET SOA of a new zone: %v", err)
	}
	p := soa.Properties
	if *soa.Name != "@" || *soa.Type != "Microsoft.Network/privateDnsZones/SOA" || *p.Fqdn != zone+"." || *p.TTL != 3600 ||
		*p.SoaRecord.Host != "azureprivatedns.net" || *p.SoaRecord.Email != "azureprivatedns-host.microsoft.com" ||
		*p.SoaRecord.SerialNumber != 1 || *p.SoaRecord.RefreshTime != 3600 || *p.SoaRecord.RetryTime != 300 ||
		*p.SoaRecord.ExpireTime != 2419200 || *p.SoaRecord.MinimumTTL != 10 || *p.IsAutoRegistered {
		t.Fatalf("the zone's SOA: %+v %+v", soa.RecordSet, *p.SoaRecord)
	}

	all, err := records.NewListPager(testRG, zone, nil).NextPage(en.ctx)
	if err != nil || len(all.Value) != 1 || *all.Value[0].Name != "@" || *all.Value[0].Etag != *soa.Etag {
		t.Fatalf("list ALL: %v %+v", err, all.Value)
	}
	byType, err := records.NewListByTypePager(testRG, zone, armprivatedns.RecordTypeSOA, nil).NextPage(en.ctx)
	if err != nil || len(byType.Value) != 1 || *byType.Value[0].Name != "@" {
		t.Fatalf("list SOA: %v %+v", err, byType.Value)
	}
	z, err := en.dns.NewPrivateZonesClient().Get(en.ctx, testRG, zone, nil)
	if err != nil || *z.Properties.NumberOfRecordSets != 1 {
		t.Fatalf("numberOfRecordSets %v %v", err, z.Properties.NumberOfRecordSets)
	}

	_, err = records.Delete(en.ctx, testRG, zone, armprivatedns.RecordTypeSOA, "@", nil)
	wantCode(t, err, "BadRequest", http.StatusBadRequest)
	_, err = records.CreateOrUpdate(en.ctx, testRG, zone, armprivatedns.RecordTypeSOA, "other", armprivatedns.RecordSet{}, nil)
	wantCode(t, err, "InvalidResourceName", http.StatusBadRequest)

	update := armprivatedns.RecordSet{Properties: &armprivatedns.RecordSetProperties{TTL: to[int64](600),
		SoaRecord: &armprivatedns.SoaRecord{Email: to("hostmaster.example.com"), Host: to("ns.example.com"), SerialNumber: to[int64](7)}}}
	got, err := records.CreateOrUpdate(en.ctx, testRG, zone, armprivatedns.RecordTypeSOA, "@", update,
		&armprivatedns.RecordSetsClientCreateOrUpdateOptions{IfMatch: soa.Etag})
	if err != nil {
		t.Fatalf("update SOA: %v", err)
	}
	r := got.Properties.SoaRecord
	if *got.Properties.TTL != 600 || *r.Email != "hostmaster.example.com" || *r.Host != "azureprivatedns.net" ||
		*r.SerialNumber != 1 || *r.RetryTime != 300 {
		t.Fatalf("updated SOA: ttl %d %+v", *got.Properties.TTL, *r)
	}
	if again, err := records.Get(en.ctx, testRG, zone, armprivatedns.RecordTypeSOA, "@", nil); err != nil || *again.Properties.TTL != 600 {
		t.Fatalf("GET after the update: %v", err)
	}

	zp, err := en.dns.NewPrivateZonesClient().BeginDelete(en.ctx, testRG, zone, nil)
	if err == nil {
		_, err = zp.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = records.Get(en.ctx, testRG, zone, armprivatedns.RecordTypeSOA, "@", nil)
	wantCode(t, err, "ResourceNotFound", http.StatusNotFound)
	if en.e.store.get(key(id("privateDnsZones", zone)+"/SOA/@")) != nil {
		t.Fatal("the updated SOA outlived its zone")
	}
}
