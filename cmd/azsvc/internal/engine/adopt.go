package engine

import (
	"slices"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/adopt"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
)

// adoptUIDs plans the Services without metadata.uid under the names CCM
// gave them, found in what ARM holds (plan/adopt): without it, a manifest
// exported without its UID would plan a second public IP and frontend
// beside CCM's. The node ports a manifest lacks come from the probes and
// rules CCM built for the same Service ports (adopt.NodePorts). It also gives multi-SLB placement what ARM holds: which
// load balancer holds each Service and its rules (desired.HeldFrom), so
// placed Services stay where they are; which nodes each load balancer has
// (desired.SeenFrom); and the scope
// the addresses of departed nodes that NSG rules drop (GoneNodeIPs). It rebuilds the
// desired state only when ARM shows a prefix other than the derived one,
// refuses a Service whose marks name two prefixes (an error diagnostic),
// or places nodes otherwise than the first build did; it reports whether
// it did. gone are the load balancers the plan deletes, which multi-SLB
// placement leaves out (nil before the first plan). Calling it again with
// the same observed state and gone changes nothing.
func adoptUIDs(in *Inputs, observed *plan.State, gone map[plan.Key]bool) bool {
	found := adopt.Find(in.Service.Services, observed, in.Config.ClusterName)
	in.Adopted = found.Adopted
	ports := adopt.NodePorts(in.Service.Services, observed, found.Prefixes)
	in.AdoptedPorts = ports.Adopted
	in.Diagnostics = slices.DeleteFunc(in.Diagnostics, func(d service.Diagnostic) bool {
		return d.Code == service.CodeRefuseUIDConflict || d.Code == service.CodeUIDUntied
	})
	in.Diagnostics = append(in.Diagnostics, found.Diagnostics...)
	service.SortDiagnostics(in.Diagnostics)
	topo := &in.Service.Topology
	seen := desired.SeenFrom(observed, in.Config, topo, gone)
	held := desired.HeldFrom(observed, in.Config)
	defer func() {
		in.Scope.GoneNodeIPs = desired.GoneNodeIPs(observed, in.Config, topo)
		in.Scope.AbsentNodeIPs = desired.AbsentNodeIPs(observed, in.Config, topo)
	}()
	// Which load balancer a Service may go to depends on where ARM holds
	// it: a refusal to place one is made again with what ARM holds.
	lbRefusal := func(d service.Diagnostic) bool { return d.Code == service.CodeRefuseLBSelection }
	if len(found.Prefixes) == 0 && len(found.Refused) == 0 && len(ports.ByService) == 0 && desired.SamePlacement(in.Desired, in.Config, topo, seen) &&
		desired.SameLBs(in.Desired, in.Scope, in.Config, held) && (held == nil || !slices.ContainsFunc(in.Diagnostics, lbRefusal)) {
		return false
	}
	prune, focus, nodeIPs := in.Scope.Prune, in.Scope.Focus, in.Scope.NodeIPs
	state, scope, refusals := desired.BuildWith(in.Service.Services, in.Config,
		desired.Options{Prefixes: found.Prefixes, Refused: found.Refused, NodePorts: ports.ByService, Topology: topo, Seen: seen, Held: held})
	if held != nil {
		in.Diagnostics = append(slices.DeleteFunc(in.Diagnostics, lbRefusal), slices.DeleteFunc(refusals, func(d service.Diagnostic) bool { return !lbRefusal(d) })...)
		service.SortDiagnostics(in.Diagnostics)
	}
	desired.Endpoints(state, &scope, in.Service.Endpoints, in.Config)
	in.Desired, in.Scope = state, scope
	in.Scope.Prune, in.Scope.Focus, in.Scope.NodeIPs = prune, focus, nodeIPs
	return true
}

// deletedLBs are the load balancers p deletes, when multi-SLB node
// placement depends on which exist: CCM places no node on a load balancer
// it deleted (safeDeleteLoadBalancer), so one apply must not either.
func deletedLBs(p *plan.Plan, in *Inputs) map[plan.Key]bool {
	if p == nil || !in.Config.MultiSLB() {
		return nil
	}
	var gone map[plan.Key]bool
	for _, c := range p.Changes {
		if c.IsDelete() && c.Before.Kind() == plan.KindLoadBalancer {
			if gone == nil {
				gone = map[plan.Key]bool{}
			}
			gone[c.Key()] = true
		}
	}
	return gone
}
