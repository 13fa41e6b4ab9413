package emulator

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// portKey identifies a port use: a frontend or pool (lower-cased name), a protocol and a port.
type portKey struct {
	owner, proto string
	port         int
}

// checkRules resolves every rule's references inside the LB and applies the
// port uniqueness rules; it fills the back-references frontend/pool/probe → rule.
func (b *lbBody) checkRules() *armError {
	frontPorts := make(map[portKey]string, len(b.rules))
	backPorts := make(map[portKey]string, len(b.rules))
	for _, rule := range b.rules {
		id, rp := getStr(rule, "id"), props(rule)
		fe := refID(rp, "frontendIPConfiguration")
		feObj := b.child(b.feIdx, "frontendIPConfigurations", fe)
		if feObj == nil {
			return invalidReference(fe, id)
		}
		var pools []string
		if p := refID(rp, "backendAddressPool"); p != "" {
			pools = append(pools, p)
		}
		for _, p := range getObjs(rp, "backendAddressPools") {
			pools = append(pools, getStr(p, "id"))
		}
		poolObjs := make([]obj, len(pools))
		for i, p := range pools {
			if poolObjs[i] = b.child(b.poolIdx, "backendAddressPools", p); poolObjs[i] == nil {
				return invalidReference(p, id)
			}
		}
		probe := refID(rp, "probe")
		var probeObj obj
		if probe != "" {
			if probeObj = b.child(b.probeIdx, "probes", probe); probeObj == nil {
				return invalidReference(probe, id)
			}
		}
		proto, fport, bport, err := ruleFields(id, rp, b.c.e.placeholder)
		if err != nil {
			return err
		}
		for _, pr := range expandProtocol(proto) {
			k := portKey{strings.ToLower(getStr(feObj, "name")), pr, fport}
			if other := frontPorts[k]; other != "" {
				// UNVERIFIED code; the rule itself is SDK-NET's FrontendPort comment (arm-rules §2.2).
				return badRequest("RulesUseSameFrontendIPConfigurationProtocolAndPort",
					"Load balancing rules %s and %s use the same frontend IP configuration %s, protocol %s and frontend port %d. Port numbers for each rule must be unique within the Load Balancer.",
					other, id, fe, pr, fport)
			}
			frontPorts[k] = id
			if getBool(rp, "enableFloatingIP") {
				continue // CCM's floating-IP rules share the pool freely (arm-rules §5.3)
			}
			for i, p := range pools {
				k := portKey{strings.ToLower(getStr(poolObjs[i], "name")), pr, bport}
				if other := backPorts[k]; other != "" {
					return badRequest("RulesUseSameBackendPortProtocolAndPool",
						"Load balancing rules %s and %s with floating IP disabled use the same protocol %s and backend port %d, and must not be used with the same backend address pool %s.",
						other, id, proto, bport, p)
				}
				backPorts[k] = id
			}
		}
		addBackRef(feObj, "loadBalancingRules", id)
		for _, p := range poolObjs {
			addBackRef(p, "loadBalancingRules", id)
		}
		if probeObj != nil {
			addBackRef(probeObj, "loadBalancingRules", id)
		}
	}
	return nil
}

func ruleFields(id string, rp obj, placeholder func(int) bool) (proto string, fport, bport int, err *armError) {
	proto = canonical(getStr(rp, "protocol"), "Tcp", "Udp", "All")
	if proto == "" {
		return "", 0, 0, badRequest("InvalidRequestFormat", "Load balancing rule %s: protocol must be Tcp, Udp or All.", id)
	}
	rp["protocol"] = proto
	fport, ok := getInt(rp, "frontendPort")
	if !ok || fport < 0 || fport > 65534 {
		return "", 0, 0, badRequest("InvalidRequestFormat", "Load balancing rule %s: frontendPort must be between 0 and 65534.", id)
	}
	if _, present := rp["backendPort"]; !present {
		rp["backendPort"] = fport
	}
	bport, ok = getInt(rp, "backendPort")
	if !ok || (bport < 0 || bport > 65535) && !placeholder(bport) {
		return "", 0, 0, badRequest("InvalidRequestFormat", "Load balancing rule %s: backendPort must be between 0 and 65535.", id)
	}
	// SDK-NET documents 4–30; Azure has since raised the maximum to 100, which CCM allows.
	if err := intDefault(rp, "idleTimeoutInMinutes", 4, 4, 100, id); err != nil {
		return "", 0, 0, err
	}
	for _, f := range []string{"enableFloatingIP", "enableTcpReset", "disableOutboundSnat"} {
		if _, present := rp[f]; !present {
			rp[f] = false
		}
	}
	if getStr(rp, "loadDistribution") == "" {
		rp["loadDistribution"] = "Default"
	}
	return proto, fport, bport, nil
}

// expandProtocol makes protocol All collide with both Tcp and Udp.
func expandProtocol(p string) []string {
	if p == "All" {
		return []string{"Tcp", "Udp"}
	}
	return []string{p}
}

// placeholder reports a port that stands for a node port the API server
// has not assigned yet, accepted under Options.Placeholders.
func (e *Emulator) placeholder(port int) bool {
	return e.opts.Placeholders && plan.IsPortPlaceholder(int64(port))
}
