package plan

// Action is what a change does to one resource (ux-anchors §8.1).
type Action string

const (
	ActionCreate Action = "create"
	ActionUpdate Action = "update"
	ActionDelete Action = "delete"
	ActionAdopt  Action = "adopt" // start managing a CCM-built resource: no body change
	ActionNoOp   Action = "no-op"
)

// Change is the planned change of one resource (at child granularity).
type Change struct {
	// Actions is [create], [update], [delete], [delete, create] (replace),
	// [adopt] or [no-op].
	Actions []Action
	// Before is the observed resource (nil on create); After the desired one
	// (nil on delete). After may hold Unknown values.
	Before, After *Resource
	// Reason is one of service_added, service_removed, annotation_changed,
	// port_changed, source_ranges_changed, drift_detected,
	// requires_replacement, ownership_conflict.
	Reason string
	// Disruptive changes are listed in the plan's impact callout with a
	// plain-language consequence in Impact.
	Disruptive bool
	Impact     []string
	// Services are the namespace/name of the Services this change serves.
	Services []string
	// DependsOn are the keys of changes that must be applied first.
	DependsOn []Key
	// Attributes are the fields an update or replace changes (empty for
	// creates and deletes): location, sku, zones, tags, then properties,
	// keys sorted within each object.
	Attributes []AttributeChange
}

// ID is the ID of the changed resource.
func (c *Change) ID() ID {
	if c.After != nil {
		return c.After.ID
	}
	return c.Before.ID
}

// Key is the key of the changed resource.
func (c *Change) Key() Key { return c.ID().Key() }

// StepOp is the ARM operation a step performs.
type StepOp string

const (
	OpPut    StepOp = "put"
	OpDelete StepOp = "delete"
)

// Step is one ARM write: a PUT or DELETE of one top-level resource, carrying
// every change to it and its inline children that can go together. Apply
// runs steps serially in plan order (DESIGN.md "Apply").
type Step struct {
	Op     StepOp
	Target ID // a top-level resource (or a child with its own endpoint: vnetLink, aRecord)
	// Body is the complete resource after the step (put only). For a parent
	// with inline children, Children is the complete child set after the
	// step, including unowned children exactly as read.
	Body     *Resource
	Children []*Resource
	// IfMatch is the etag read at plan time; empty for creates.
	IfMatch string
	// Changes are the resource changes this write carries, in order.
	Changes []*Change
}

// Blocked is a desired change azsvc will not make, with the reason: ownership
// forbids it (DESIGN.md "ownership"), or something it needs does not exist
// (a pinned public IP, a PLS subnet, node IPs for an NSG rule), where CCM
// would fail the Service.
type Blocked struct {
	Address  string   `json:"address"`
	Reason   string   `json:"reason"`
	Services []string `json:"services"`
}

// Limit is the use of one ARM limit after the plan is applied (arm-rules §2.4).
type Limit struct {
	Name  string `json:"name"`  // e.g. nsg_rules
	Scope string `json:"scope"` // address of the resource, e.g. nsg/aks-agentpool-nsg
	Used  int    `json:"used_after"`
	Max   int    `json:"max"`
}

// Plan is the ordered difference between desired and observed state.
type Plan struct {
	// Changes in apply order (no-ops excluded).
	Changes []*Change
	// Steps are the ARM writes that carry Changes, in apply order.
	Steps []*Step
	// Drift lists owned resources changed outside azsvc.
	Drift   []*Change
	Blocked []Blocked
	Limits  []Limit
	// NoOp counts resources already as desired (including adopted ones).
	NoOp int
	// Reads are the observed resources the plan depends on, with their
	// etags and owned-content hashes: what a saved plan re-checks before
	// apply (ux-anchors §8.6). See Preconditions.
	Reads []Precondition
}
