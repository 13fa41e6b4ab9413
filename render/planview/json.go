package planview

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/exposure"
	"github.com/azsvc/azsvc/plan/service"
)

// FormatVersion is the JSON plan's format_version (SCHEMA.md).
const FormatVersion = "1.2"

type jsonPlan struct {
	FormatVersion string                `json:"format_version"`
	PlanID        string                `json:"plan_id,omitempty"`
	Context       Header                `json:"context"`
	Applyable     bool                  `json:"applyable"`
	Errored       bool                  `json:"errored"`
	Summary       Summary               `json:"summary"`
	Exposure      []exposure.Exposure   `json:"exposure"`
	WritesTo      []plan.WriteScope     `json:"writes_to"`
	ApplyEstimate *ApplyEstimate        `json:"apply_estimate,omitempty"`
	Changes       []jsonChange          `json:"changes"`
	Steps         []jsonStep            `json:"steps"`
	Since         string                `json:"since,omitempty"`
	Drift         []jsonChange          `json:"drift"`
	Blocked       []jsonBlocked         `json:"blocked"`
	Awaiting      []plan.Awaiting       `json:"awaiting_approval"`
	Adopted       []plan.AdoptedUID     `json:"uids_from_azure"`
	AdoptedPorts  []plan.AdoptedPort    `json:"ports_from_azure"`
	Unresolved    []plan.Unresolved     `json:"assigned_by_api_server"`
	Membership    []plan.Membership     `json:"pool_membership"`
	PrivateLink   []Chain               `json:"private_link"`
	Limits        []plan.Limit          `json:"limits"`
	Refused       []jsonRefusal         `json:"refused"`
	Removed       []plan.RemovedService `json:"removed_services"`
	Diagnostics   []service.Diagnostic  `json:"diagnostics"`
}

type jsonChange struct {
	Order            int                    `json:"order"`
	Address          string                 `json:"address"`
	SubscriptionID   string                 `json:"subscription_id"`
	ResourceGroup    string                 `json:"resource_group"`
	ARM              jsonARM                `json:"arm"`
	Services         []jsonService          `json:"services"`
	Actions          []plan.Action          `json:"actions"`
	ActionReason     plan.Reason            `json:"action_reason"`
	Disruptive       bool                   `json:"disruptive"`
	Impact           []string               `json:"impact"`
	Before           *jsonResource          `json:"before"`
	After            *jsonResource          `json:"after"`
	AfterUnknown     [][]string             `json:"after_unknown"`
	AfterAssigned    []plan.AssignedPath    `json:"after_assigned"`
	AttributeChanges []plan.AttributeChange `json:"attribute_changes"`
	MemberChanges    []jsonMembers          `json:"member_changes,omitempty"`
	DependsOn        []string               `json:"depends_on"`
}

type jsonARM struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

