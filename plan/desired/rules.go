package desired

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// rulesFor builds the LB rules of one family and the probes they reference
// (ccm-semantics §3, §4), not yet placed in the state.
func (b *builder) rulesFor(info *svcInfo, f family, lbID, feID plan.ID) []*plan.Resource {
	refs := ruleRefs{frontend: feID.String(), pool: b.poolID(info, lbID, f).String()}
	if info.haPorts {
		return b.haRule(info, f, lbID, refs)
	}
	var out []*plan.Resource
	for _, pp := range info.ports {
		if pp.noRule {
			continue
		}
		name := RuleName(info.prefix, info.subnet, pp.proto, pp.port.Port, info.dualStack, info.isV6(f))
		refs.probe = ""
		if pp.probe != nil {
			probe := b.probeResource(info, f, lbID, pp.probe)
			refs.probe = probe.ID.String()
			out = append(out, probe)
		}
		props := b.ruleProps(info, f, pp.proto, pp.port.Port, pp.port.NodePort, refs)
		out = append(out, &plan.Resource{ID: plan.ChildID(lbID, plan.KindRule, name), Properties: props, Owned: true})
	}
	return out
}

// haRule is the single HA-ports rule: protocol All, ports 0, named after
// spec.ports[0]; its probe is the ETP Local probe, else the first port's
// probe renamed after the rule (§3 HA ports).
func (b *builder) haRule(info *svcInfo, f family, lbID plan.ID, refs ruleRefs) []*plan.Resource {
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
		probe := b.probeResource(info, f, lbID, &spec)
		refs.probe = probe.ID.String()
		out = append(out, probe)
		break
	}
	props := b.ruleProps(info, f, "All", 0, 0, refs)
	props["protocol"], props["enableTcpReset"] = "All", !info.svc.Bool(service.AnnDisableTCPReset)
	return append(out, &plan.Resource{ID: plan.ChildID(lbID, plan.KindRule, name), Properties: props, Owned: true})
}

// ruleRefs are the IDs a rule references, rendered once per family: ID
// rendering dominates Build's cost at 10,000 Services.
type ruleRefs struct{ frontend, pool, probe string }

func idRef(id string) map[string]any { return map[string]any{"id": id} }

// ruleProps is getExpectedLoadBalancingRulePropertiesForPort (§3).
func (b *builder) ruleProps(info *svcInfo, f family, proto string, port, nodePort int32, refs ruleRefs) map[string]any {
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
	props["backendPort"] = int(backend)
	props["enableFloatingIP"] = floating
	props["idleTimeoutInMinutes"] = int(info.idleTimeout)
	props["disableOutboundSnat"] = b.cfg.DisableOutboundSNAT && b.cfg.Standard()
	props["loadDistribution"] = dist
	props["frontendIPConfiguration"] = idRef(refs.frontend)
	props["backendAddressPool"] = idRef(refs.pool)
	if proto == string(corev1.ProtocolTCP) && b.cfg.Standard() {
		props["enableTcpReset"] = !s.Bool(service.AnnDisableTCPReset)
	}
	if refs.probe != "" {
		props["probe"] = idRef(refs.probe)
	}
	return props
}

func (b *builder) probeResource(info *svcInfo, f family, lbID plan.ID, spec *probeSpec) *plan.Resource {
	name := sharedProbeName
	if !spec.shared {
		name = RuleName(info.prefix, info.subnet, spec.nameProto, spec.namePort, info.dualStack, info.isV6(f))
	}
	props := map[string]any{
		"protocol":          spec.protocol,
		"port":              int(spec.port),
		"intervalInSeconds": int(spec.interval),
		"probeThreshold":    int(spec.threshold),
	}
	if spec.protocol != "Tcp" {
		props["requestPath"] = spec.path
	}
	id := plan.ChildID(lbID, plan.KindProbe, name)
	if existing, ok := b.placed[placeKey(id)]; ok {
		return existing // the shared probe, or a probe several ports use
	}
	return &plan.Resource{ID: id, Properties: props, Owned: true}
}

// poolID is the cluster pool of the family (cluster / cluster-IPv6), or the
// per-Service pool of an ETP Local Service under multi-SLB (§2.2).
func (b *builder) poolID(info *svcInfo, lbID plan.ID, f family) plan.ID {
	name := b.cfg.ClusterName
	if f == ipv6 {
		name += ipv6Suffix
	}
	if b.cfg.MultiSLB() && info.etpLocal {
		name = strings.ToLower(strings.ReplaceAll(info.key, "/", "-"))
		if f == ipv6 {
			name += "-ipv6"
		}
	}
	return plan.ChildID(lbID, plan.KindBackendPool, name)
}

// placeRules puts rules and probes into the state, joining what other
// Services already put there (the shared probe).
func (b *builder) placeRules(info *svcInfo, rules []*plan.Resource) {
	for _, r := range rules {
		b.put(r).AddService(info.key)
	}
}
