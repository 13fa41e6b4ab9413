package service

import (
	"fmt"
	"net/netip"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan/quote"
)

// ignoredInContext warns about settings CCM reads only in a context this
// Service is not in, and so drops without a word (ccm-semantics §1.3, §1.4,
// §3, §4, §8). Validate cannot see the cluster's shared probe mode, which
// would make every probe setting moot; the warnings assume the default.
func (c warnRules) ignoredInContext() {
	c.ignoredProbeSettings()
	c.ignoredPublicIPSettings()
	c.ignoredPLSSettings()
	c.ignoredFamilySettings()
	s := c.s
	if s.HAPorts() {
		for key := range s.Annotations {
			if _, param, ok := ParsePortKey(key); ok && param == PortNoLBRule {
				c.add(s.annDiag(CodeIgnoredInContext, key,
					key+" is ignored: with HA ports CCM builds one rule for all ports and skips no_lb_rule (§3)",
					"remove it, or turn off azure-load-balancer-enable-high-availability-ports"))
			}
		}
	}
	if cfg := s.Spec.SessionAffinityConfig; s.Spec.SessionAffinity == corev1.ServiceAffinityClientIP &&
		cfg != nil && cfg.ClientIP != nil && cfg.ClientIP.TimeoutSeconds != nil && *cfg.ClientIP.TimeoutSeconds != corev1.DefaultClientIPServiceAffinitySeconds {
		c.add(s.diag(CodeIgnoredInContext, "spec.sessionAffinityConfig.clientIP.timeoutSeconds",
			fmt.Sprintf("sessionAffinityConfig timeout %d s is ignored by the load balancer: CCM sets loadDistribution SourceIP, which has no timeout (§3)", *cfg.ClientIP.TimeoutSeconds),
			"expect client affinity for as long as the client's address does not change"))
	}
}

// ignoredProbeSettings: probe annotations for a port that gets no per-port
// probe, a request path on a Tcp probe, and global probe settings no port
// takes (§4).
func (c warnRules) ignoredProbeSettings() {
	s := c.s
	for key := range s.Annotations {
		if port, param, ok := ParsePortKey(key); ok && isProbeParam(param) {
			c.ignoredPortProbeSetting(key, port, param)
		}
	}
	path, protocol := c.has(AnnProbeRequestPath), c.has(AnnProbeProtocol)
	if !path && !protocol {
		return
	}
	pathUsed, protocolUsed := false, false
	for _, p := range s.Spec.Ports {
		if !c.probedPort(p) {
			continue
		}
		proto, from := s.ProbeProtocol(p)
		pathUsed = pathUsed || proto != "Tcp" && !c.has(PortKey(p.Port, PortProbeRequestPath))
		protocolUsed = protocolUsed || from == ProbeFromGlobalAnnotation
	}
	if path && !pathUsed {
		c.add(s.annDiag(CodeIgnoredInContext, AnnProbeRequestPath,
			AnnProbeRequestPath+" is ignored: no port gets an Http or Https probe that takes the global path (per-port paths win; Tcp probes have none; "+
				"under externalTrafficPolicy Local the probe is kube-proxy's /healthz)",
			"set a probe protocol of Http or Https, or remove the path"))
	}
	if protocol && !protocolUsed && len(s.Spec.Ports) > 0 {
		c.add(s.annDiag(CodeIgnoredInContext, AnnProbeProtocol,
			AnnProbeProtocol+" is ignored: no port's probe takes it (per-port annotations and appProtocol win; UDP ports get no probe; "+
				"under externalTrafficPolicy Local the probe is kube-proxy's health check)",
			"remove it, or set it per port"))
	}
}

func isProbeParam(param string) bool {
	switch param {
	case PortProbeProtocol, PortProbeRequestPath, PortProbeInterval, PortProbeNumOfProbe, PortProbePort:
		return true
	}
	return false
}

// ignoredPortProbeSetting warns about one per-port probe annotation that no
// port with that number uses (a TCP and a UDP port may share the number,
// and so the annotation). A key for a missing port is AZSVC1003's.
func (c warnRules) ignoredPortProbeSetting(key string, port int32, param string) {
	s := c.s
	why := ""
	for _, p := range s.Spec.Ports {
		if p.Port != port {
			continue
		}
		if c.probedPort(p) {
			if proto, _ := s.ProbeProtocol(p); param != PortProbeRequestPath || proto != "Tcp" {
				return // used
			}
			why = fmt.Sprintf("the probe of port %d is Tcp, and only Http and Https probes have a request path", p.Port)
			continue
		}
		switch w := c.noPortProbe(p); {
		case w == "":
			return
		case param == PortProbePort && s.ETPLocal() && !s.NoLBRule(p.Port) && !s.NoProbeRule(p.Port) &&
			p.Protocol != corev1.ProtocolUDP && p.Protocol != corev1.ProtocolSCTP:
			return // under ETP Local a probe port forces a per-port probe (§1.4 #41)
		case (param == PortProbeInterval || param == PortProbeNumOfProbe) && s.ETPLocal() && port == s.Spec.HealthCheckNodePort:
			return
		default:
			why = w
		}
	}
	if why == "" {
		return
	}
	c.add(s.annDiag(CodeIgnoredInContext, key, fmt.Sprintf("%s is ignored: %s", key, why), "remove it, or change what makes CCM skip it"))
}