type jsonService struct {
	// Kind is "PrivateEndpoint" for a PrivateEndpoint object; empty for a
	// Service.
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

type jsonResource struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	Type       string            `json:"type"`
	Location   string            `json:"location,omitempty"`
	SKU        map[string]any    `json:"sku,omitempty"`
	Zones      []string          `json:"zones,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
	Etag       string            `json:"etag,omitempty"`
	Properties map[string]any    `json:"properties"`
}

type jsonStep struct {
	Order   int      `json:"order"`
	Op      string   `json:"op"`
	Address string   `json:"address"`
	IfMatch string   `json:"if_match,omitempty"`
	Changes []string `json:"changes"`
}

// JSON writes the machine-readable plan documented in SCHEMA.md. Arrays
// are never null.
func JSON(w io.Writer, in Input) error {
	p := in.Plan
	doc := jsonPlan{
		FormatVersion: FormatVersion, PlanID: in.PlanID, Context: in.Header, Since: in.Since,
		Applyable: !hasErrors(in.Diagnostics) && len(p.Refused) == 0 && len(p.Unresolved) == 0 && len(plan.FailingBlocks(p.Blocked)) == 0,
		Errored:   hasErrors(in.Diagnostics),
		Summary:   Summarize(p), Exposure: nonNil(exposure.Of(p)), WritesTo: nonNil(plan.WriteScopes(p, in.Header.Subscription)), Removed: nonNil(p.Removed), ApplyEstimate: estimateApply(p), Changes: []jsonChange{}, Steps: []jsonStep{}, Drift: []jsonChange{},
		Blocked: blockedJSON(p.Blocked), Awaiting: awaitingJSON(p.Awaiting), Adopted: nonNil(p.Adopted), AdoptedPorts: nonNil(p.AdoptedPorts), Unresolved: unresolvedJSON(p.Unresolved), Membership: nonNil(p.Membership), PrivateLink: nonNil(Chains(p)),
		Limits: nonNil(p.Limits), Refused: refusedJSON(p.Refused), Diagnostics: nonNil(in.Diagnostics),
	}
	order := map[plan.Key]int{}
	for i, c := range p.Changes {
		order[c.Key()] = i + 1
		doc.Changes = append(doc.Changes, newJSONChange(i+1, c))
	}
	// A drift entry's order is that of the change putting it back, 0 when
	// the plan does not change the resource.
	for _, c := range p.Drift {
		doc.Drift = append(doc.Drift, newJSONChange(order[c.Key()], c))
	}
	for i, st := range p.Steps {
		js := jsonStep{Order: i + 1, Op: string(st.Op), Address: st.Target.Address(), IfMatch: st.IfMatch, Changes: []string{}}
		for _, c := range st.Changes {
			js.Changes = append(js.Changes, c.ID().Address())
		}
		doc.Steps = append(doc.Steps, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encode plan json: %w", err)
	}
	return nil
}

func nonNil[T any](l []T) []T {
	if l == nil {
		return []T{}
	}
	return l
}

func newJSONChange(order int, c *plan.Change) jsonChange {
	id := c.ID()
	jc := jsonChange{
		Order: order, Address: id.Address(), SubscriptionID: id.Subscription, ResourceGroup: id.ResourceGroup, ARM: jsonARM{ID: id.String(), Type: id.Kind.ARMType()},
		Services: []jsonService{}, Actions: c.Actions, ActionReason: c.Reason, Disruptive: c.Disruptive,
		Impact: nonNil(Impact(c)), Before: newJSONResource(c.Before), After: newJSONResource(c.After),
		AfterUnknown: [][]string{}, AfterAssigned: plan.AssignedPaths(c.After), AttributeChanges: nonNil(c.Attributes), MemberChanges: memberChanges(c), DependsOn: []string{},
	}
	for _, s := range c.Services {
		js := jsonService{}
		if key, ok := plan.EndpointOf(s); ok {
			js.Kind, s = "PrivateEndpoint", key
		}
		js.Namespace, js.Name = splitService(s)
		jc.Services = append(jc.Services, js)
	}
	for _, k := range c.DependsOn {
		if pid, err := plan.ParseID(string(k)); err == nil {
			jc.DependsOn = append(jc.DependsOn, pid.Address())
		}
	}
	if c.After != nil {
		unknownPaths([]string{"properties"}, c.After.Properties, &jc.AfterUnknown)
	}
	return jc
}

func splitService(s string) (string, string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return s[:i], s[i+1:]
		}
	}
	return "", s
}

func newJSONResource(r *plan.Resource) *jsonResource {
	if r == nil {
		return nil
	}
	props := r.Properties
	if props == nil {
		props = map[string]any{}
	}
	return &jsonResource{ID: r.ID.String(), Name: r.Name(), Type: r.Kind().ARMType(), Location: r.Location,
		SKU: r.SKU, Zones: r.Zones, Tags: r.Tags, Etag: r.Etag, Properties: props}
}

// unknownPaths lists the paths of values known only after apply, in key
// order; their value in "after" is null.
func unknownPaths(path []string, v any, out *[][]string) {
	plan.EachLeafPath(path, v, func(p []string, leaf any) {
		if plan.IsUnknown(leaf) {
			*out = append(*out, p)
		}
	})
}

// jsonBlocked is a blocked change as the JSON plan shows it (SCHEMA.md).
type jsonBlocked struct {
	Address string         `json:"address"`
	Code    plan.BlockCode `json:"code"`
	Reason  string         `json:"reason"`
	// Fails: it leaves its Services without what they ask for
	// (plan.BlockCode.Fails); plan and apply exit 4.
	Fails      bool     `json:"fails"`
	Suggestion string   `json:"suggestion,omitempty"`
	Services   []string `json:"services"`
}

func blockedJSON(bs []plan.Blocked) []jsonBlocked {
	out := make([]jsonBlocked, len(bs))
	for i, b := range bs {
		out[i] = jsonBlocked{Address: b.Address, Code: b.Code, Reason: BlockedText(b), Fails: b.Fails(), Suggestion: b.Suggestion,
			Services: nonNil(b.Services)}
	}
	return out
}

func awaitingJSON(as []plan.Awaiting) []plan.Awaiting {
	out := make([]plan.Awaiting, len(as))
	for i, a := range as {
		a.Services = nonNil(a.Services)
		out[i] = a
	}
	return out
}
