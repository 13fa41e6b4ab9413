package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

func TestStatePersistsAcrossOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	en := newEnv(t, Options{StatePath: path})
	en.putPIP("pip1")
	lb, err := en.putLB("lb", basicLB("lb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := en.e.Close(); err != nil {
		t.Fatal(err)
	}
	e2, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	en2 := newEnvFor(t, nil, e2.Transport(), Endpoint)
	got, err := en2.net.NewLoadBalancersClient().Get(en2.ctx, testRG, "lb", nil)
	if err != nil {
		t.Fatal(err)
	}
	if *got.Etag != *lb.Etag || *got.Properties.FrontendIPConfigurations[1].Properties.PrivateIPAddress != "10.0.0.4" {
		t.Fatalf("reloaded LB differs: %s", *got.Etag)
	}
	// The indexes are rebuilt: the PIP is still protected, the next IP is still free.
	wantCode(t, en2.deletePIP("pip1"), "PublicIPAddressCannotBeDeleted", http.StatusBadRequest)
	en2.e = e2
	if pip := en2.putPIP("pip2"); *pip.Properties.IPAddress != "203.0.113.2" {
		t.Fatalf("second PIP got %s", *pip.Properties.IPAddress)
	}
}

func TestStateFileErrors(t *testing.T) {
	dir := t.TempDir()
	// Anything that is not a state, an ARM list or bodies is refused and
	// left as it is, never replaced by an empty state.
	for i, content := range []string{`{"version":1,"resources":[{"id":`, `{"resources": 5}`, `{"value": {"id": "x"}}`, `[1, 2]`} {
		corrupt := filepath.Join(dir, fmt.Sprintf("corrupt-%d.json", i))
		if err := os.WriteFile(corrupt, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if e, err := Open(Options{StatePath: corrupt}); err == nil || !strings.Contains(err.Error(), corrupt) {
			if e != nil {
				_ = e.Close()
			}
			t.Errorf("state %s: %v, want an error naming the file", content, err)
		}
		if data, _ := os.ReadFile(corrupt); string(data) != content {
			t.Errorf("state %s was overwritten with %.80s", content, data)
		}
	}
	unknown := filepath.Join(dir, "unknown.json")
	if err := os.WriteFile(unknown, []byte(`[{"id":"/subscriptions/s/resourceGroups/r/providers/Microsoft.Compute/virtualMachines/vm"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{StatePath: unknown}); err == nil || !strings.Contains(err.Error(), "virtualMachines") {
		t.Fatalf("unsupported type: %v", err)
	}
	locked := filepath.Join(dir, "locked.json")
	e, err := Open(Options{StatePath: locked})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{StatePath: locked}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second writer: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err = Open(Options{StatePath: locked})
	if err != nil {
		t.Fatalf("after close: %v", err)
	}
	e.Close()
}

// The spec examples' response bodies are real GET-shaped ARM bodies.
func TestSeedRealAzureBodies(t *testing.T) {
	files := []string{"LoadBalancerCreateStandardSku.json", "NetworkSecurityGroupCreateWithRule.json", "PrivateEndpointCreate.json",
		"PrivateLinkServiceGet.json", "PrivateZonePut.json", "PublicIpAddressCreateCustomizedValues.json", "RecordSetAPut.json", "VirtualNetworkLinkPut.json"}
	e, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("/work/shared/reference/arm-examples", f))
		if err != nil {
			t.Skipf("reference examples not available: %v", err)
		}
		var ex struct {
			Responses map[string]struct{ Body json.RawMessage } `json:"responses"`
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		body := ex.Responses["200"].Body
		if err := e.Seed(body); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var b struct{ ID string }
		_ = json.Unmarshal(body, &b)
		ids = append(ids, b.ID)
	}
	for _, id := range ids {
		if w := do(t, e, "GET", id+versionOf(id), ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"id":"`+id+`"`) {
			t.Fatalf("GET %s: %d %s", id, w.Code, w.Body.String())
		}
	}
	nf, err := armnetwork.NewClientFactory("subid", fakeCredential{}, clientOptions(e.Transport(), Endpoint))
	if err != nil {
		t.Fatal(err)
	}
	lb, err := nf.NewLoadBalancersClient().Get(t.Context(), "rg1", "lb", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lb.Properties.LoadBalancingRules) != 1 || *lb.Properties.Probes[0].Name != "probe-lb" {
		t.Fatalf("seeded LB through the SDK: %+v", lb.Properties)
	}
	if err := e.Seed([]byte(`{"id":"/subscriptions/s/resourceGroups/r/providers/Microsoft.Network/loadBalancers/lb/probes/p"}`)); err == nil {
		t.Fatal("seeding an inline child must fail: it belongs in its parent's body")
	}
}

// abandon drops an emulator as a killed process would: journal and lock
// released, no compaction.
func abandon(e *Emulator) {
	_ = e.closeJournal()
	e.lock.release()
	e.lock = nil
}

func openWithGroup(t *testing.T, path string) *Emulator {
	t.Helper()
	e, err := Open(Options{StatePath: path, InstantOperations: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.EnsureBaseline(testSub, testRG, testLocation, "", "", nil, ""); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestJournalReplacedSnapshot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := openWithGroup(t, path)
	if w := do(t, e, "PUT", id("publicIPAddresses", "journaled")+apiVersion, `{"location":"eastus"}`); w.Code != http.StatusCreated {
		t.Fatalf("PUT: %d %s", w.Code, w.Body.String())
	}
	abandon(e)
	if _, err := os.Stat(path + ".journal"); err != nil {
		t.Fatalf("the write was not journaled: %v", err)
	}
	// The user replaces the state by hand: the journal extends another
	// snapshot and must not be replayed over this one.
	seed := `[{"id":"` + id("publicIPAddresses", "seeded") + `","location":"eastus"}]`
	if err := os.WriteFile(path, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	e, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.store.get(key(id("publicIPAddresses", "journaled"))) != nil || e.store.get(key(id("publicIPAddresses", "seeded"))) == nil {
		t.Fatalf("a stale journal was replayed over a replaced state: %v", e)
	}
	if _, err := os.Stat(path + ".journal"); err == nil {
		t.Fatal("the stale journal is still there")
	}
}

func TestJournalCorruptInTheMiddle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := openWithGroup(t, path)
	for _, name := range []string{"a", "b", "c"} {
		if w := do(t, e, "PUT", id("publicIPAddresses", name)+apiVersion, `{"location":"eastus"}`); w.Code != http.StatusCreated {
			t.Fatalf("PUT: %d %s", w.Code, w.Body.String())
		}
	}
	abandon(e)
	data, err := os.ReadFile(path + ".journal")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[2] = strings.Replace(lines[2], `"eastus"`, `"westus"`, 1)
	corrupt := strings.Join(lines, "")
	if err := os.WriteFile(path+".journal", []byte(corrupt), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{StatePath: path}); err == nil || !strings.Contains(err.Error(), "corrupt") {
		t.Fatalf("a journal with a bad line before good ones: %v", err)
	}
	if after, _ := os.ReadFile(path + ".journal"); string(after) != corrupt {
		t.Fatal("a corrupt journal was changed")
	}
}

// A converged plan writes nothing: no journal, no rewrite of the state.
func TestNoWriteNoStateChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	en := newEnv(t, Options{StatePath: path, InstantOperations: true})
	en.putPIP("pip1")
	if err := en.e.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.EnsureBaseline(testSub, testRG, testLocation, "vnet", "10.0.0.0/16",
		map[string]string{"nodes": "10.0.0.0/22", "pls": "10.0.8.0/24", "pe": "10.0.9.0/24"}, "nsg"); err != nil {
		t.Fatal(err)
	}
	if w := do(t, e, "GET", id("publicIPAddresses", "pip1")+apiVersion, ""); w.Code != http.StatusOK {
		t.Fatalf("GET: %d", w.Code)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Fatal("reads rewrote the state file")
	}
	if _, err := os.Stat(path + ".journal"); err == nil {
		t.Fatal("reads left a journal")
	}
}
