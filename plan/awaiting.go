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