// noPortProbe says why port p gets no per-port probe, or "".
func (c warnRules) noPortProbe(p corev1.ServicePort) string {
	s := c.s
	switch {
	case p.Protocol == corev1.ProtocolUDP || p.Protocol == corev1.ProtocolSCTP:
		return fmt.Sprintf("port %d is %s, and CCM builds probes for TCP ports only", p.Port, p.Protocol)
	case s.NoLBRule(p.Port):
		return fmt.Sprintf("port %d has no_lb_rule, so it has neither rule nor probe", p.Port)
	case s.NoProbeRule(p.Port):
		return fmt.Sprintf("port %d has no_probe_rule", p.Port)
	case s.ETPLocal():
		return fmt.Sprintf("under externalTrafficPolicy Local port %d is probed through kube-proxy's health check on the healthCheckNodePort (interval and num-of-probe are read keyed by that port number)", p.Port)
	}
	return ""
}

// ignoredPublicIPSettings: public IP annotations on an internal Service,
// which has no public IP (§1.3 #4-#6, #16, #24-#27).
func (c warnRules) ignoredPublicIPSettings() {
	if !c.s.InternalForLBChoice() {
		return
	}
	for _, key := range []string{AnnDNSLabelName, AnnLoadBalancerResourceGroup, AnnPIPIPTags, AnnPIPTags,
		AnnPIPName, AnnPIPNameIPv6, AnnPIPPrefixID, AnnPIPPrefixIDIPv6} {
		if c.has(key) {
			c.add(c.s.annDiag(CodePublicIPOnInternal, key,
				key+" is ignored: it configures the public IP of an external Service, and this Service is internal",
				"remove it, or make the Service external"))
		}
	}
}

// ignoredPLSSettings: PLS annotations without azure-pls-create, which CCM
// reads only when it creates the PLS (§8).
func (c warnRules) ignoredPLSSettings() {
	if c.s.PLSCreate() {
		return
	}
	for _, key := range []string{AnnPLSName, AnnPLSResourceGroup, AnnPLSIPConfigurationSubnet, AnnPLSIPConfigurationIPCount,
		AnnPLSIPConfigurationIPAddress, AnnPLSFQDNs, AnnPLSProxyProtocol, AnnPLSVisibility, AnnPLSAutoApproval} {
		if c.has(key) {
			c.add(c.s.annDiag(CodePLSWithoutCreate, key,
				key+" is ignored: CCM reads the Private Link Service settings only when azure-pls-create is \"true\"",
				`add azure-pls-create: "true", or remove it`))
		}
	}
}

// ignoredFamilySettings: per-family annotations for a family the Service
// does not have (§1.3 #22-#27, §3). A single-stack IPv6 Service falls back
// to azure-pip-name and azure-pip-prefix-id, so those are never ignored.
func (c warnRules) ignoredFamilySettings() {
	s := c.s
	for _, key := range []string{AnnIPv6, AnnPIPNameIPv6, AnnPIPPrefixIDIPv6, AnnIPv4} {
		family := s.IPv6()
		if key == AnnIPv4 {
			family = s.IPv4()
		}
		if v, ok := s.Annotations[key]; ok && v != "" && !family {
			c.add(s.annDiag(CodeFamilyIgnored, key,
				fmt.Sprintf("%s is ignored: the Service's ipFamilies are %v", key, s.IPFamilies()),
				"remove it, or add the IP family to spec.ipFamilies"))
		}
	}
	c.ignoredLoadBalancerIP()
}

// ignoredLoadBalancerIP: spec.loadBalancerIP counts only for the family it
// parses as, and only when that family's ipv4/ipv6 annotation is empty
// (§3 "Pinned IPs per family", azure_utils.go:getServiceLoadBalancerIP).
func (c warnRules) ignoredLoadBalancerIP() {
	s := c.s
	if s.Spec.LoadBalancerIP == "" {
		return
	}
	a, err := netip.ParseAddr(s.Spec.LoadBalancerIP)
	if err != nil {
		return // AZSVC1022's
	}
	ipv6, key, family := !a.Unmap().Is4(), AnnIPv4, "IPv4"
	if ipv6 {
		key, family = AnnIPv6, "IPv6"
	}
	switch {
	case ipv6 && !s.IPv6() || !ipv6 && !s.IPv4():
		c.add(s.diag(CodeFamilyIgnored, "spec.loadBalancerIP",
			fmt.Sprintf("spec.loadBalancerIP is ignored: it is an %s address and the Service's ipFamilies are %v", family, s.IPFamilies()),
			"remove it, or add the IP family to spec.ipFamilies"))
	case s.Annotations[key] != "" && s.Annotations[key] != s.Spec.LoadBalancerIP:
		c.add(s.diag(CodeFamilyIgnored, "spec.loadBalancerIP",
			fmt.Sprintf("spec.loadBalancerIP is ignored: %s pins %s for its family", key, quote.Value(s.Annotations[key])),
			"remove spec.loadBalancerIP (it is deprecated), or make the two agree"))
	}
}
