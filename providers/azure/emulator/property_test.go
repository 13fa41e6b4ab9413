package emulator

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPropertyNoDanglingReference applies random creates, updates and
// deletes (many of them invalid) through the handler and checks after each
// one that the store holds no dangling reference and no duplicate IP.
func TestPropertyNoDanglingReference(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			en := newEnv(t, Options{InstantOperations: true})
			rng := rand.New(rand.NewPCG(seed, 42))
			accepted := 0
			for step := range 300 {
				method, path, body := randomOp(rng)
				w := do(t, en.e, method, path+apiVersion, body)
				if w.Code < 300 {
					accepted++
				}
				if err := checkInvariants(en.e.store); err != nil {
					t.Fatalf("step %d %s %s %s -> %d %s\ninvariant: %v", step, method, path, body, w.Code, w.Body.String(), err)
				}
			}
			if accepted < 50 {
				t.Fatalf("only %d of 300 operations were accepted: the generator is too hostile to test much", accepted)
			}
		})
	}
}

func randomOp(rng *rand.Rand) (method, path, body string) {
	pick := func(prefix string, n int) string { return fmt.Sprintf("%s%d", prefix, rng.IntN(n)) }
	switch rng.IntN(11) {
	case 0, 1:
		return "PUT", id("publicIPAddresses", pick("p", 4)), `{"location":"eastus","sku":{"name":"Standard"}}`
	case 2:
		return "DELETE", id("publicIPAddresses", pick("p", 4)), ""
	case 3, 4:
		lb := pick("lb", 2)
		return "PUT", id("loadBalancers", lb), randomLB(rng, lb)
	case 5:
		return "DELETE", id("loadBalancers", pick("lb", 2)), ""
	case 6:
		fe := id("loadBalancers", pick("lb", 2)) + "/frontendIPConfigurations/" + pick("fe", 3)
		return "PUT", id("privateLinkServices", pick("s", 2)), fmt.Sprintf(`{"location":"eastus","properties":{
			"loadBalancerFrontendIpConfigurations":[{"id":%q}],
			"ipConfigurations":[{"name":"nat","properties":{"subnet":{"id":%q}}}]}}`, fe, subnetID("pls"))
	case 7:
		return "DELETE", id("privateLinkServices", pick("s", 2)), ""
	case 8:
		return "PUT", id("privateEndpoints", pick("e", 2)), fmt.Sprintf(`{"location":"eastus","properties":{
			"subnet":{"id":%q},"privateLinkServiceConnections":[{"name":"c","properties":{"privateLinkServiceId":%q}}]}}`,
			subnetID("pe"), id("privateLinkServices", pick("s", 2)))
	case 9:
		return "DELETE", id("privateEndpoints", pick("e", 2)), ""
	default:
		return "DELETE", subnetID([]string{"nodes", "pls", "pe"}[rng.IntN(3)]), ""
	}
}

func randomLB(rng *rand.Rand, lb string) string {
	lbID := id("loadBalancers", lb)
	var fes, rules, probes []string
	for i := range rng.IntN(4) {
		if rng.IntN(2) == 0 {
			fes = append(fes, fmt.Sprintf(`{"name":"fe%d","properties":{"publicIPAddress":{"id":%q}}}`, i, id("publicIPAddresses", fmt.Sprintf("p%d", rng.IntN(5)))))
		} else {
			fes = append(fes, fmt.Sprintf(`{"name":"fe%d","properties":{"subnet":{"id":%q}}}`, i, subnetID([]string{"nodes", "missing"}[rng.IntN(2)])))
		}
	}
	for i := range rng.IntN(3) {
		probes = append(probes, fmt.Sprintf(`{"name":"pr%d","properties":{"protocol":"Tcp","port":%d}}`, i, 30000+i))
	}
	for i := range rng.IntN(4) {
		rules = append(rules, fmt.Sprintf(`{"name":"r%d","properties":{"protocol":"Tcp","frontendPort":%d,"backendPort":%d,"enableFloatingIP":%v,
			"frontendIPConfiguration":{"id":"%s/frontendIPConfigurations/fe%d"},"backendAddressPool":{"id":"%s/backendAddressPools/pool"},
			"probe":{"id":"%s/probes/pr%d"}}}`, i, 80+rng.IntN(3), 80+rng.IntN(3), rng.IntN(2) == 0, lbID, rng.IntN(4), lbID, lbID, rng.IntN(3)))
	}
	return fmt.Sprintf(`{"location":"eastus","sku":{"name":"Standard"},"properties":{"frontendIPConfigurations":[%s],
		"backendAddressPools":[{"name":"pool"}],"probes":[%s],"loadBalancingRules":[%s]}}`,
		strings.Join(fes, ","), strings.Join(probes, ","), strings.Join(rules, ","))
}

// checkInvariants recomputes every resource's references from its body.
func checkInvariants(s *store) error {
	claims := map[ipClaim]string{}
	for k, en := range s.entries {
		f := factsOf(en.armType, en.body())
		for _, ed := range f.edges {
			if !resolves(s, ed.target) {
				return fmt.Errorf("%s references missing %s", ed.source, ed.target)
			}
		}
		for _, c := range f.ips {
			if other, dup := claims[c]; dup {
				return fmt.Errorf("%s and %s both hold %s", other, k, c.ip)
			}
			claims[c] = k
		}
		p := getObj(en.body(), "properties")
		for _, rule := range getObjs(p, "loadBalancingRules") {
			rp := getObj(rule, "properties")
			for _, f := range []string{"frontendIPConfiguration", "backendAddressPool", "probe"} {
				if r := refID(rp, f); r != "" && !resolves(s, r) {
					return fmt.Errorf("rule %s references missing %s", getStr(rule, "id"), r)
				}
			}
		}
		for _, conn := range getObjs(p, "privateEndpointConnections") {
			if pe := refID(getObj(conn, "properties"), "privateEndpoint"); s.get(key(pe)) == nil {
				return fmt.Errorf("PLS %s lists a connection of missing PE %s", k, pe)
			}
		}
		for _, nic := range getObjs(p, "networkInterfaces") {
			if strings.EqualFold(en.armType, "Microsoft.Network/privateEndpoints") && s.get(key(getStr(nic, "id"))) == nil {
				return fmt.Errorf("PE %s lost its NIC", k)
			}
		}
	}
	if len(claims) != countIPs(s) {
		return fmt.Errorf("IP index holds %d claims, bodies hold %d", countIPs(s), len(claims))
	}
	return nil
}

func resolves(s *store, id string) bool {
	a, ok := parseAddress(id)
	if !ok {
		return false
	}
	top := s.get(key(a.topID()))
	if top == nil || len(a.segs) == 2 {
		return top != nil
	}
	return len(a.segs) == 4 && findChild(top.body(), a.segs[2], a.segs[3]) != nil
}

func countIPs(s *store) int {
	n := 0
	for _, m := range s.ips {
		n += len(m)
	}
	return n
}
