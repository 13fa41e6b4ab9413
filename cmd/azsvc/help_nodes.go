package main

// nodesHelp is `azsvc help nodes`: the Node and EndpointSlice input
// (plan/service/topology.go) and what the plan makes of it
// (plan/desired/pools.go).
const nodesHelp = `Nodes and EndpointSlices decide two things CCM derives from the cluster:
the members of IP-based backend pools, and the destinations of NSG rules of
Services with floating IP disabled (the node addresses).

Where they come from. With --from-cluster, from the cluster (one paged list
each). Offline, from Node (v1) and EndpointSlice (discovery.k8s.io/v1)
documents in the -f files, beside the Services, as kubectl get -o yaml
prints them; with both, a manifest replaces the cluster's object of the same
name. They are decoded strictly: a field the object does not have, a value of
the wrong type, an InternalIP or endpoint address that is not an IP address
is an error naming file, line and field; a name given twice is an error.
Give every Node of the cluster: a node missing from the input leaves the
pools. Offline, azsvc cannot tell a node that left from one left out, so an
endpoint on a node no Node manifest names is a warning (AZSVC3071), and a
pool losing members whose Node the manifests lack is a disruptive change
(nodes_not_in_input). An EndpointSlice in discovery.k8s.io/v1beta1, which
the API server no longer serves, is left out with a warning (AZSVC3072).

What the plan makes of them, as CCM does:
  - The node set: every Node but those being deleted, labelled
    node.kubernetes.io/exclude-from-external-load-balancers (true, or a value
    that is not a boolean) or tainted ToBeDeletedByClusterAutoscaler.
    NotReady nodes stay.
  - loadBalancerBackendPoolConfigurationType nodeIP: each pool lists, as
    loadBalancerBackendAddresses, the first InternalIP of the pool's family
    of every node of the set but control-plane nodes, named after the node;
    the pool names the cluster's VNet. The members are planned as part of the
    pool, inside its load balancer's single PUT, and the plan shows the
    nodes added and removed. A member that stays keeps its name and place.
    With a single load balancer, a pool no node qualifies for is left as
    Azure holds it (CCM does not empty it); under multi-SLB it empties. A
    pool Azure holds on a load balancer type that
    preConfiguredBackendPoolLoadBalancerTypes names (internal, external,
    all) is left as it is; CCM fills only one it creates. A pool left
    without members under a load-balancing rule is a disruptive change.
  - Multi-SLB (multipleStandardLoadBalancerConfigurations): a node goes to
    the configuration whose primaryVMSet is its scale set (read from its
    providerID), else stays on the load balancer Azure has it on if that is
    still eligible, else goes to the eligible configuration (matching
    nodeSelector, or without one) with the fewest nodes. Only a uniform
    VMSS providerID names a VM set: azsvc matches the nodes of availability
    sets, VMSS Flex and standalone VMs to no primaryVMSet, so a
    configuration whose primaryVMSet is an availability set gets its nodes
    by nodeSelector only. A configuration Azure holds no pool for and that
    no node is placed on takes every node, as CCM does until it restarts.
    A nodeSelector CCM cannot parse is a configuration error. An
    externalTrafficPolicy Local Service gets a pool of its own holding the
    nodes its endpoints run on (every endpoint, ready or not; every node when
    it has no EndpointSlice). That is the only use CCM makes of
    EndpointSlices: its load balancer path never uses pod IPs (podIP pools
    are ServiceGateway's).
  - nodeIPConfiguration: the nodes' VMs and scale sets put their NICs in the
    pools; azsvc does not, and the plan says so. NSG rules with floating IP
    disabled get the InternalIPs of the nodes those pools hold (no excluded,
    kubernetes.azure.com/managed=false or other-resource-group node, nor a
    control-plane node while excludeMasterFromStandardLB).
  - A node that left: its address goes from every pool and NSG rule.

Without Nodes, azsvc plans no pool members and takes the node addresses of
NSG rules from the pools as Azure holds them. examples/live-cluster has a
cluster to try: azsvc --settings examples/azsvc.yaml plan -f
examples/live-cluster/services.yaml -f examples/live-cluster/nodes.yaml -f
examples/live-cluster/endpointslices.yaml --config
examples/live-cluster/azure.json (the settings give the cluster name its
configurations are named after, and the local emulator).
`
