package emulator

import (
	"math/rand/v2"
	"net/netip"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// linearPublicAddress is the allocation rule written plainly: scan the
// ranges from the start for the first eligible free address.
func linearPublicAddress(used map[string]bool, ranges ...string) string {
	for _, r := range ranges {
		pfx := netip.MustParsePrefix(r)
		last := plan.LastAddr(pfx)
		for ip := pfx.Addr().Next(); pfx.Contains(ip) && ip != last; ip = ip.Next() {
			if !used[ip.String()] && !strings.HasSuffix(ip.String(), ".255") {
				return ip.String()
			}
		}
	}
	return ""
}

// The pool hands out exactly what the linear scan would, through random
// allocations (some refused, so never claimed), releases and re-claims,
// across range boundaries and until the ranges run out.
func TestAddressPoolMatchesLinearScan(t *testing.T) {
	ranges := []string{"203.0.113.0/29", "198.51.100.248/29", "10.9.0.0/23"}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		pool := newAddressPool(ranges...)
		used := map[string]bool{}
		var held []string
		isUsed := func(ip string) bool { return used[ip] }
		for step := range 1000 {
			got, want := pool.next(isUsed), linearPublicAddress(used, ranges...)
			if got != want {
				t.Fatalf("seed %d step %d: pool gives %q, the linear scan %q", seed, step, got, want)
			}
			switch op := rng.IntN(10); {
			case op < 6 && got != "": // the write commits
				used[got] = true
				held = append(held, got)
			case op < 8 && len(held) > 0: // a public IP is deleted
				i := rng.IntN(len(held))
				ip := held[i]
				held = append(held[:i], held[i+1:]...)
				delete(used, ip)
				pool.release(ip)
			default: // the write is refused: nothing claimed
			}
		}
	}
}

func TestPublicAddressReuseAfterDelete(t *testing.T) {
	en := newEnv(t, Options{InstantOperations: true})
	ips := map[string]string{}
	for _, n := range []string{"a", "b", "c"} {
		ips[n] = *en.putPIP(n).Properties.IPAddress
	}
	if ips["a"] != "203.0.113.1" || ips["c"] != "203.0.113.3" {
		t.Fatalf("first addresses: %v", ips)
	}
	if err := en.deletePIP("b"); err != nil {
		t.Fatal(err)
	}
	if got := *en.putPIP("d").Properties.IPAddress; got != ips["b"] {
		t.Fatalf("after deleting b, d got %s, want b's %s (lowest free)", got, ips["b"])
	}
	if got := *en.putPIP("e").Properties.IPAddress; got != "203.0.113.4" {
		t.Fatalf("e got %s", got)
	}
}
