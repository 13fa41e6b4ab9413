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
//
//	Actions          Before    After
//	[create]         nil       desired body
//	[update]         observed  observed with the desired fields laid over it
//	[adopt]          observed  the same, with the missing tags added
//	[delete, create] observed  desired body (a replace)
//	[delete]         observed  nil
type Change struct {
	Actions []Action
	// Before is the observed resource (nil on create); After the desired one
	// (nil on delete). After may hold Unknown values.
	Before, After *Resource
	// Reason explains the change to people. It is for display only and must
	// not drive apply (Terraform's ActionReason discipline, style-anchors §1).
	Reason Reason
	// Cause is the resource whose replacement forces this one's (a resource
	// that references something re-created is re-created too); empty
	// otherwise. Display only.
	Cause Key
	// Disruptive changes interrupt traffic: every delete and replace, and
	// the updates that move it (a frontend IP change, a probe protocol
	// change). Renderers explain the consequence.
	Disruptive bool
	// Services are the namespace/name of the Services this change serves.
	Services []string
	// ServesOthers: the resource also serves Services outside the input
	// (Resource.ServesOthers), so the change is shared beyond Services.
	ServesOthers bool
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

// Has reports whether the change includes action a.
func (c *Change) Has(a Action) bool {
	for _, x := range c.Actions {
		if x == a {
			return true
		}
	}
	return false
}

// IsReplace reports whether the change deletes and re-creates the resource.
func (c *Change) IsReplace() bool { return c.Has(ActionDelete) && c.Has(ActionCreate) }

// IsDelete reports whether the change only deletes.
func (c *Change) IsDelete() bool { return c.Has(ActionDelete) && !c.Has(ActionCreate) }

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
	// ChildKeys are the keys of Children, in the same order, when the
	// scheduler knows them (nil otherwise): checks over every step of a
	// 10,000-Service plan need not build them again.
	ChildKeys []Key
	// IfMatch is the etag read at plan time; empty for creates.
	IfMatch string
	// Changes are the resource changes this write carries, in order.
	Changes []*Change
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
	// Drift lists owned resources changed outside azsvc since a previous
	// plan recorded what it would write (plan --since): Actions say what
	// happened outside (update or delete), Before is the record, After what
	// ARM holds now (nil when deleted), Attributes go from one to the
	// other. Empty unless such a record was given: nothing else tells an
	// edit in Azure from an edit of the inputs.
	Drift   []*Change
	Blocked []Blocked
	Limits  []Limit
	// Refused lists the writes ARM would refuse (plan/preflight): a plan
	// with any is not applied.
	Refused []Refusal
	// Awaiting lists private endpoint connections left Pending: the PLS
	// owner must approve them. Not a change azsvc makes.
	Awaiting []Awaiting
	// Unfocused counts the changes a focused plan (Scope.Focus) left out:
	// they serve only Services outside the focus.
	Unfocused int
	// Unresolved are the values the API server assigns that the changes
	// need and the input lacks (UnresolvedOf): apply refuses the plan.
	Unresolved []Unresolved
	// Adopted are the Services without metadata.uid planned under the name
	// prefix CCM used for them, found in ARM ("UID taken from Azure").
	Adopted []AdoptedUID
	// AdoptedPorts are the node ports and health-check node ports the
	// input lacks, planned as CCM built them into Azure.
	AdoptedPorts []AdoptedPort
	// Membership says which backend pools' members azsvc leaves to others,
	// and why (nodeIPConfiguration pools, no Node input, ...).
	Membership []Membership
	// Removed are the Services outside the input whose resources the plan
	// deletes, by name prefix, named when a tag or a known name says whose
	// they were (RemovedServices, NameRemoved).
	Removed []RemovedService
	// NoOp counts resources already as desired (including adopted ones).
	NoOp int
}

// AttributeChange is one field an update or replace changes. Path is the
// JSON path inside the ARM body, e.g. ["properties", "frontendPort"].
type AttributeChange struct {
	Path              []string `json:"path"`
	Before            any      `json:"before"`
	After             any      `json:"after"`
	ForcesReplacement bool     `json:"forces_replacement,omitempty"`
}
