package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// SavedFormatVersion is the format_version of a saved plan; the major
// number changes on breaking changes (ux-anchors §8.6).
const SavedFormatVersion = "1.0"

// Precondition is what apply re-checks about one resource before running a
// saved plan: whether it existed, its etag, and a hash of the content azsvc
// owns in it (for a shared LB or NSG: the parent and its managed children
// only, so an unrelated team's rule does not make the plan stale;
// ux-anchors §8.6).
type Precondition struct {
	Address     string `json:"address"`
	ID          string `json:"id"`
	Exists      bool   `json:"exists"`
	Etag        string `json:"etag,omitempty"`
	ContentHash string `json:"content_hash,omitempty"`
}

// Preconditions lists what the plan read about every resource it touches.
func (p *Plan) Preconditions() []Precondition { return p.Reads }

// reads computes the preconditions of every resource the plan writes or
// changes, and of the parents of changed children.
func (d *differ) reads(p *Plan) []Precondition {
	touched := map[Key]ID{}
	for _, st := range p.Steps {
		touched[st.Target.Key()] = st.Target
		for _, c := range st.Changes {
			touched[c.Key()] = c.ID()
		}
	}
	managed := func(r *Resource) bool { return d.own[r.Key()].managed }
	out := make([]Precondition, 0, len(touched))
	for _, k := range sortedIDKeys(touched) {
		id := touched[k]
		pre := Precondition{Address: id.Address(), ID: id.String()}
		if r, ok := d.observed.Get(k); ok {
			pre.Exists, pre.Etag = true, r.Etag
			pre.ContentHash = contentHash(r, d.obsKids[k], managed)
		}
		out = append(out, pre)
	}
	return out
}

