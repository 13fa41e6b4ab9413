package conditions

// UIDOrigin says where the UID that names a Service's resources came from.
type UIDOrigin string

const (
	// UIDFromInput: the manifest or the live cluster holds it.
	UIDFromInput UIDOrigin = "input"
	// UIDFromAzure: the input lacks it, and CCM's names and tags in Azure
	// show it (plan.AdoptedUID).
	UIDFromAzure UIDOrigin = "azure"
	// UIDUnknown: neither; the API server assigns it, and nothing in
	// Azure was built for the Service yet.
	UIDUnknown UIDOrigin = "unknown"
)

// Service is what Azure holds of what one Service needs.
type Service struct {
	Name string    `json:"name"` // namespace/name
	UID  UIDOrigin `json:"uid"`
	// InAzure reports whether Azure holds any of the Service's own
	// resources: a frontend, rule, probe, private link service, or public
	// IP held for it (load balancers, pools, NSG rules and the public IPs
	// it only uses exist for others too).
	InAzure             bool                 `json:"in_azure"`
	LoadBalancers       []LoadBalancer       `json:"load_balancers"`
	PublicIPs           []PublicIP           `json:"public_ips"`
	SecurityRules       []SecurityRule       `json:"security_rules"`
	PrivateLinkServices []PrivateLinkService `json:"private_link_services"`
	Conditions          []Condition          `json:"conditions"`
}

// LoadBalancer is a load balancer and the children of it a Service needs.
type LoadBalancer struct {
	Resource
	Name      string     `json:"name"`
	SKU       string     `json:"sku,omitempty"`
	Frontends []Frontend `json:"frontends"`
	Rules     []Rule     `json:"rules"`
	Pools     []Pool     `json:"backend_pools"`
}

// Frontend is a frontend IP configuration.
type Frontend struct {
	Resource
	Name string `json:"name"`
	// IPAddress is the address clients reach: the private IP, or the
	// address of the public IP.
	IPAddress string `json:"ip_address,omitempty"`
	// PublicIP is the address of the public IP it uses, "" for an
	// internal frontend.
	PublicIP string   `json:"public_ip,omitempty"`
	Zones    []string `json:"zones,omitempty"`
}

// Rule is a load-balancing rule, with its probe.
type Rule struct {
	Resource
	Name         string   `json:"name"`
	Frontend     string   `json:"frontend,omitempty"` // the frontend's name
	Protocol     string   `json:"protocol,omitempty"`
	FrontendPort int      `json:"frontend_port,omitempty"`
	BackendPort  int      `json:"backend_port,omitempty"`
	FloatingIP   bool     `json:"floating_ip"`
	IdleTimeout  int      `json:"idle_timeout_minutes,omitempty"`
	Pools        []string `json:"backend_pools,omitempty"` // names
	Probe        *Probe   `json:"probe,omitempty"`
}

// Probe is a health probe.
type Probe struct {
	Resource
	Name            string `json:"name"`
	Protocol        string `json:"protocol,omitempty"`
	Port            int    `json:"port,omitempty"`
	RequestPath     string `json:"request_path,omitempty"`
	IntervalSeconds int    `json:"interval_seconds,omitempty"`
	Threshold       int    `json:"threshold,omitempty"`
}

// Pool is a backend address pool.
type Pool struct {
	Resource
	Name string `json:"name"`
	// Members is how many members an IP-based pool holds; nil for a pool
	// the nodes' NICs join (nodeIPConfiguration), whose members live on
	// the NICs, which azsvc does not read.
	Members         *int     `json:"members,omitempty"`
	MemberAddresses []string `json:"member_addresses,omitempty"`
}

// PublicIP is a public IP address resource.
type PublicIP struct {
	Resource
	Name      string `json:"name"`
	IPAddress string `json:"ip_address,omitempty"`
	FQDN      string `json:"fqdn,omitempty"`
	SKU       string `json:"sku,omitempty"`
}

// SecurityRule is an NSG rule that admits a Service's traffic.
type SecurityRule struct {
	Resource
	SecurityGroup string   `json:"security_group"`
	Name          string   `json:"name"`
	Priority      int      `json:"priority,omitempty"`
	Access        string   `json:"access,omitempty"`
	Protocol      string   `json:"protocol,omitempty"`
	Ports         []string `json:"ports,omitempty"`
	Sources       []string `json:"sources,omitempty"`
	Destinations  []string `json:"destinations,omitempty"`
}

// PrivateLinkService is a private link service and its connections.
type PrivateLinkService struct {
	Resource
	Name          string       `json:"name"`
	Alias         string       `json:"alias,omitempty"`
	FQDNs         []string     `json:"fqdns,omitempty"`
	Visibility    []string     `json:"visibility,omitempty"`
	AutoApproval  []string     `json:"auto_approval,omitempty"`
	ProxyProtocol bool         `json:"proxy_protocol"`
	NATIPs        []string     `json:"nat_ip_addresses,omitempty"`
	Connections   []Connection `json:"connections"`
}

// Connection is a private endpoint connection of a private link service.
type Connection struct {
	Name string `json:"name"`
	// Endpoint is the private endpoint's address (pe/…), ID its ARM ID.
	Endpoint   string `json:"private_endpoint"`
	EndpointID string `json:"private_endpoint_id"`
	Status     string `json:"status"`
}
