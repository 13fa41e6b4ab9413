package service

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
)

// portNumbers checks the numbers CCM copies into Azure as they are: ports
// and nodePorts must be 1..65535 (ARM rejects anything else in the LB PUT),
// a port number and protocol may appear once (CCM names rules
// <prefix>-<PROTO>-<port>, so a repeat would collide), and an
// healthCheckNodePort an externalTrafficPolicy Local Service gives is in
// range too (§3, §4). A nodePort or healthCheckNodePort the manifest
// leaves out is no mistake: the API server assigns it, and a plan shows it
// as such (plan.ServerValue).
func (c valueRules) portNumbers() {
	s := c.s
	seen := map[string]int{}
	for i, p := range s.Spec.Ports {
		c.portInRange(portPath(i, "port"), "port", p.Port, false)
		c.portInRange(portPath(i, "nodePort"), "nodePort", p.NodePort, true)
		proto := p.Protocol
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		key := fmt.Sprintf("%s/%d", proto, p.Port)
		if first, dup := seen[key]; dup {
			c.add(s.diag(CodeDuplicatePort, portPath(i, "port"),
				fmt.Sprintf("port %d/%s is listed twice (spec.ports[%d] and [%d]): the API server rejects it and CCM's rule names would collide", p.Port, proto, first, i),
				"remove one of the two ports"))
			continue
		}
		seen[key] = i
	}
	if s.ETPLocal() {
		c.portInRange("spec.healthCheckNodePort", "healthCheckNodePort", s.Spec.HealthCheckNodePort, true)
	}
}

func (c valueRules) portInRange(path, what string, v int32, zeroOK bool) {
	if (v == 0 && zeroOK) || (v >= 1 && v <= 65535) {
		return
	}
	c.add(c.s.diag(CodePortRange, path,
		fmt.Sprintf("%s %d is outside 1..65535: Azure rejects it in the load balancer", what, v),
		"use a port number between 1 and 65535"))
}
