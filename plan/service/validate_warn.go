package service

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan/quote"
)

// warnings flag input CCM accepts but handles in a surprising way.
func (c warnRules) warnings() {
	c.appProtocols()
	c.probeProtocols()
	c.plsWarnings()
	c.ignored()
	c.tagPairs()
	c.access()
	c.ignoredInContext()
}

// appProtocols: appProtocol http/https silently switches a port's probe to
// HTTP(S) on "/" unless a per-port protocol annotation overrides it (§4).
func (c warnRules) appProtocols() {
	for i, p := range c.s.Spec.Ports {
		if p.AppProtocol == nil || !c.probedPort(p) {
			continue
		}
		proto, from := c.s.ProbeProtocol(p)
		if from != ProbeFromAppProtocol || proto == "Tcp" {
			continue
		}
		msg := fmt.Sprintf("port %d: appProtocol %s switches the health probe to %s on path %s", p.Port, quote.Value(*p.AppProtocol), proto, quote.Value(c.s.ProbeRequestPath(p.Port)))
		if c.has(AnnProbeProtocol) {
			msg += "; the global " + AnnProbeProtocol + " annotation does not override appProtocol"
		}
		c.add(c.s.diag(CodeAppProtocolProbe, portPath(i, "appProtocol"), msg,
			fmt.Sprintf("if the backend does not answer %s on that path, set %s: \"Tcp\" (or a request path)", proto, PortKey(p.Port, PortProbeProtocol))))
	}
}

// probeProtocols: values other than Tcp/Http/Https become Tcp (§1.3 #12).
func (c warnRules) probeProtocols() {
	keys := []string{AnnProbeProtocol}
	for _, p := range c.s.Spec.Ports {
		keys = append(keys, PortKey(p.Port, PortProbeProtocol))
	}
	seen := map[string]bool{}
	for _, key := range keys {
		v, ok := c.s.Annotations[key]
		if !ok || seen[key] || strings.TrimSpace(v) == "" {
			continue
		}
		seen[key] = true
		if _, known := ParseProbeProtocol(v); !known {
			c.add(c.s.annValueDiag(CodeProbeProtocolValue, key,
				fmt.Sprintf("%s is %s, which CCM does not know: the probe falls back to Tcp", key, quote.Value(v)),
				"use Tcp, Http or Https"))
		}
	}
}

// plsWarnings covers the PLS restrictions that CCM does not check (§8).
func (c warnRules) plsWarnings() {
	s := c.s
	if !s.PLSCreate() || !s.ETPLocal() {
		return
	}
	if s.PLSProxyProtocol() {
		var bare []string
		for _, p := range s.Spec.Ports {
			if c.probedPort(p) && !c.has(PortKey(p.Port, PortProbePort)) {
				bare = append(bare, fmt.Sprint(p.Port))
			}
		}
		if len(bare) > 0 {
			c.add(s.annDiag(CodePLSProxyETPLocal, AnnPLSProxyProtocol,
				fmt.Sprintf("PLS proxy protocol with externalTrafficPolicy Local replaces the kube-proxy probe by per-port probes on the nodePort of port(s) %s, which go down on nodes without a ready endpoint and cannot speak PROXY", strings.Join(bare, ", ")),
				"set port_<port>_health-probe_port to a port that answers health checks without the PROXY header"))
		}
	}
	sub, set := s.Annotations[AnnPLSIPConfigurationSubnet]
	internal, _ := s.InternalSubnet()
	switch {
	case !set || strings.TrimSpace(sub) == "":
		c.add(s.annDiag(CodePLSSubnetETPLocal, AnnPLSCreate,
			"with externalTrafficPolicy Local the PLS NAT subnet must differ from the pod subnet, and the default PLS subnet is the internal-subnet annotation, else the cluster subnet",
			"set "+AnnPLSIPConfigurationSubnet+" to a dedicated subnet (validate cannot see azure.json's subnetName)"))
	case sub == internal:
		c.add(s.annValueDiag(CodePLSSubnetETPLocal, AnnPLSIPConfigurationSubnet,
			fmt.Sprintf("PLS subnet %s is the LB's internal subnet: with externalTrafficPolicy Local the PLS NAT subnet must differ from the pod subnet", quote.Value(sub)),
			"use a dedicated PLS subnet unless you are sure pods do not live in "+shownKey(sub)))
	}
}

// ignored covers annotations CCM reads only in a context this Service is
// not in.
func (c warnRules) ignored() {
	s := c.s
	if c.has(AnnLoadBalancerMode) {
		c.add(s.annDiag(CodeModeIgnored, AnnLoadBalancerMode,
			AnnLoadBalancerMode+" only applies to a basic SKU load balancer; CCM ignores it on standard (the default)",
			"remove it unless the cluster uses loadBalancerSku: basic"))
	}
	if v, ok := s.Annotations[AnnInternalSubnet]; ok && strings.TrimSpace(v) != "" && !s.InternalForLBChoice() {
		c.add(s.annDiag(CodeIgnoredNotInternal, AnnInternalSubnet,
			AnnInternalSubnet+" is ignored: the Service is not internal (azure-load-balancer-internal is not exactly \"true\")",
			`add azure-load-balancer-internal: "true", or remove the subnet annotation`))
	}
	if s.Bool(AnnHAPorts) && !s.InternalForRules() {
		c.add(s.annDiag(CodeIgnoredNotInternal, AnnHAPorts,
			AnnHAPorts+" is ignored: HA ports need an internal standard load balancer",
			`add azure-load-balancer-internal: "true", or remove the annotation`))
	}
}

// tagPairs reports tag pairs CCM drops without a word (§1.3 #6, #16).
func (c warnRules) tagPairs() {
	for _, key := range []string{AnnPIPTags, AnnPIPIPTags} {
		v, ok := c.s.Annotations[key]
		if !ok {
			continue
		}
		parse := ParseTags
		if key == AnnPIPIPTags {
			parse = ParseIPTags
		}
		if _, dropped := parse(v); len(dropped) > 0 {
			c.add(c.s.annValueDiag(CodeTagPairDropped, key,
				fmt.Sprintf("%s: CCM silently drops %s (each item needs exactly one \"=\" and a key)", key, quoteList(dropped)),
				"write key=value pairs separated by commas; values cannot contain \"=\" or \",\""))
		}
	}
}

// access covers NSG combinations CCM accepts with a surprise (§1.3 #7, #9).
func (c warnRules) access() {
	s := c.s
	specRanges, specInvalid := s.SourceRanges()
	annRanges, annInvalid := s.AllowedIPRanges()
	if c.has(AnnAllowedServiceTags) && len(s.Spec.LoadBalancerSourceRanges) > 0 {
		c.add(s.annDiag(CodeServiceTagsRanges, AnnAllowedServiceTags,
			"service tags together with spec.loadBalancerSourceRanges: kube-proxy drops traffic from outside the source ranges, so the service-tag NSG rule does not help",
			"merge the service tag's CIDRs into spec.loadBalancerSourceRanges, or use azure-allowed-ip-ranges instead"))
	}
	none := len(specRanges)+len(annRanges)+len(specInvalid)+len(annInvalid) == 0
	if s.Bool(AnnDenyAllExceptSourceRanges) && none {
		c.add(s.annDiag(CodeDenyAllNoRanges, AnnDenyAllExceptSourceRanges,
			AnnDenyAllExceptSourceRanges+" has no effect without source ranges",
			"set spec.loadBalancerSourceRanges (or azure-allowed-ip-ranges)"))
	}
}
