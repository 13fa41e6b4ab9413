// Package conditions says what Azure holds now for each Service and
// PrivateEndpoint of the input, and decides their conditions in
// HyperShift's style (LoadBalancerReady, PrivateEndpointApproved, InSync,
// ...), each True, False or Unknown with a reason: the report `azsvc
// status` prints. It reads the plan made from the same single read of ARM,
// so status and plan never disagree. It decides; renderers word
// (DESIGN.md "the core decides, the views print").
package conditions

// Status is a condition's status, as Kubernetes conditions have it.
type Status string

const (
	True    Status = "True"
	False   Status = "False"
	Unknown Status = "Unknown"
)

// Type names a condition.
type Type string

// The conditions, in the order they are listed. Only those that apply to
// a Service or endpoint are reported: a Service without a private link
// service has no PrivateLinkServiceReady.
const (
	LoadBalancerReady       Type = "LoadBalancerReady"
	PublicIPReady           Type = "PublicIPReady"
	SecurityRulesReady      Type = "SecurityRulesReady"
	PrivateLinkServiceReady Type = "PrivateLinkServiceReady"
	PrivateEndpointApproved Type = "PrivateEndpointApproved"
	PrivateDNSReady         Type = "PrivateDNSReady"
	InSync                  Type = "InSync"
)

// Reason says why a condition has its status: a stable code, worded by
// renderers.
type Reason string

const (
	// AsExpected: the condition is True.
	AsExpected Reason = "AsExpected"
	// NotCreated: none of the resources the condition covers is in Azure.
	NotCreated Reason = "NotCreated"
	// Missing: some of them are not in Azure (Condition.Addresses).
	Missing Reason = "Missing"
	// NoAddress: a frontend or public IP has no address yet (Addresses).
	NoAddress Reason = "NoAddress"
	// NoAlias: the private link service has no alias yet (Addresses).
	NoAlias Reason = "NoAlias"
	// ConnectionPending, ConnectionRejected, ConnectionDisconnected: the
	// private endpoint's connection is in that state (arm-rules §7.3).
	ConnectionPending      Reason = "ConnectionPending"
	ConnectionRejected     Reason = "ConnectionRejected"
	ConnectionDisconnected Reason = "ConnectionDisconnected"
	// NoConnectionState: Azure reports no state for the connection.
	NoConnectionState Reason = "NoConnectionState"
	// RecordsStale: A records that do not hold the endpoint's address
	// (Addresses).
	RecordsStale Reason = "RecordsStale"
	// EndpointAddressUnknown: the records exist, but the endpoint has no
	// address to compare them with.
	EndpointAddressUnknown Reason = "EndpointAddressUnknown"
	// ChangesPending: a plan would change something (Condition.Changes).
	ChangesPending Reason = "ChangesPending"
	// Blocked: a plan has changes for it that azsvc will not make.
	Blocked Reason = "Blocked"
	// Refused: a plan has changes for it that ARM would refuse.
	Refused Reason = "Refused"
)

// Condition is one condition of a Service or endpoint. Facts that a reason
// refers to are set as it needs them.
type Condition struct {
	Type   Type   `json:"type"`
	Status Status `json:"status"`
	Reason Reason `json:"reason"`
	// Addresses are the resources (or, for a public IP known only by
	// address, the address) the reason is about.
	Addresses []string `json:"addresses,omitempty"`
	// Changes counts what a plan would do, for InSync.
	Changes *Changes `json:"changes,omitempty"`
}

// Changes counts a plan's changes for one Service or endpoint: a replace
// counts once, as a replace. Blocked and Refused count the plan's blocked
// entries and ARM refusals that concern it; Unresolved the values the API
// server assigns that its changes need.
type Changes struct {
	Create     int `json:"create"`
	Update     int `json:"update"`
	Replace    int `json:"replace"`
	Delete     int `json:"delete"`
	Adopt      int `json:"adopt"`
	Blocked    int `json:"blocked"`
	Refused    int `json:"refused"`
	Unresolved int `json:"assigned_by_api_server"`
}

// Total is the number of changes a plan would make.
func (c Changes) Total() int { return c.Create + c.Update + c.Replace + c.Delete + c.Adopt }

// Report is the status of every Service and PrivateEndpoint in scope.
type Report struct {
	Services  []Service  `json:"services"`
	Endpoints []Endpoint `json:"private_endpoints"`
}

// Ready reports whether every condition of the report is True.
func (r *Report) Ready() bool {
	for _, s := range r.Services {
		if !AllTrue(s.Conditions) {
			return false
		}
	}
	for _, e := range r.Endpoints {
		if !AllTrue(e.Conditions) {
			return false
		}
	}
	return true
}

// AllTrue reports whether every condition of cs is True: a Service or
// endpoint that is ready.
func AllTrue(cs []Condition) bool {
	for _, c := range cs {
		if c.Status != True {
			return false
		}
	}
	return true
}

// Types are every condition type, in the order they are listed.
func Types() []Type {
	return []Type{LoadBalancerReady, PublicIPReady, SecurityRulesReady, PrivateLinkServiceReady,
		PrivateEndpointApproved, PrivateDNSReady, InSync}
}

// Reasons are every reason a condition can have.
func Reasons() []Reason {
	return []Reason{AsExpected, NotCreated, Missing, NoAddress, NoAlias, ConnectionPending, ConnectionRejected,
		ConnectionDisconnected, NoConnectionState, RecordsStale, EndpointAddressUnknown, ChangesPending, Blocked, Refused}
}
