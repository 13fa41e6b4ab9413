package emulator

import (
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

func TestFaults(t *testing.T) {
	pipType := "Microsoft.Network/publicIPAddresses"
	tests := []struct {
		name      string
		fault     Fault
		code      string // "" means the SDK's retries absorb the fault
		status    int
		wantPuts  int
		wantState armnetwork.ProvisioningState
	}{
		{"throttle is retried", Fault{Kind: FaultThrottle, Method: "PUT", Type: "publicIPAddresses", Nth: 1}, "", 0, 2, "Succeeded"},
		{"500 is retried", Fault{Kind: FaultInternalError, Method: "PUT", Type: pipType, Nth: 1, Times: 2}, "", 0, 3, "Succeeded"},
		{"503 is retried", Fault{Kind: FaultUnavailable, Method: "PUT", Type: pipType, Name: "pip1", Nth: 1}, "", 0, 2, "Succeeded"},
		{"500 beyond retries", Fault{Kind: FaultInternalError, Method: "PUT", Type: pipType}, "InternalServerError", 500, 4, ""},
		{"409 is not retried", Fault{Kind: FaultConflict, Method: "PUT", Type: pipType}, "AnotherOperationInProgress", 409, 1, ""},
		{"operation ends Failed", Fault{Kind: FaultFailOperation, Method: "PUT", Type: pipType}, "InternalServerError", 200, 1, "Failed"},
		{"other names unaffected", Fault{Kind: FaultConflict, Name: "other"}, "", 0, 1, "Succeeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			en := newEnv(t, Options{Faults: []Fault{tt.fault}})
			en.e.Counters().Reset()
			p, err := en.net.NewPublicIPAddressesClient().BeginCreateOrUpdate(en.ctx, testRG, "pip1", armnetwork.PublicIPAddress{Location: to(testLocation)}, nil)
			if err == nil {
				_, err = p.PollUntilDone(en.ctx, en.poll)
			}
			if tt.code == "" && err != nil {
				t.Fatal(err)
			}
			if tt.code != "" {
				wantCode(t, err, tt.code, tt.status)
			}
			if got := en.e.Counters().Count(MethodPut, pipType); got != tt.wantPuts {
				t.Fatalf("PUTs = %d, want %d", got, tt.wantPuts)
			}
			if tt.wantState != "" {
				got, err := en.net.NewPublicIPAddressesClient().Get(en.ctx, testRG, "pip1", nil)
				if err != nil {
					t.Fatal(err)
				}
				if *got.Properties.ProvisioningState != tt.wantState {
					t.Fatalf("provisioningState %s, want %s", *got.Properties.ProvisioningState, tt.wantState)
				}
			}
		})
	}
}

func TestFaultLatency(t *testing.T) {
	en := newEnv(t, Options{Faults: []Fault{{Kind: FaultLatency, Method: "GET", Latency: 30 * time.Millisecond}}})
	start := time.Now()
	if _, err := en.net.NewVirtualNetworksClient().Get(en.ctx, testRG, "vnet", nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("GET took %s, want at least 30ms", d)
	}
}

// A probabilistic fault fails the same requests for the same seed.
func TestFaultsDeterministicFromSeed(t *testing.T) {
	pattern := func(seed int64) string {
		e, err := Open(Options{Seed: seed, Faults: []Fault{{Kind: FaultUnavailable, Method: "GET", Probability: 0.5}}})
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for range 32 {
			w := do(t, e, "GET", "/subscriptions/s/resourceGroups/rg"+rgAPIVersion, "")
			if w.Code == http.StatusServiceUnavailable {
				out += "x"
			} else {
				out += "."
			}
		}
		return out
	}
	a, b, c := pattern(7), pattern(7), pattern(8)
	if a != b || a == c {
		t.Fatalf("seed 7: %s and %s; seed 8: %s", a, b, c)
	}
}

// The Nth matching request fails, only it, with ARM's throttling headers.
func TestFaultNthThrottleResponse(t *testing.T) {
	e, err := Open(Options{Faults: []Fault{{Kind: FaultThrottle, Method: "GET", Nth: 2, RetryAfter: 1500 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	var codes []int
	for range 3 {
		codes = append(codes, do(t, e, "GET", "/subscriptions/s/resourceGroups/rg"+rgAPIVersion, "").Code)
	}
	if codes[0] != 404 || codes[1] != 429 || codes[2] != 404 {
		t.Fatalf("codes %v, want only the 2nd throttled", codes)
	}
	e2, err := Open(Options{Faults: []Fault{{Kind: FaultThrottle, RetryAfter: 1500 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	w := do(t, e2, "GET", "/subscriptions/s/resourceGroups/rg"+rgAPIVersion, "")
	if w.Header().Get("Retry-After") != "2" || w.Header().Get("Retry-After-Ms") != "1500" || errorCode(t, w) != "TooManyRequests" {
		t.Fatalf("throttle response: %v %s", w.Header(), w.Body.String())
	}
}

// A failed-operation fault on a synchronous delete (a record set) fails the
// request and deletes nothing; it answered 200 and kept the record, so a
// client was told of a delete that never happened.
func TestFailedSyncDelete(t *testing.T) {
	e, err := Open(Options{InstantOperations: true, Faults: []Fault{{Kind: FaultFailOperation, Method: "DELETE"}}})
	if err != nil {
		t.Fatal(err)
	}
	const rg = "/subscriptions/s/resourceGroups/rg"
	zone := rg + "/providers/Microsoft.Network/privateDnsZones/z.local"
	record := zone + "/A/api"
	for _, put := range []struct{ path, body string }{
		{rg, `{"location": "westeurope"}`},
		{zone, `{"location": "global"}`},
		{record, `{"properties": {"ttl": 300, "aRecords": [{"ipv4Address": "10.0.0.4"}]}}`},
	} {
		if w := do(t, e, "PUT", put.path+versionOf(put.path), put.body); w.Code >= 300 {
			t.Fatalf("PUT %s: %d %s", put.path, w.Code, w.Body)
		}
	}
	if w := do(t, e, "DELETE", record+dnsAPIVersion, ""); w.Code != http.StatusInternalServerError {
		t.Fatalf("DELETE with a failed operation: %d %s, want 500", w.Code, w.Body)
	}
	if w := do(t, e, "GET", record+dnsAPIVersion, ""); w.Code != http.StatusOK {
		t.Fatalf("the record after a failed delete: %d, want it kept (200)", w.Code)
	}
}
