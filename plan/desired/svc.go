package desired

import (
	"net/netip"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// family is an IP family as CCM names it in NSG rule names.
type family string

const (
	ipv4 family = "IPv4"
	ipv6 family = "IPv6"
)

// svcInfo is a Service with every CCM decision that does not depend on
// other Services made once (ccm-semantics §1-§3).
type svcInfo struct {
	svc         *service.Service
	key, prefix string
	internal    bool   // LB choice (exact "true")
	subnet      string // honoured internal-subnet annotation
	families    []family
	dualStack   bool
	floatingOff bool
	etpLocal    bool
	haPorts     bool
	idleTimeout int32
	pipRG       string
	pinned      perFamily // pinned IP
	pipName     perFamily // azure-pip-name(-ipv6)
	pipPrefixID perFamily
	ports       []portPlan
	access      access
	pls         *plsSpec
	// unknown are the port placeholders standing for values the API
	// server assigns (withAssigned), by placeholder.
	unknown map[int32]plan.ServerValue
}

func (s *svcInfo) isV6(f family) bool { return f == ipv6 }

// perFamily is a string per IP family; an array rather than a map because
// every Service has several.
type perFamily [2]string

func (p perFamily) of(f family) string {
	if f == ipv6 {
		return p[1]
	}
	return p[0]
}

func (p *perFamily) set(f family, v string) {
	if f == ipv6 {
		p[1] = v
	} else {
		p[0] = v
	}
}

// wantsLoadBalancer mirrors the upstream service controller: type
// LoadBalancer and no loadBalancerClass (§7.2).
func wantsLoadBalancer(s *service.Service) bool {
	return s.Spec.Type == corev1.ServiceTypeLoadBalancer && s.Spec.LoadBalancerClass == nil
}

// analyze makes the per-Service decisions and reports the errors that make
// CCM refuse the Service.
func analyze(s *service.Service, cfg *cluster.Config, prefix string) (*svcInfo, []service.Diagnostic) {
	r := &refusal{svc: s}
	if prefix == "" {
		prefix = PrefixOf(s)
	}
	info := &svcInfo{
		svc:         s,
		key:         s.Key(),
		prefix:      prefix,
		internal:    s.InternalForLBChoice(),
		families:    families(s),
		floatingOff: s.FloatingIPDisabled(),
		etpLocal:    s.ETPLocal(),
		haPorts:     cfg.Standard() && s.HAPorts(),
		pipRG:       orDefault(s.PIPResourceGroup(), cfg.ResourceGroup),
	}
	info.subnet, _ = s.InternalSubnet()
	info.dualStack = len(info.families) == 2
	info.idleTimeout = idleTimeout(r)
	for _, f := range info.families {
		info.pinned.set(f, pinnedIP(s, f))
		info.pipName.set(f, s.PIPName(f == ipv6))
		info.pipPrefixID.set(f, s.PIPPrefixID(f == ipv6))
		if !info.internal && info.pipName.of(f) == "" {
			checkPublicIP(r, info.pinned.of(f), f)
		}
	}
	checkProtocols(r, info, cfg)
	info.ports = planPorts(r, info, cfg)
	info.access = analyzeAccess(r, s)
	info.pls = analyzePLS(r, info, cfg)
	if info.internal && strings.TrimSpace(orDefault(info.subnet, cfg.SubnetName)) == "" {
		r.add(CodeNoSubnet, annField(service.AnnInternalSubnet), `set "subnetName" in azure.json or the internal-subnet annotation`,
			"internal Service needs a subnet: no %s annotation and no subnetName in the cluster config", service.AnnInternalSubnet)
	}
	if info.internal && cfg.VnetName == "" {
		r.add(CodeNoSubnet, "", `set "vnetName" in azure.json`, "internal Service needs a virtual network: no vnetName in the cluster config")
	}
	return info, r.diags
}

// families is Service.IPFamilies as the NSG rule names spell them.
func families(s *service.Service) []family {
	fs := s.IPFamilies()
	out := make([]family, 0, len(fs))
	for _, f := range fs {
		if f == corev1.IPv6Protocol {
			out = append(out, ipv6)
		} else {
			out = append(out, ipv4)
		}
	}
	return out
}

// pinnedIP is the family's pinned address as CCM reads it
// (Service.LoadBalancerIP), written the way ARM reports addresses so that
// it compares equal to a PIP's or frontend's ipAddress: this
// canonicalisation is what it adds to the accessor.
func pinnedIP(s *service.Service, f family) string {
	v := s.LoadBalancerIP(f == ipv6)
	if addr, err := netip.ParseAddr(v); err == nil {
		return addr.String()
	}
	return v
}

// checkPublicIP validates an external pinned IP
// (azure_publicip_repo.go validatePublicIPCandidate, errors/loadbalancer_ip.go).
func checkPublicIP(r *refusal, ip string, f family) {
	if ip == "" {
		return
	}
	key := service.AnnIPv4
	if f == ipv6 {
		key = service.AnnIPv6
	}
	field := annField(key)
	if _, ok := r.svc.Annotation(key); !ok {
		field = "spec.loadBalancerIP"
	}
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		r.add(CodeLoadBalancerIP, field, "use an IP address", "external Service %q has invalid LoadBalancer IP %q", r.svc.Key(), ip)
		return
	}
	if service.IsNonPublicIP(addr) {
		r.add(CodeLoadBalancerIP, field, "pin the address of a public IP, or make the Service internal",
			"external Service %q cannot use non-public LoadBalancer IP %q", r.svc.Key(), ip)
	}
}

// idleTimeout reports a bad azure-load-balancer-tcp-idle-timeout with the
// messages examples/invalid pins; it keeps its own range check because
// Service.IdleTimeout wraps the range error differently (see §1.3 #10).
func idleTimeout(r *refusal) int32 {
	v, ok, err := r.svc.Int32(service.AnnIdleTimeout)
	switch {
	case err != nil:
		r.add(CodeInvalidInteger, annField(service.AnnIdleTimeout), "use a whole number of minutes between 4 and 100",
			"error parsing idle timeout key: %s, err: %v", service.AnnIdleTimeout, err)
	case ok && (v < 4 || v > 100):
		r.add(CodeInvalidInteger, annField(service.AnnIdleTimeout), "use a whole number of minutes between 4 and 100",
			"idle timeout value must be a whole number representing minutes between 4 and 100, actual value: %d", v)
	case ok:
		return v
	}
	return 4
}

// checkProtocols is the protocol and SCTP guard of §3.
func checkProtocols(r *refusal, info *svcInfo, cfg *cluster.Config) {
	for i, p := range info.svc.Spec.Ports {
		field := "spec.ports[" + itoa(i) + "].protocol"
		switch p.Protocol {
		case corev1.ProtocolTCP, corev1.ProtocolUDP, "":
		case corev1.ProtocolSCTP:
			if !info.haPorts && (!cfg.Standard() || !info.svc.InternalForRules()) {
				r.add(CodeSCTP, field, "make the Service internal on a standard load balancer, or use TCP/UDP",
					"SCTP is only supported on standard loadbalancer in internal mode")
			}
		default:
			r.add(CodeUnsupportedProtocol, field, "use TCP, UDP or SCTP", "only TCP, UDP and SCTP are supported for Azure LoadBalancers")
		}
	}
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// pinsIP reports a Service that pins an address or names a public IP of
// either family: under multi-SLB it goes where that IP resides (§7.6).
func (s *svcInfo) pinsIP() bool {
	return s.pinned != perFamily{} || s.pipName != perFamily{}
}
