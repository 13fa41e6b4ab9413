package plan

// MembershipCode says why azsvc does not plan the members of a backend
// pool. It is a code, not a sentence: renderers word it.
type MembershipCode string

const (
	// MembershipVMs: loadBalancerBackendPoolConfigurationType
	// nodeIPConfiguration; the nodes' NICs join the pool through their VM
	// or scale set, which azsvc does not write.
	MembershipVMs MembershipCode = "managed_by_vms"
	// MembershipServiceGateway: podIP pools belong to ServiceGateway.
	MembershipServiceGateway MembershipCode = "service_gateway"
	// MembershipNoNodes: nodeIP pools, but the input has no Nodes (neither
	// Node manifests nor --from-cluster): members stay as ARM holds them.
	MembershipNoNodes MembershipCode = "no_node_input"
	// MembershipNoEndpoints: the pool of an externalTrafficPolicy Local
	// Service under multi-SLB, and the input has no EndpointSlices.
	MembershipNoEndpoints MembershipCode = "no_endpoint_input"
	// MembershipKept: no node qualifies for a single-SLB pool; CCM leaves
	// such a pool's members as they are rather than empty it.
	MembershipKept MembershipCode = "kept_as_is"
	// MembershipPreConfigured: azure.json's
	// preConfiguredBackendPoolLoadBalancerTypes covers the pool's load
	// balancer (internal, external or all) and ARM holds the pool: CCM
	// never changes its members, nor does azsvc.
	MembershipPreConfigured MembershipCode = "preconfigured"
	// MembershipNoVNet: azure.json has no vnetName, which members name.
	MembershipNoVNet MembershipCode = "no_vnet_name"
)

// Membership lists the backend pools (addresses) whose members azsvc does
// not plan, for one reason.
type Membership struct {
	Code  MembershipCode `json:"code"`
	Pools []string       `json:"pools"`
}
