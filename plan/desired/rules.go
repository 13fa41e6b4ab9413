package desired

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// ruleMaker makes the LB rules and probes of a Service (ccm-semantics §3,
// §4) without placing them: placed is the builder's index, read to reuse
// a probe already placed (the shared probe, or one several ports use).
type ruleMaker struct {
	cfg    *cluster.Config
	placed map[placeID]*plan.Resource
}

// forFamily builds the LB rules of one family and the probes they
// reference, not yet placed in the state.
func (m ruleMaker) forFamily(info *svcInfo, f family, lbID, feID plan.ID) []*plan.Resource {
	refs := ruleRefs{frontend: feID.String(), pool: poolID(m.cfg, info, lbID, f).String()}
	if info.haPorts {
		return m.haRule(info, f, lbID, refs)
	}
	var out []*plan.Resource
	for _, pp := range info.ports {
		if pp.noRule {
			continue
		}
		name := RuleName(info.prefix, info.subnet, pp.proto, pp.port.Port, info.dualStack, info.isV6(f))
		refs.probe = ""
		if pp.probe != nil {
			probe := m.probe(info, f, lbID, pp.probe)
			refs.probe = probe.ID.String()
			out = append(out, probe)
		}
		props := m.props(info, f, pp.proto, pp.port.Port, pp.port.NodePort, refs)
		out = append(out, &plan.Resource{ID: plan.ChildID(lbID, plan.KindRule, name), Properties: props, Owned: true})
	}
	return out
}

// haRule is the single HA-ports rule: protocol All, ports 0, named after
// spec.ports[0]; its probe is the ETP Local probe, else the first port's
// probe renamed after the rule (§3 HA ports).
func (m ruleMaker) haRule(info *svcInfo, f family, lbID plan.ID, refs ruleRefs) []*plan.Resource {
	if len(info.ports) == 0 {
		return nil
	}
	first := info.ports[0]
	name := RuleName(info.prefix, info.subnet, first.proto, first.port.Port, info.dualStack, info.isV6(f))
	var out []*plan.Resource
	for _, pp := range info.ports {
		if pp.probe == nil {
			continue
		}
		spec := *pp.probe
		if !spec.shared && !spec.local {
			spec.nameProto, spec.namePort = first.proto, first.port.Port
		}
		probe := m.probe(info, f, lbID, &spec)
		refs.probe = probe.ID.String()
		out = append(out, probe)
		break
	}
	props := m.props(info, f, "All", 0, 0, refs)
	props["protocol"], props["enableTcpReset"] = "All", !info.svc.Bool(service.AnnDisableTCPReset)
	return append(out, &plan.Resource{ID: plan.ChildID(lbID, plan.KindRule, name), Properties: props, Owned: true})
}

// ruleRefs are the IDs a rule references, rendered once per family: ID
// rendering dominates Build's cost at 10,000 Services.
type ruleRefs struct{ frontend, pool, probe string }

func idRef(id string) map[string]any { return map[string]any{"id": id} }

// props is getExpectedLoadBalancingRulePropertiesForPort (§3).
func (m ruleMaker) props(info *svcInfo, f family, proto string, port, nodePort int32, refs ruleRefs) map[string]any {
	s := info.svc
	floating := true
	backend := port
	if info.floatingOff || (s.InternalForRules() && f == ipv6) {
		floating, backend = false, nodePort
	}
	dist := "Default"
	if s.Spec.SessionAffinity == corev1.ServiceAffinityClientIP {
		dist = "SourceIP"
	}
	props := make(map[string]any, 11) // sized for every key below, so it never grows
	props["protocol"] = plan.ProtocolOf(proto).LBRule
	props["frontendPort"] = int(port)
	props["backendPort"] = info.portValue(backend)
	props["enableFloatingIP"] = floating
	props["idleTimeoutInMinutes"] = int(info.idleTimeout)
	props["disableOutboundSnat"] = m.cfg.DisableOutboundSNAT && m.cfg.Standard()
	props["loadDistribution"] = dist
	props["frontendIPConfiguration"] = idRef(refs.frontend)
	props["backendAddressPool"] = idRef(refs.pool)
	if proto == string(corev1.ProtocolTCP) && m.cfg.Standard() {
		props["enableTcpReset"] = !s.Bool(service.AnnDisableTCPReset)
	}
	if refs.probe != "" {
		props["probe"] = idRef(refs.probe)
	}
	return props
}

func (m ruleMaker) probe(info *svcInfo, f family, lbID plan.ID, spec *probeSpec) *plan.Resource {
	name := sharedProbeName
	if !spec.shared {
		name = RuleName(info.prefix, info.subnet, spec.nameProto, spec.namePort, info.dualStack, info.isV6(f))
	}
	props := map[string]any{
		"protocol":          spec.protocol,
		"port":              info.portValue(spec.port),
		"intervalInSeconds": int(spec.interval),
		"probeThreshold":    int(spec.threshold),
	}
	if spec.protocol != "Tcp" {
		props["requestPath"] = spec.path
	}
	id := plan.ChildID(lbID, plan.KindProbe, name)
	if existing, ok := m.placed[placeKey(id)]; ok {
		return existing // the shared probe, or a probe several ports use
	}
	return &plan.Resource{ID: id, Properties: props, Owned: true}
}

// placeRules puts rules and probes into the state, joining what other
// Services already put there (the shared probe).
func (b *builder) placeRules(info *svcInfo, rules []*plan.Resource) {
	for _, r := range rules {
		b.put(r).AddService(info.key)
	}
}
