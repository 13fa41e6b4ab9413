package planfile

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// FormatVersion is the format_version written.
const FormatVersion = "3.3"

// Plan is the JSON form of a plan: the changes and steps, the
// preconditions, the inputs' hashes and the target.
type Plan struct {
	FormatVersion string            `json:"format_version"`
	Target        string            `json:"target"`
	Inputs        map[string]string `json:"inputs"`
	Scope         plan.Scope        `json:"scope"`
	Changes       []Change          `json:"changes"`
	Steps         []Step            `json:"steps"`
	Blocked       []plan.Blocked    `json:"blocked"`
	Preconditions []Precondition    `json:"preconditions"`
	NoOp          int               `json:"no_op"`
	// Sources are the inputs apply makes the plan again from.
	Sources Sources `json:"sources"`
	// Record is what the plan leaves in Azure once applied (RecordOf), for
	// plan --since to tell later what changed outside azsvc.
	Record []Resource `json:"record"`
	// Since and Drift are what the plan found changed outside azsvc since
	// the saved plan named Since (plan --since); show renders them.
	Since string   `json:"since,omitempty"`
	Drift []Change `json:"drift,omitempty"`
	// Membership is plan.Plan.Membership, for show to say it too.
	Membership []plan.Membership `json:"pool_membership,omitempty"`
	// Unresolved is plan.Plan.Unresolved: apply refuses the plan.
	Unresolved []plan.Unresolved `json:"assigned_by_api_server,omitempty"`
	// Removed is plan.Plan.Removed: the Services outside the input whose
	// resources the plan deletes, as named when it was made.
	Removed []plan.RemovedService `json:"removed_services,omitempty"`
	// Checksum is "sha256:" and the hash of the file written with an
	// empty checksum (Marshal): a file changed afterwards is refused.
	Checksum string `json:"checksum"`
}

// Change is a plan.Change in saved form.
type Change struct {
	Address    string        `json:"address"`
	Actions    []plan.Action `json:"actions"`
	Reason     plan.Reason   `json:"action_reason"`
	Cause      string        `json:"cause,omitempty"`
	Disruptive bool          `json:"disruptive"`
	Services   []string      `json:"services"`
	// ServesOthers: the resource also serves Services outside the input.
	ServesOthers bool                   `json:"serves_others,omitempty"`
	DependsOn    []string               `json:"depends_on"`
	Before       *Resource              `json:"before"`
	After        *Resource              `json:"after"`
	Attributes   []plan.AttributeChange `json:"attribute_changes"`
}

// Step is a plan.Step in saved form; Changes index Plan.Changes.
type Step struct {
	Op       plan.StepOp `json:"op"`
	Target   string      `json:"target"`
	IfMatch  string      `json:"if_match,omitempty"`
	Body     *Resource   `json:"body,omitempty"`
	Children []*Resource `json:"children,omitempty"`
	Changes  []int       `json:"changes"`
}

// Resource is a plan.Resource in saved form.
type Resource struct {
	ID         string            `json:"id"`
	Location   string            `json:"location,omitempty"`
	SKU        map[string]any    `json:"sku,omitempty"`
	Zones      []string          `json:"zones"`
	Tags       map[string]string `json:"tags,omitempty"`
	Properties map[string]any    `json:"properties,omitempty"`
	Etag       string            `json:"etag,omitempty"`
	Services   []string          `json:"services,omitempty"`
	Owned      bool              `json:"owned,omitempty"`
}

// New builds the saved form of p. inputs maps each input (a manifest path,
// the cluster config) to its hash; target names where the plan applies;
// pre are the preconditions apply re-checks (Preconditions).
func New(p *plan.Plan, target string, inputs map[string]string, scope plan.Scope, pre []Precondition) *Plan {
	s := &Plan{FormatVersion: FormatVersion, Target: target, Inputs: inputs, Scope: scope,
		Blocked: p.Blocked, Preconditions: pre, NoOp: p.NoOp, Membership: p.Membership, Unresolved: p.Unresolved, Removed: p.Removed}
	if s.Inputs == nil {
		s.Inputs = map[string]string{}
	}
	index := map[*plan.Change]int{}
	for i, c := range p.Changes {
		index[c] = i
		s.Changes = append(s.Changes, savedChange(c))
	}
	for _, c := range p.Drift {
		s.Drift = append(s.Drift, savedChange(c))
	}
	for _, st := range p.Steps {
		ss := Step{Op: st.Op, Target: st.Target.String(), IfMatch: st.IfMatch, Body: savedPtr(st.Body)}
		for _, k := range st.Children {
			ss.Children = append(ss.Children, savedPtr(k))
		}
		for _, c := range st.Changes {
			ss.Changes = append(ss.Changes, index[c])
		}
		s.Steps = append(s.Steps, ss)
	}
	return s
}

