package emulator

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

// EnsureBaseline adds a missing subnet at the prefix asked for when it is
// free, else at the first /24 of the VNet no subnet uses: a VNet that
// earlier runs or a seed filled must not make the baseline collide
// (NetcfgSubnetRangesOverlap).
func TestEnsureBaselinePicksAFreePrefix(t *testing.T) {
	e, err := Open(Options{InstantOperations: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	vnet := id("virtualNetworks", "vnet")
	if err := e.Seed([]byte(`{"id": "` + vnet + `", "location": "` + testLocation + `", "properties": {
	  "addressSpace": {"addressPrefixes": ["10.0.0.0/16"]},
	  "subnets": [{"name": "a", "properties": {"addressPrefix": "10.0.0.0/24"}},
	              {"name": "b", "properties": {"addressPrefix": "10.0.2.0/23"}}]}}`)); err != nil {
		t.Fatal(err)
	}
	if err := e.EnsureBaseline(testSub, testRG, testLocation, "vnet", "10.0.0.0/16",
		map[string]string{"taken": "10.0.0.0/22", "free": "10.0.8.0/24", "any": ""}, "nsg"); err != nil {
		t.Fatal(err)
	}
	w := do(t, e, "GET", vnet+apiVersion, "")
	var body struct {
		Properties struct {
			Subnets []struct {
				Name       string
				Properties struct{ AddressPrefix string }
			}
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusOK {
		t.Fatalf("GET vnet: %d %v %s", w.Code, err, w.Body)
	}
	got := map[string]string{}
	for _, sn := range body.Properties.Subnets {
		got[sn.Name] = sn.Properties.AddressPrefix
	}
	// In name order: "any" takes the first free /24; "free" keeps what it
	// asked for; "taken" gets the next free /24.
	want := map[string]string{"a": "10.0.0.0/24", "b": "10.0.2.0/23", "any": "10.0.1.0/24", "free": "10.0.8.0/24", "taken": "10.0.4.0/24"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("subnets %v\nwant    %v", got, want)
	}
}