func sortedIDKeys(m map[Key]ID) []Key {
	out := make([]Key, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}

// contentHash hashes a resource's body and, for a parent, the bodies of its
// managed children, in key order. Etags are left out: they move whenever
// anything in the parent changes.
func contentHash(r *Resource, kids []*Resource, managed func(*Resource) bool) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	_ = enc.Encode(toSaved(r, false))
	for _, k := range kids {
		if managed(k) {
			_ = enc.Encode(toSaved(k, false))
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// CheckPreconditions compares a saved plan's preconditions with the state
// read now and lists, one line per resource, what changed since the plan;
// an empty result means the plan may be applied (apply refuses otherwise,
// exit 5). An etag that moved while the owned content did not is accepted
// (ux-anchors §8.6 step 2).
func CheckPreconditions(saved *SavedPlan, now *State) []string {
	parents := NewState()
	for _, pre := range saved.Preconditions {
		if id, err := ParseID(pre.ID); err == nil && (id.Kind == KindLoadBalancer || id.Kind == KindSecurityGroup) {
			parents.Put(&Resource{ID: id})
		}
	}
	own := newOwners(saved.Scope, parents, now)
	managed := func(r *Resource) bool { return own.of(r).managed }
	var out []string
	for _, pre := range saved.Preconditions {
		r, ok := now.Get(KeyOf(pre.ID))
		switch {
		case !pre.Exists && ok:
			out = append(out, pre.Address+": created since the plan was made")
		case pre.Exists && !ok:
			out = append(out, pre.Address+": deleted since the plan was made")
		case ok && contentHash(r, now.Children(r.Key()), managed) != pre.ContentHash:
			out = append(out, fmt.Sprintf("%s: changed since the plan was made (etag %s, now %s)", pre.Address, pre.Etag, r.Etag))
		}
	}
	return out
}

// SavedPlan is the JSON form of a plan written by `azsvc plan --out` and
// read by `azsvc apply`: the changes and steps, the preconditions, the
// inputs' hashes and the target (ux-anchors §8.6).
type SavedPlan struct {
	FormatVersion string            `json:"format_version"`
	Target        string            `json:"target"`
	Inputs        map[string]string `json:"inputs"`
	Scope         Scope             `json:"scope"`
	Changes       []SavedChange     `json:"changes"`
	Steps         []SavedStep       `json:"steps"`
	Blocked       []Blocked         `json:"blocked"`
	Preconditions []Precondition    `json:"preconditions"`
	NoOp          int               `json:"no_op"`
}

// SavedChange is a Change in saved form.
type SavedChange struct {
	Address    string            `json:"address"`
	Actions    []Action          `json:"actions"`
	Reason     Reason            `json:"action_reason"`
	Cause      string            `json:"cause,omitempty"`
	Disruptive bool              `json:"disruptive"`
	Services   []string          `json:"services"`
	DependsOn  []string          `json:"depends_on"`
	Before     *SavedResource    `json:"before"`
	After      *SavedResource    `json:"after"`
	Attributes []AttributeChange `json:"attribute_changes"`
}

// SavedStep is a Step in saved form; Changes index SavedPlan.Changes.
type SavedStep struct {
	Op       StepOp           `json:"op"`
	Target   string           `json:"target"`
	IfMatch  string           `json:"if_match,omitempty"`
	Body     *SavedResource   `json:"body,omitempty"`
	Children []*SavedResource `json:"children,omitempty"`
	Changes  []int            `json:"changes"`
}

// SavedResource is a Resource in saved form. Unknown and AfterApply markers
// are written as {"$azsvc_unknown": {"source": key, "field": name}} so they
// survive the round trip.
type SavedResource struct {
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

const unknownMarkerKey = "$azsvc_unknown"

// NewSavedPlan builds the saved form of p. inputs maps each input (a
// manifest path, the cluster config) to its hash; target names where the
// plan applies (subscription and resource group, or the emulator state).
func NewSavedPlan(p *Plan, target string, inputs map[string]string, scope Scope) *SavedPlan {
	s := &SavedPlan{FormatVersion: SavedFormatVersion, Target: target, Inputs: inputs, Scope: scope,
		Blocked: p.Blocked, Preconditions: p.Reads, NoOp: p.NoOp}
	if s.Inputs == nil {
		s.Inputs = map[string]string{}
	}
	index := map[*Change]int{}
	for i, c := range p.Changes {
		index[c] = i
		sc := SavedChange{Address: c.ID().Address(), Actions: c.Actions, Reason: c.Reason, Cause: string(c.Cause),
			Disruptive: c.Disruptive, Services: c.Services, Attributes: encodeAttrs(c.Attributes)}
		for _, k := range c.DependsOn {
			sc.DependsOn = append(sc.DependsOn, string(k))
		}
		sc.Before, sc.After = toSavedPtr(c.Before), toSavedPtr(c.After)
		s.Changes = append(s.Changes, sc)
	}
	for _, st := range p.Steps {
		ss := SavedStep{Op: st.Op, Target: st.Target.String(), IfMatch: st.IfMatch, Body: toSavedPtr(st.Body)}
		for _, k := range st.Children {
			ss.Children = append(ss.Children, toSavedPtr(k))
		}
		for _, c := range st.Changes {
			ss.Changes = append(ss.Changes, index[c])
		}
		s.Steps = append(s.Steps, ss)
	}
	return s
}

func encodeAttrs(in []AttributeChange) []AttributeChange {
	out := make([]AttributeChange, len(in))
	for i, a := range in {
		out[i] = AttributeChange{Path: a.Path, Before: encodeMarkers(a.Before), After: encodeMarkers(a.After), ForcesReplacement: a.ForcesReplacement}
	}
	return out
}

func toSavedPtr(r *Resource) *SavedResource {
	if r == nil {
		return nil
	}
	s := toSaved(r, true)
	return &s
}

func toSaved(r *Resource, withEtag bool) SavedResource {
	s := SavedResource{ID: r.ID.String(), Location: r.Location, SKU: r.SKU, Zones: r.Zones, Tags: r.Tags,
		Services: r.Services, Owned: r.Owned}
	if r.Properties != nil {
		s.Properties = encodeMarkers(r.Properties).(map[string]any)
	}
	if withEtag {
		s.Etag = r.Etag
	}
	return s
}

func encodeMarkers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = encodeMarkers(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = encodeMarkers(x)
		}
		return out
	}
	if IsUnknown(v) {
		src, field, _ := UnknownSource(v)
		return map[string]any{unknownMarkerKey: map[string]any{"source": string(src), "field": field}}
	}
	return v
}

func decodeMarkers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if m, ok := t[unknownMarkerKey].(map[string]any); ok && len(t) == 1 {
			src, _ := m["source"].(string)
			field, _ := m["field"].(string)
			if src == "" {
				return Unknown
			}
			return AfterApply(Key(src), field)
		}
		for k, x := range t {
			t[k] = decodeMarkers(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = decodeMarkers(x)
		}
		return t
	}
	return v
}

// Restore rebuilds the plan a saved plan describes, for apply.
func (s *SavedPlan) Restore() (*Plan, error) {
	if major, _, _ := strings.Cut(s.FormatVersion, "."); major != "1" {
		return nil, fmt.Errorf("saved plan format_version %q is not supported (want 1.x)", s.FormatVersion)
	}
	p := &Plan{Blocked: s.Blocked, Reads: s.Preconditions, NoOp: s.NoOp}
	for i, sc := range s.Changes {
		c := &Change{Actions: sc.Actions, Reason: sc.Reason, Cause: Key(sc.Cause), Disruptive: sc.Disruptive, Services: sc.Services}
		var err error
		if c.Before, err = sc.Before.resource(); err != nil {
			return nil, fmt.Errorf("saved plan change %d (%s): before: %w", i, sc.Address, err)
		}
		if c.After, err = sc.After.resource(); err != nil {
			return nil, fmt.Errorf("saved plan change %d (%s): after: %w", i, sc.Address, err)
		}
		if c.Before == nil && c.After == nil {
			return nil, fmt.Errorf("saved plan change %d (%s): neither before nor after is set", i, sc.Address)
		}
		for _, k := range sc.DependsOn {
			c.DependsOn = append(c.DependsOn, Key(k))
		}
		for _, a := range sc.Attributes {
			c.Attributes = append(c.Attributes, AttributeChange{Path: a.Path, Before: decodeMarkers(a.Before), After: decodeMarkers(a.After), ForcesReplacement: a.ForcesReplacement})
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
	p.Drift = Drift(p.Changes)
	return p, nil
}

func (ss SavedStep) step(changes []*Change) (*Step, error) {
	id, err := ParseID(ss.Target)
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	st := &Step{Op: ss.Op, Target: id, IfMatch: ss.IfMatch}
	if ss.Op != OpPut && ss.Op != OpDelete {
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

func (s *SavedResource) resource() (*Resource, error) {
	if s == nil {
		return nil, nil
	}
	id, err := ParseID(s.ID)
	if err != nil {
		return nil, err
	}
	r := &Resource{ID: id, Location: s.Location, SKU: s.SKU, Zones: s.Zones, Tags: s.Tags, Etag: s.Etag,
		Services: s.Services, Owned: s.Owned}
	if s.Properties != nil {
		r.Properties = decodeMarkers(s.Properties).(map[string]any)
	}
	return r, nil
}
