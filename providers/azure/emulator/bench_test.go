package emulator

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

// BenchmarkInProcessPIPPutGet measures the in-process path through the real
// SDK: a PIP PUT (with its final GET) and a GET per iteration.
func BenchmarkInProcessPIPPutGet(b *testing.B) {
	t := &testing.T{}
	en := newEnv(t, Options{InstantOperations: true})
	en.t = t
	pips := en.net.NewPublicIPAddressesClient()
	body := armnetwork.PublicIPAddress{Location: to(testLocation)}
	en.e.Counters().Reset()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p, err := pips.BeginCreateOrUpdate(en.ctx, testRG, fmt.Sprintf("pip%d", i%100), body, nil)
		if err == nil {
			_, err = p.PollUntilDone(en.ctx, en.poll)
		}
		if err == nil {
			_, err = pips.Get(en.ctx, testRG, fmt.Sprintf("pip%d", i%100), nil)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(en.e.Counters().Total())/b.Elapsed().Seconds(), "req/s")
}

// lbBodyJSON is an LB with n internal frontends, each with one rule and one
// probe, all rules on one pool with floating IP (CCM's shape).
func lbBodyJSON(lb string, n int, public bool) string {
	lbID := id("loadBalancers", lb)
	fes, rules, probes := make([]string, n), make([]string, n), make([]string, n)
	for i := range n {
		if public {
			fes[i] = fmt.Sprintf(`{"name":"fe%d","properties":{"publicIPAddress":{"id":%q}}}`, i, id("publicIPAddresses", fmt.Sprintf("%s-pip%d", lb, i)))
		} else {
			fes[i] = fmt.Sprintf(`{"name":"fe%d","properties":{"subnet":{"id":%q}}}`, i, subnetID("nodes"))
		}
		probes[i] = fmt.Sprintf(`{"name":"probe%d","properties":{"protocol":"Tcp","port":%d,"intervalInSeconds":5,"numberOfProbes":2}}`, i, 30000+i)
		rules[i] = fmt.Sprintf(`{"name":"rule%d","properties":{"protocol":"Tcp","frontendPort":80,"backendPort":80,"enableFloatingIP":true,
			"idleTimeoutInMinutes":4,"enableTcpReset":true,"disableOutboundSnat":true,"loadDistribution":"Default",
			"frontendIPConfiguration":{"id":"%s/frontendIPConfigurations/fe%d"},"backendAddressPool":{"id":"%s/backendAddressPools/kubernetes"},
			"probe":{"id":"%s/probes/probe%d"}}}`, i, lbID, i, lbID, lbID, i)
	}
	return fmt.Sprintf(`{"location":"eastus","sku":{"name":"Standard"},"properties":{"frontendIPConfigurations":[%s],
		"backendAddressPools":[{"name":"kubernetes"}],"probes":[%s],"loadBalancingRules":[%s]}}`,
		strings.Join(fes, ","), strings.Join(probes, ","), strings.Join(rules, ","))
}

// BenchmarkLBPut1500Children measures one whole-body LB PUT (decode,
// validation, response) with 500 frontends, 500 rules and 500 probes.
func BenchmarkLBPut1500Children(b *testing.B) {
	e, err := Open(Options{InstantOperations: true})
	if err != nil {
		b.Fatal(err)
	}
	if err := e.EnsureBaseline(testSub, testRG, testLocation, "vnet", "10.0.0.0/16", map[string]string{"nodes": "10.0.0.0/20"}, "nsg"); err != nil {
		b.Fatal(err)
	}
	body := lbBodyJSON("lb", 500, false)
	path := id("loadBalancers", "lb") + apiVersion
	for b.Loop() {
		r, _ := http.NewRequest("PUT", Endpoint+path, strings.NewReader(body))
		w := &recorder{header: http.Header{}}
		e.Handler().ServeHTTP(w, r)
		if w.status >= 300 {
			b.Fatalf("%d %s", w.status, w.buf.String())
		}
	}
}

// TestStateSizeFor1000Services builds 1,000 Services' worth of resources
// through the handler, with every write journaled, and reports the state
// file's size once closed. Limits: 600 frontends per LB, so two LBs of 500;
// 1,000 rules per NSG.
func TestStateSizeFor1000Services(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 1,000 services")
	}
	path := filepath.Join(t.TempDir(), "state.json")
	en := newEnv(t, Options{StatePath: path, InstantOperations: true})
	start := time.Now()
	for _, lb := range []string{"lb-a", "lb-b"} {
		for i := range 500 {
			w := do(t, en.e, "PUT", id("publicIPAddresses", fmt.Sprintf("%s-pip%d", lb, i))+apiVersion, `{"location":"eastus","sku":{"name":"Standard"}}`)
			if w.Code != http.StatusCreated {
				t.Fatalf("PIP: %d %s", w.Code, w.Body.String())
			}
		}
	}
	lbStart := time.Now()
	for _, lb := range []string{"lb-a", "lb-b"} {
		if w := do(t, en.e, "PUT", id("loadBalancers", lb)+apiVersion, lbBodyJSON(lb, 500, true)); w.Code != http.StatusCreated {
			t.Fatalf("LB: %d %s", w.Code, w.Body.String())
		}
	}
	lbTime := time.Since(lbStart) / 2
	var rules []string
	for i := range 1000 {
		rules = append(rules, fmt.Sprintf(`{"name":"svc-%d-TCP-80-Internet","properties":{"priority":%d,"direction":"Inbound","access":"Allow","protocol":"Tcp",
			"sourceAddressPrefix":"Internet","sourcePortRange":"*","destinationAddressPrefixes":["203.0.113.%d"],"destinationPortRanges":["80"]}}`, i, 100+i, i%250+1))
	}
	if w := do(t, en.e, "PUT", id("networkSecurityGroups", "nsg")+apiVersion,
		`{"location":"eastus","properties":{"securityRules":[`+strings.Join(rules, ",")+`]}}`); w.Code != http.StatusOK {
		t.Fatalf("NSG: %d %s", w.Code, w.Body.String())
	}
	total := time.Since(start)
	if total > 10*time.Second && !raceEnabled {
		t.Fatalf("1,003 writes took %s; the apply of 1,000 services must fit in 10s", total)
	}
	if err := en.e.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("state file for 1,000 services: %d bytes (%d resources); 1,003 writes in %s; LB PUT with 1,500 children in %s",
		info.Size(), len(en.e.store.entries), total.Round(time.Millisecond), lbTime.Round(time.Microsecond))
	e2, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if got, want := len(e2.store.entries), len(en.e.store.entries); got != want {
		t.Fatalf("reloaded %d resources, saved %d", got, want)
	}
}
