package apply

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// written holds what ARM returned for the resources this run has written, so
// later steps can use the values Azure assigned (DESIGN.md "Diff, ownership,
// order": NSG destinations need the frontend IP, DNS A records the PE IP).
type written struct {
	resources map[plan.Key]*plan.Resource
	// children[parent] are the keys of the inline children last returned
	// with parent: a later write of the parent replaces exactly them.
	children map[plan.Key][]plan.Key
	// moved are resources an earlier step changed as a side effect
	// (touched): their plan-time etag is stale.
	moved map[plan.Key]bool
	// renewed maps a plan-time etag of a family to the etag its latest
	// write returned (sharedEtag).
	renewed map[sharedEtag]string
}

// sharedEtag is an etag read at plan time and the family it was read in:
// a resource with the children written on their own endpoint. ARM gives
// such children their parent's etag (a VNet's subnets, a PLS's
// connections: arm-rules §2.3), so a write of one renews the others' and
// their plan-time If-Match would fail with 412. Equal plan-time etags in
// one family show the sharing; the write's new etag is then theirs too.
type sharedEtag struct {
	family  plan.Key
	planned string
}

// familyOf is the parent of a child written on its own, else the resource.
func familyOf(id plan.ID) plan.Key {
	if id.Kind.Parent() != "" && !id.Kind.Inline() {
		if p, ok := id.ParentID(); ok {
			return p.Key()
		}
	}
	return id.Key()
}

func newWritten() *written {
	return &written{resources: map[plan.Key]*plan.Resource{}, children: map[plan.Key][]plan.Key{}, moved: map[plan.Key]bool{},
		renewed: map[sharedEtag]string{}}
}

// record stores a step's result. The target's earlier result and children
// are forgotten first: a delete leaves nothing, and a put returns the
// complete child set.
func (w *written) record(step *plan.Step, res *plan.Resource, children []*plan.Resource) {
	target := step.Target.Key()
	delete(w.resources, target)
	delete(w.moved, target)
	for _, k := range touched(step) {
		w.moved[k] = true
	}
	for _, k := range w.children[target] {
		delete(w.resources, k)
	}
	delete(w.children, target)
	if res != nil {
		w.resources[res.Key()] = res
		if step.IfMatch != "" && res.Etag != "" {
			w.renewed[sharedEtag{familyOf(step.Target), step.IfMatch}] = res.Etag
		}
	}
	keys := make([]plan.Key, 0, len(children))
	for _, c := range children {
		k := c.Key()
		w.resources[k] = c
		keys = append(keys, k)
	}
	if len(keys) > 0 {
		w.children[target] = keys
	}
}

// prepare returns the step as it is sent: AfterApply markers replaced by the
// values earlier steps returned, plain Unknown values taken from an earlier
// write of the same resource or else dropped (Azure assigns them), and
// If-Match refreshed when this run already wrote the target, since that
// write moved its etag. The plan's own step is not modified.
func (w *written) prepare(step *plan.Step) (*plan.Step, error) {
	s := *step
	if prev, ok := w.resources[step.Target.Key()]; ok && prev.Etag != "" {
		s.IfMatch = prev.Etag
	}
	if etag, ok := w.renewed[sharedEtag{familyOf(step.Target), step.IfMatch}]; ok && step.IfMatch != "" {
		s.IfMatch = etag
	}
	if w.moved[step.Target.Key()] {
		s.IfMatch = ""
	}
	switch {
	case step.Op == plan.OpDelete:
		return &s, nil
	case step.Op != plan.OpPut:
		return nil, fmt.Errorf("%s: unknown step op %q", step.Target.Address(), step.Op)
	case step.Body == nil:
		return nil, fmt.Errorf("%s: put step has no body", step.Target.Address())
	}
	var err error
	if s.Body, err = w.resolveResource(step.Body); err != nil {
		return nil, err
	}
	s.Children = make([]*plan.Resource, len(step.Children))
	for i, c := range step.Children {
		if s.Children[i], err = w.resolveResource(c); err != nil {
			return nil, err
		}
	}
	return &s, nil
}

func (w *written) resolveResource(r *plan.Resource) (*plan.Resource, error) {
	out := *r
	var mirror map[string]any
	if prev, ok := w.resources[r.Key()]; ok {
		mirror = prev.Properties
	}
	props, _, err := w.resolveValue(r.Properties, mirror, "properties")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.ID.Address(), err)
	}
	out.Properties, _ = props.(map[string]any)
	return &out, nil
}

