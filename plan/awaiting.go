package plan

// Awaiting is a private endpoint connection that stays Pending after the
// plan is applied: the owner of the private link service must approve it
// (arm-rules §7.3). It is not a change: apply succeeds without it.
type Awaiting struct {
	Address string `json:"address"` // the private endpoint, e.g. pe/private-router
	// Target is the private link service: its address when azsvc knows it,
	// else the ID or alias the endpoint names.
	Target string `json:"private_link_service"`
	// Status is the connection's state now: Pending, or "" when this plan
	// creates the endpoint.
	Status   string   `json:"status,omitempty"`
	Services []string `json:"services"`
}

// AdoptedPort says that a port the API server assigned, which the input
// lacks, is planned as CCM built it into Azure for the same Service port.
type AdoptedPort struct {
	Service string `json:"service"`
	// Field is NodePortField or FieldHealthCheckNodePort.
	Field string `json:"field"`
	Port  int32  `json:"port"`
	// Evidence is the address of the rule or probe that holds it.
	Evidence string `json:"evidence"`
}

// AdoptedUID says that a Service without metadata.uid is planned under the
// name prefix CCM used for it, found in ARM, rather than a derived one.
type AdoptedUID struct {
	Service string `json:"service"`
	Prefix  string `json:"prefix"`
	// Evidence are the addresses of the resources that carry the prefix or
	// name the Service.
	Evidence []string `json:"evidence"`
}
