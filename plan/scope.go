package plan

// ServiceRef names a Service in scope of a plan and the name prefix CCM
// derives from its UID (ccm-semantics §2.1): ownership of frontends, rules,
// probes and managed public IPs is decided by this prefix and by name
// (§2.4).
type ServiceRef struct {
	Name   string `json:"name"`   // namespace/name
	Prefix string `json:"prefix"` // "a" + uid without dashes, cut to 32 characters
	// PinnedIPs are the addresses the Service pins (azure-load-balancer-ipv4/6
	// or spec.loadBalancerIP), used to recognise shared frontends and
	// user-assigned public IPs as its own.
	PinnedIPs []string `json:"pinned_ips,omitempty"`
	// PIPNames are the user-assigned public IP names it names
	// (azure-pip-name, azure-pip-name-ipv6).
	PIPNames []string `json:"pip_names,omitempty"`
}

// Scope is what a plan may touch: the cluster and the Services of the input.
// Resources of Services outside the scope are left alone unless Prune is set.
type Scope struct {
	Cluster  string       `json:"cluster"` // --cluster-name, e.g. "kubernetes"
	Services []ServiceRef `json:"services"`
	Prune    bool         `json:"prune,omitempty"`
	// Focus, when set, are the Services (namespace/name) a focused plan
	// changes (--service, -n, -l): the rest is read, so shared resources
	// are planned right, but its changes are left out.
	Focus []string `json:"focus,omitempty"`
	// LoadBalancerNames are the other load balancer names the cluster
	// manages (multi-SLB configuration names, basic-SKU VM-set LBs), without
	// the "-internal" suffix; Cluster is always included (ccm-semantics §2.4
	// "LB (managed set)").
	LoadBalancerNames []string `json:"load_balancer_names,omitempty"`
	// SecurityGroup is the cluster's NSG (ccm-semantics §5.1). CCM cleans
	// it on every ensure and delete (§5.5), so the planner reconciles its
	// managed rules even when no Service in scope wants a rule in it (the
	// last public Service removed). Empty: only NSGs the desired state
	// writes are reconciled.
	SecurityGroup Key `json:"security_group,omitempty"`
	// Placement is where the configuration puts the cluster's resources:
	// what a plan reads even when no Service in scope names a group.
	Placement Placement `json:"placement,omitzero"`
	// GoneNodeIPs are addresses the cluster's backend pools hold whose node
	// is gone from the input's Nodes: managed NSG rules drop them, as CCM's
	// retain step drops destinations that are no node's address any more
	// (ccm-semantics §5.5 step 3). Empty without Node input.
	GoneNodeIPs []string `json:",omitempty"`
	// NodeIPs maps the InternalIPs of the input's Nodes (canonical form)
	// to the Node's name: a static frontend IP ARM would find taken by the
	// node's NIC, which azsvc does not read (scale set NICs are not
	// Microsoft.Network resources). Rebuilt from the inputs, never saved.
	NodeIPs map[string]string `json:"-"`
	// AbsentNodeIPs are the member addresses of the cluster's backend pools
	// that no Node of the input has, when the Nodes come from manifests
	// (a cluster read lists every Node): a partial list of Node manifests
	// would drain them, so the plan marks such pool changes disruptive.
	AbsentNodeIPs []string `json:",omitempty"`
}

// Placement names the resource groups the cluster configuration (azure.json)
// places resources in by default (ccm-semantics, config section).
type Placement struct {
	LoadBalancers  string  `json:"load_balancers,omitempty"`
	PublicIPs      string  `json:"public_ips,omitempty"`
	SecurityGroups string  `json:"security_groups,omitempty"`
	PrivateLinks   string  `json:"private_links,omitempty"`
	Endpoints      string  `json:"endpoints,omitempty"`
	DNSZones       string  `json:"dns_zones,omitempty"`
	VNet           VNetRef `json:"vnet,omitzero"`
}