func savedChange(c *plan.Change) Change {
	sc := Change{Address: c.ID().Address(), Actions: c.Actions, Reason: c.Reason, Cause: string(c.Cause),
		Disruptive: c.Disruptive, Services: c.Services, ServesOthers: c.ServesOthers, Attributes: encodeAttrs(c.Attributes)}
	for _, k := range c.DependsOn {
		sc.DependsOn = append(sc.DependsOn, string(k))
	}
	sc.Before, sc.After = savedPtr(c.Before), savedPtr(c.After)
	return sc
}

// Restore rebuilds the plan a saved plan describes, for apply.
func (s *Plan) Restore() (*plan.Plan, error) {
	if major, _, _ := strings.Cut(s.FormatVersion, "."); major != "3" {
		return nil, fmt.Errorf("saved plan format_version %q is not supported (want 3.x): make the plan again with this azsvc", s.FormatVersion)
	}
	p := &plan.Plan{Blocked: s.Blocked, NoOp: s.NoOp, Membership: s.Membership, Unresolved: s.Unresolved, Removed: s.Removed}
	for i, sc := range s.Changes {
		c, err := sc.change()
		if err != nil {
			return nil, fmt.Errorf("saved plan change %d (%s): %w", i, sc.Address, err)
		}
		p.Changes = append(p.Changes, c)
	}
	for i, ss := range s.Steps {
		st, err := ss.step(p.Changes)
		if err != nil {
			return nil, fmt.Errorf("saved plan step %d: %w", i, err)
		}
		p.Steps = append(p.Steps, st)
	}
	for i, sc := range s.Drift {
		c, err := sc.change()
		if err != nil {
			return nil, fmt.Errorf("saved plan drift %d (%s): %w", i, sc.Address, err)
		}
		p.Drift = append(p.Drift, c)
	}
	return p, nil
}

func (sc Change) change() (*plan.Change, error) {
	c := &plan.Change{Actions: sc.Actions, Reason: sc.Reason, Cause: plan.Key(sc.Cause), Disruptive: sc.Disruptive, Services: sc.Services,
		ServesOthers: sc.ServesOthers}
	var err error
	if c.Before, err = sc.Before.resource(); err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	if c.After, err = sc.After.resource(); err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	if c.Before == nil && c.After == nil {
		return nil, fmt.Errorf("neither before nor after is set")
	}
	for _, k := range sc.DependsOn {
		c.DependsOn = append(c.DependsOn, plan.Key(k))
	}
	for _, a := range sc.Attributes {
		c.Attributes = append(c.Attributes, plan.AttributeChange{Path: a.Path, Before: decodeMarkers(a.Before), After: decodeMarkers(a.After), ForcesReplacement: a.ForcesReplacement})
	}
	return c, nil
}

func (ss Step) step(changes []*plan.Change) (*plan.Step, error) {
	id, err := plan.ParseID(ss.Target)
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	st := &plan.Step{Op: ss.Op, Target: id, IfMatch: ss.IfMatch}
	if ss.Op != plan.OpPut && ss.Op != plan.OpDelete {
		return nil, fmt.Errorf("unknown op %q", ss.Op)
	}
	if st.Body, err = ss.Body.resource(); err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	for _, k := range ss.Children {
		r, err := k.resource()
		if err != nil {
			return nil, fmt.Errorf("child: %w", err)
		}
		st.Children = append(st.Children, r)
	}
	for _, i := range ss.Changes {
		if i < 0 || i >= len(changes) {
			return nil, fmt.Errorf("change index %d out of range", i)
		}
		st.Changes = append(st.Changes, changes[i])
	}
	return st, nil
}