// resolveValue returns v with its markers resolved and keep=false when v is a
// plain Unknown to leave out of the body. mirror is the same place in an
// earlier result of the same resource, if any.
func (w *written) resolveValue(v, mirror any, path string) (any, bool, error) {
	if plan.IsUnknown(v) {
		if src, field, ok := plan.UnknownSource(v); ok {
			got, err := w.lookup(src, field)
			if err != nil {
				return nil, false, fmt.Errorf("%s: %w", path, err)
			}
			return got, true, nil
		}
		if known(mirror) {
			return mirror, true, nil
		}
		return nil, false, nil
	}
	switch t := v.(type) {
	case map[string]any:
		m, _ := mirror.(map[string]any)
		out := make(map[string]any, len(t))
		for k, x := range t {
			got, keep, err := w.resolveValue(x, m[k], path+"."+k)
			if err != nil {
				return nil, false, err
			}
			if keep {
				out[k] = got
			}
		}
		return out, true, nil
	case []any:
		out := make([]any, 0, len(t))
		for i, x := range t {
			got, keep, err := w.resolveValue(x, nil, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, false, err
			}
			if keep {
				out = append(out, got)
			}
		}
		return out, true, nil
	}
	return v, true, nil
}

// lookup reads field (a property name, or a dotted path such as
// "ipConfigurations.0.privateIPAddress") from what an earlier step returned
// for src.
func (w *written) lookup(src plan.Key, field string) (any, error) {
	r, ok := w.resources[src]
	if !ok {
		return nil, fmt.Errorf("known after apply from %s %s, but no earlier step wrote it", addressOf(src), field)
	}
	var v any = r.Properties
	for _, part := range strings.Split(field, ".") {
		v = index(v, part)
	}
	if !known(v) {
		return nil, fmt.Errorf("known after apply from %s %s, but ARM returned no value for it", addressOf(src), field)
	}
	return v, nil
}

func index(v any, part string) any {
	switch t := v.(type) {
	case map[string]any:
		return t[part]
	case []any:
		if i, err := strconv.Atoi(part); err == nil && i >= 0 && i < len(t) {
			return t[i]
		}
	}
	return nil
}

func known(v any) bool {
	if v == nil || plan.IsUnknown(v) {
		return false
	}
	s, isString := v.(string)
	return !isString || s != ""
}

func addressOf(k plan.Key) string {
	if id, err := plan.ParseID(string(k)); err == nil {
		return id.Address()
	}
	return string(k)
}

// outputs lists the values Azure assigned in this step's write: the
// top-level properties the planned body left to Azure (plain Unknown, or
// one of plan.AssignedFields it does not set, such as a PLS alias) and a
// PLS's dynamic NAT IPs, with the values ARM returned for them.
func outputs(step *plan.Step, res *plan.Resource, children []*plan.Resource) []Output {
	got := map[plan.Key]*plan.Resource{}
	for _, r := range append([]*plan.Resource{res}, children...) {
		if r != nil {
			got[r.Key()] = r
		}
	}
	var out []Output
	for _, planned := range append([]*plan.Resource{step.Body}, step.Children...) {
		if planned == nil || got[planned.Key()] == nil {
			continue
		}
		now := got[planned.Key()]
		for _, field := range leftToAzure(planned) {
			if v := now.Properties[field]; known(v) {
				out = append(out, Output{Address: planned.ID.Address(), Field: field, Value: v})
			}
		}
		if planned.Kind() == plan.KindPrivateLinkService {
			out = append(out, natIPs(planned, now)...)
		}
	}
	return out
}

// leftToAzure are the top-level properties of planned whose value Azure
// assigns: plain Unknown, or an assigned field the body does not set.
// Values copied from another resource (AfterApply) are not Azure's to
// assign here.
func leftToAzure(planned *plan.Resource) []string {
	fields := map[string]bool{}
	for field, v := range planned.Properties {
		if _, _, copied := plan.UnknownSource(v); plan.IsUnknown(v) && !copied {
			fields[field] = true
		}
	}
	for _, field := range plan.AssignedFields(planned.Kind()) {
		if v, set := planned.Properties[field]; !set || v == nil {
			fields[field] = true
		}
	}
	return slices.Sorted(maps.Keys(fields))
}

// natIPs are the addresses Azure gave the PLS NAT IP configurations the
// plan left dynamic.
func natIPs(planned, now *plan.Resource) []Output {
	assigned := map[string]string{}
	for _, c := range plan.AsPrivateLinkService(now).NATIPConfigs() {
		assigned[c.Name] = c.Address
	}
	var out []Output
	for _, c := range plan.AsPrivateLinkService(planned).NATIPConfigs() {
		if ip := assigned[c.Name]; c.Address == "" && ip != "" {
			out = append(out, Output{Address: planned.ID.Address(), Field: "ipConfigurations[" + c.Name + "].privateIPAddress", Value: ip})
		}
	}
	return out
}
