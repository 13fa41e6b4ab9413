package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genService is one generated Service, rendered to YAML so every input goes
// through the real decoder.
type genService struct {
	ns, name, uid string
	internal      bool
	dual          bool // public only: the emulator's node subnet has no IPv6 range
	ports         []genPort
	local         bool
	healthPort    int
	ranges        []string
	denyAll       bool // only with ranges
	idle          int  // 0: annotation unset
	pls           bool // internal only
	ep            *genEndpoint
	noFloat       bool // azure-disable-load-balancer-floating-ip: NSG destinations are node IPs
}

// genEndpoint is a PrivateEndpoint connecting to its Service's PLS from
// the guest subscription (newMemTarget seeds its VNet). Generated PLSs do
// not auto-approve that subscription: automatic connections stay Pending
// unless approve is set.
type genEndpoint struct {
	manual, approve bool
	// own: records api and *.apps in <svc>.internal; shared: a record
	// <svc> in shared.internal; partner: a record <svc>-p in the unmanaged
	// zone partner.internal (unowned seeds it).
	own, shared, partner bool
	ttl                  int // 0: default
}

type genPort struct {
	proto          string
	port, nodePort int
}

// generator draws Services from a seeded source. Node ports are never
// reused, as the API server would not allow two Services the same one.
type generator struct {
	rng      *rand.Rand
	next     int // Service counter for names
	nodePort int
}

func newGenerator(seed uint64) *generator {
	return &generator{rng: rand.New(rand.NewPCG(seed, 0xa25c)), nodePort: 30000}
}

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

func (g *generator) uid() string {
	r := g.rng
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, r.Uint32()&0xfff, r.Uint64()&0xffffffffffff)
}

func (g *generator) allocNodePort() int { g.nodePort++; return g.nodePort }

func (g *generator) service() *genService {
	g.next++
	s := &genService{ns: fmt.Sprintf("ns-%d", g.next%3), name: fmt.Sprintf("svc-%d", g.next), uid: g.uid()}
	s.internal = g.chance(0.4)
	s.ports = g.ports()
	if g.chance(0.25) {
		s.local, s.healthPort = true, g.allocNodePort()
	}
	if g.chance(0.3) {
		g.setRanges(s)
	}
	if g.chance(0.3) {
		s.idle = 4 + g.rng.IntN(27)
	}
	s.dual = !s.internal && g.chance(0.15)
	s.pls = s.internal && g.chance(0.3)
	if s.pls && g.chance(0.6) {
		s.ep = g.endpoint()
	}
	return s
}

func (g *generator) endpoint() *genEndpoint {
	e := &genEndpoint{manual: g.chance(0.3), approve: g.chance(0.5)}
	e.own, e.shared, e.partner = g.chance(0.6), g.chance(0.6), g.chance(0.3)
	if g.chance(0.3) {
		e.ttl = 60
	}
	return e
}

func (g *generator) ports() []genPort {
	choices := []genPort{{"TCP", 80, 0}, {"TCP", 443, 0}, {"UDP", 53, 0}, {"TCP", 8080, 0}, {"UDP", 5000, 0}}
	g.rng.Shuffle(len(choices), func(i, j int) { choices[i], choices[j] = choices[j], choices[i] })
	out := choices[:1+g.rng.IntN(2)]
	for i := range out {
		out[i].nodePort = g.allocNodePort()
	}
	return append([]genPort(nil), out...)
}

func (g *generator) setRanges(s *genService) {
	all := []string{"10.10.0.0/16", "192.168.4.0/24", "203.0.113.0/24", "198.51.100.7/32"}
	g.rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	s.ranges = append([]string(nil), all[:1+g.rng.IntN(2)]...)
	s.denyAll = g.chance(0.5)
}

// yaml renders the Service as a manifest document.
func (s *genService) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n  namespace: %s\n  uid: %s\n  annotations:\n", s.name, s.ns, s.uid)
	ann := func(k, v string) { fmt.Fprintf(&b, "    service.beta.kubernetes.io/%s: %q\n", k, v) }
	b.WriteString("    example.com/generated: \"true\"\n")
	if s.internal {
		ann("azure-load-balancer-internal", "true")
	}
	if s.idle > 0 {
		ann("azure-load-balancer-tcp-idle-timeout", fmt.Sprint(s.idle))
	}
	if s.denyAll {
		ann("azure-deny-all-except-load-balancer-source-ranges", "true")
	}
	if s.noFloat {
		ann("azure-disable-load-balancer-floating-ip", "true")
	}
	if s.pls {
		ann("azure-pls-create", "true")
		ann("azure-pls-ip-configuration-subnet", plsSubnet)
	}
	b.WriteString("spec:\n  type: LoadBalancer\n  selector:\n    app: " + s.name + "\n")
	if s.dual {
		b.WriteString("  ipFamilyPolicy: RequireDualStack\n  ipFamilies: [IPv4, IPv6]\n")
	}
	if s.local {
		fmt.Fprintf(&b, "  externalTrafficPolicy: Local\n  healthCheckNodePort: %d\n", s.healthPort)
	}
	if len(s.ranges) > 0 {
		fmt.Fprintf(&b, "  loadBalancerSourceRanges: [%s]\n", strings.Join(s.ranges, ", "))
	}
	b.WriteString("  ports:\n")
	for _, p := range s.ports {
		fmt.Fprintf(&b, "    - name: %s-%d\n      protocol: %s\n      port: %d\n      targetPort: %d\n      nodePort: %d\n",
			strings.ToLower(p.proto), p.port, p.proto, p.port, p.port, p.nodePort)
	}
	if s.ep != nil && s.pls {
		b.WriteString("---\n" + s.ep.yaml(s))
	}
	return b.String()
}

// yaml renders the endpoint of Service s.
func (e *genEndpoint) yaml(s *genService) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndpoint\nmetadata:\n  name: %s\n  namespace: %s\n", s.name, s.ns)
	fmt.Fprintf(&b, "spec:\n  service: %s\n  subnetID: %s\n  name: %s-pe\n  manualApproval: %v\n  approve: %v\n  dns:\n",
		s.name, guestPESub, s.name, e.manual, e.approve)
	ttl := ""
	if e.ttl > 0 {
		ttl = fmt.Sprintf(", ttl: %d", e.ttl)
	}
	if e.own {
		fmt.Fprintf(&b, "    - {zone: %s.internal, records: [api, \"*.apps\"]%s}\n", s.name, ttl)
	}
	if e.shared {
		fmt.Fprintf(&b, "    - {zone: shared.internal, records: [%s]%s}\n", s.name, ttl)
	}
	if e.partner {
		fmt.Fprintf(&b, "    - {zone: %s, records: [%s-p]}\n", partnerZone, s.name)
	}
	return b.String()
}

func manifests(svcs []*genService) []byte {
	docs := make([]string, len(svcs))
	for i, s := range svcs {
		docs[i] = s.yaml()
	}
	return []byte(strings.Join(docs, "---\n"))
}
