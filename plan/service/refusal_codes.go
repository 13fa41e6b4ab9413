package service

// AZSVC4xxx are plan-time refusals: the Service is valid on its own, but
// CCM's EnsureLoadBalancer would fail for it, so nothing is planned for it.
// plan/desired raises them; they are listed here so that every code has one
// registry (help codes, SARIF rules) and no number means two things.
const (
	CodeRefuseProtocol      = "AZSVC4001" // §3 protocol
	CodeRefuseSCTP          = "AZSVC4002" // §3 SCTP guard
	CodeRefuseInteger       = "AZSVC4003" // §1.2 integer annotations, §1.3 #10
	CodeRefuseProbe         = "AZSVC4004" // §4 interval, threshold, probe port
	CodeRefuseSourceRanges  = "AZSVC4005" // §5.2 both range groups set
	CodeRefuseLoadBalancer  = "AZSVC4006" // §1.3 #22/#23 external pinned IP
	CodeRefusePrivateLink   = "AZSVC4007" // §8 preconditions and NAT IPs
	CodeRefuseAdditionalIPs = "AZSVC4008" // §1.3 #19
	CodeRefuseNoSubnet      = "AZSVC4009" // internal Service without a subnet
	CodeRefuseLBSelection   = "AZSVC4010" // §7.6 multi-SLB
	CodeRefusePortConflict  = "AZSVC4011" // §3 checkLoadBalancerResourcesConflicts
	// CodeRefuseUIDConflict: a Service without metadata.uid whose marks in
	// ARM name two prefixes, or share one with another Service (plan/adopt).
	CodeRefuseUIDConflict = "AZSVC4012"
)

func refusalRules() []ruleRow {
	e := SeverityError
	return []ruleRow{
		{CodeRefuseProtocol, e, "CCM refuses: protocol"},
		{CodeRefuseSCTP, e, "CCM refuses: SCTP on this load balancer"},
		{CodeRefuseInteger, e, "CCM refuses: integer annotation"},
		{CodeRefuseProbe, e, "CCM refuses: health probe configuration"},
		{CodeRefuseSourceRanges, e, "CCM refuses: both source range groups set"},
		{CodeRefuseLoadBalancer, e, "CCM refuses: pinned load balancer IP"},
		{CodeRefusePrivateLink, e, "CCM refuses: Private Link Service preconditions"},
		{CodeRefuseAdditionalIPs, e, "CCM refuses: additional public IPs"},
		{CodeRefuseNoSubnet, e, "CCM refuses: internal Service without a subnet"},
		{CodeRefuseLBSelection, e, "CCM refuses: no load balancer can be selected"},
		{CodeRefusePortConflict, e, "CCM refuses: port conflicts with another Service"},
		{CodeRefuseUIDConflict, e, "UID cannot be taken from Azure: two candidates"},
	}
}
