package service

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// crossField applies the rules that combine several fields (§3, §5.2, §8).
func (c crossRules) crossField() {
	s := c.s
	specRanges, _ := s.SourceRanges()
	annRanges, _ := s.AllowedIPRanges()
	if len(specRanges) > 0 && len(annRanges) > 0 {
		key := AnnAllowedIPRanges
		if !c.has(key) {
			key = AnnLoadBalancerSourceRanges
		}
		c.add(s.annDiag(CodeBothSourceRanges, key,
			"both spec.loadBalancerSourceRanges and "+key+" are set: CCM fails the reconcile (cannot set both)",
			"keep one: move every CIDR into spec.loadBalancerSourceRanges and remove the annotation"))
	}
	for i, p := range s.Spec.Ports {
		if p.Protocol == corev1.ProtocolSCTP && !s.InternalForRules() {
			c.add(s.diag(CodeSCTPExternal, portPath(i, "protocol"),
				fmt.Sprintf("port %d is SCTP on an external load balancer: CCM supports SCTP only on an internal standard LB", p.Port),
				`set azure-load-balancer-internal: "true", or use TCP/UDP`))
		}
	}
	if s.PLSCreate() {
		c.plsCross()
	}
	c.nodePorts()
}

func (c crossRules) plsCross() {
	s := c.s
	if !s.InternalForLBChoice() && !s.FloatingIPDisabled() {
		c.add(s.annDiag(CodePLSExternalFIP, AnnPLSCreate,
			"a Private Link Service needs an internal LB or floating IP disabled: CCM fails the reconcile",
			`set azure-load-balancer-internal: "true", or azure-disable-load-balancer-floating-ip: "true"`))
	}
	if fam := s.IPFamilies(); len(fam) == 1 && fam[0] == corev1.IPv6Protocol {
		c.add(s.annDiag(CodePLSIPv6Only, AnnPLSCreate,
			"IPv6 is not supported for private link service: CCM fails the reconcile for an IPv6-only Service",
			"make the Service IPv4 or dual-stack (the PLS attaches to the IPv4 frontend)"))
	}
}

// probedPort reports whether CCM builds a per-port probe for p, ignoring
// the cluster's shared probe mode, which validate cannot know (§4).
func (c *checker) probedPort(p corev1.ServicePort) bool {
	s := c.s
	if p.Protocol != "" && p.Protocol != corev1.ProtocolTCP {
		return false
	}
	if s.NoLBRule(p.Port) || s.NoProbeRule(p.Port) {
		return false
	}
	if !s.ETPLocal() || (s.PLSCreate() && s.PLSProxyProtocol()) {
		return true
	}
	return c.has(PortKey(p.Port, PortProbePort))
}

// nodePorts flags ports that need a nodePort CCM cannot get because
// allocateLoadBalancerNodePorts is false and none is given: Azure rejects
// port 0 (§3, §4, §9). A nodePort merely absent from a manifest is no
// mistake: the API server assigns it, and a plan shows it as unknown.
func (c crossRules) nodePorts() {
	s := c.s
	if a := s.Spec.AllocateLoadBalancerNodePorts; a == nil || *a {
		return
	}
	for i, p := range s.Spec.Ports {
		if p.NodePort != 0 {
			continue
		}
		if why := c.nodePortUses(p, true); len(why) > 0 {
			c.add(s.diag(CodeNodePortsNeeded, portPath(i, "port"),
				fmt.Sprintf("port %d has no nodePort but CCM needs one: %s; with allocateLoadBalancerNodePorts: false Azure rejects port 0", p.Port, strings.Join(why, "; ")),
				"set spec.ports[].nodePort, remove allocateLoadBalancerNodePorts: false, or set a health-probe_port annotation to a fixed port"))
		}
	}
}

// nodePortUses says what CCM builds from port p's nodePort, if anything;
// probes use it only outside the cluster's shared probe mode.
func (c *checker) nodePortUses(p corev1.ServicePort, probes bool) []string {
	s := c.s
	var why []string
	if s.FloatingIPDisabled() && !s.NoLBRule(p.Port) {
		why = append(why, "floating IP is disabled (the rule's backend port is the nodePort)")
	}
	if s.InternalForRules() && s.IPv6() && !s.NoLBRule(p.Port) {
		why = append(why, "the internal IPv6 frontend uses the nodePort as backend port")
	}
	if probes && c.probedPort(p) {
		if _, explicit, _ := s.ProbePort(p); !explicit || c.probeTargetsServicePort(p) {
			why = append(why, "the health probe targets the nodePort (unless the cluster uses the shared probe mode)")
		}
	}
	return why
}

// probeTargetsServicePort reports whether the explicit health-probe_port
// names a Service port, whose nodePort then becomes the probe port.
func (c *checker) probeTargetsServicePort(p corev1.ServicePort) bool {
	v := c.s.Annotations[PortKey(p.Port, PortProbePort)]
	for _, sp := range c.s.Spec.Ports {
		if strings.EqualFold(sp.Name, v) || fmt.Sprint(sp.Port) == v {
			return sp.NodePort == 0
		}
	}
	return false
}
