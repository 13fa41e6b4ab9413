package plan

import (
	"fmt"
	"sort"
	"strings"
)

// Diff compares the desired state with the observed one and returns the
// ordered plan. It is pure: neither state is modified, and the same inputs
// give the same plan.
//
// A desired frontend whose public or private IP another frontend already
// carries joins that one (share.go). Desired values that only the observed
// state can supply are resolved first: a public IP pinned by address
// (PublicIPByAddress, diff_pip.go) and the node IPs of a backend pool
// (BackendNodeIPs, nsg_nodes.go). A Service whose pinned address is not
// found is left out, as CCM fails it.
//
// Ownership follows ccm-semantics §2.4 (owner.go); the diff is at child
// granularity and compares only the fields the desired resource sets
// (compareValue); NSG rules are reconciled per destination (nsg.go); the
// changes are ordered into ARM writes (order.go) and checked against ARM's
// limits (limits.go).
//
// Drift: azsvc keeps no prior-state file, so it cannot tell "the Service
// changed" from "someone edited Azure". Every in-place update of an
// existing owned resource that is not explained by a Service entering or
// leaving the plan (reason service_added or service_removed) is therefore
// also listed in Plan.Drift: the owned resource differs from what its
// Services want, and applying the plan puts it back.
func Diff(desired, observed *State, scope Scope) (*Plan, error) {
	if desired == nil || observed == nil {
		return nil, fmt.Errorf("diff: desired and observed states are required")
	}
	shared := shareFrontends(desired, observed, scope)
	d := newDiffer(shared.desired, observed, scope)
	d.failShared(shared.failures)
	d.findMissingPIPs()
	if err := d.diffDesired(); err != nil {
		return nil, err
	}
	d.withdrawFailed()
	d.planDeletes()
	d.blockDependents()
	d.settle()
	if err := d.reconcileNSGs(); err != nil {
		return nil, err
	}
	d.blockDependents()
	d.describe()
	p := &Plan{NoOp: d.noop, Blocked: d.blocked.List()}
	if err := order(p, d); err != nil {
		return nil, err
	}
	p.Drift = Drift(p.Changes)
	limits, err := checkLimits(p, d)
	if err != nil {
		return nil, err
	}
	p.Limits = limits
	p.Reads = d.reads(p)
	return p, nil
}

// differ holds the working state of one Diff call.
type differ struct {
	desired, observed *State
	scope             Scope
	owners            *owners
	own               map[Key]ownership // observed resources
	changes           map[Key]*Change
	blocked           Blocks
	noop              int
	obsKids           map[Key][]*Resource          // observed children by parent
	referrers         map[Key][]Key                // observed: who references a key; see referrersOf
	obsList, desList  []entry                      // both states, sorted once
	conflicts         map[Key]bool                 // desired resources ownership blocks
	pipIndex          map[Key]map[string]*Resource // observed PIPs by collection and address
	// failed maps the Services CCM would fail (a pinned public IP address
	// not found) to their blocked frontend; failedAddrs are those addresses.
	failed      map[string]string
	failedAddrs map[string]bool
}

func newDiffer(desired, observed *State, scope Scope) *differ {
	d := &differ{
		desired: desired, observed: observed, scope: scope,
		owners:  newOwners(scope, desired, observed),
		own:     make(map[Key]ownership, len(observed.resources)),
		changes: map[Key]*Change{}, conflicts: map[Key]bool{},
		obsKids: map[Key][]*Resource{}, failed: map[string]string{}, failedAddrs: map[string]bool{},
	}
	d.obsList, d.desList = entries(observed), entries(desired)
	for _, e := range d.obsList {
		d.own[e.key] = d.owners.of(e.r)
		if e.r.Kind().Parent() != "" {
			pk, _ := parentKey(e.key)
			d.obsKids[pk] = append(d.obsKids[pk], e.r)
		}
	}
	return d
}

// referrersOf returns the observed resources that reference k. The index
// is built on first use: a plan without deletes never needs it.
func (d *differ) referrersOf(k Key) []Key {
	if d.referrers == nil {
		d.referrers = map[Key][]Key{}
		for _, e := range d.obsList {
			for _, ref := range refsOf(e.r) {
				d.referrers[ref] = append(d.referrers[ref], e.key)
			}
		}
	}
	return d.referrers[k]
}

// block records a change azsvc will not make.
func (d *differ) block(b Blocked) { d.blocked.Add(b) }

// diffDesired plans every desired resource except NSG rules, which
// reconcileNSGs handles. Resources come in kind-rank order, so a public IP
// is decided before the frontend that copies its address.
func (d *differ) diffDesired() error {
	for _, e := range d.desList {
		if e.r.Kind() == KindSecurityRule {
			continue
		}
		if err := d.diffOne(e.key, e.r); err != nil {
			return err
		}
	}
	return nil
}

func (d *differ) diffOne(key Key, want *Resource) error {
	if !want.Kind().Valid() {
		return fmt.Errorf("desired resource %s: unknown kind %q", want.ID.String(), want.Kind())
	}
	want = d.resolved(want)
	got, exists := d.observed.Get(key)
	if !exists && want.Kind() == KindSubnet {
		d.blockMissingSubnet(want)
		return nil
	}
	if !exists && isUserPIPField(want) {
		d.blockMissingUserPIP(want)
		return nil
	}
	if !exists {
		d.changes[key] = &Change{Actions: []Action{ActionCreate}, After: withoutAbsent(want), Reason: ReasonServiceAdded, Services: want.Services}
		return nil
	}
	own := d.own[key]
	if b, ok := d.conflict(want, got, own); ok {
		d.block(b)
		d.conflicts[key] = true
		return nil
	}
	if want.Kind() == KindPublicIP {
		want = d.withPIPServiceTag(want, own)
	}
	attrs := diffResource(want, got)
	if len(attrs) == 0 {
		d.noop++
		return nil
	}
	c := &Change{Before: got, Services: want.Services, Attributes: attrs}
	replace := markReplacement(want.Kind(), attrs)
	if replace && want.Kind() == KindSecurityGroup {
		// The NSG is shared with everything in the cluster's subnets; azsvc
		// never deletes it (ccm-semantics §5.1: CCM requires it to exist).
		d.block(Blocked{Address: want.ID.Address(), Code: BlockNSGReplace, Services: want.Services})
		return nil
	}
	switch {
	case want.Kind() == KindSubnet:
		// CCM disables the policy as part of placing a Service's PLS
		// (ccm-semantics §8 "Subnet policy"): not drift, and never a
		// replace, whatever else the subnet holds.
		c.Actions, c.After, c.Reason = []Action{ActionUpdate}, merged(want, got), ReasonServiceAdded
	case replace:
		c.Actions, c.After, c.Reason = []Action{ActionDelete, ActionCreate}, withoutAbsent(want), ReasonRequiresReplacement
	case onlyAddsTags(attrs):
		c.Actions, c.After, c.Reason = []Action{ActionAdopt}, merged(want, got), ReasonServiceAdded
	default:
		c.Actions, c.After, c.Reason = []Action{ActionUpdate}, merged(want, got), updateReason(attrs)
	}
	d.changes[key] = c
	return nil
}

// blockMissingSubnet reports a PLS NAT subnet that does not exist: azsvc,
// like CCM, never creates subnets, and CCM fails the Service ("failed to get
// private link service subnet", ccm-semantics §1.3 #31). The PLS that
// references it is withdrawn by blockDependents.
func (d *differ) blockMissingSubnet(want *Resource) {
	d.block(Blocked{Address: want.ID.Address(), Code: BlockSubnetMissing, Services: want.Services,
		Value: want.Name(), Other: want.ID.Names[0], Group: want.ID.ResourceGroup})
	d.conflicts[want.Key()] = true
}

// isUserPIPField reports a desired public IP azsvc owns only some fields
// of (the DNS label of a user-assigned one, ccm-semantics §6): azsvc
// creates only public IPs it tags with k8s-azure-service (§2.3).
func isUserPIPField(want *Resource) bool {
	_, tagged := want.Tags[TagService]
	return want.Kind() == KindPublicIP && !tagged
}

// blockMissingUserPIP reports a user-assigned public IP that does not
// exist: CCM fails the Service ("PublicIP from annotation azure-pip-name
// ... doesn't exist"), and azsvc never creates it.
func (d *differ) blockMissingUserPIP(want *Resource) {
	d.block(Blocked{Address: want.ID.Address(), Code: BlockUserPIPMissing, Services: want.Services,
		Value: want.Name(), Group: want.ID.ResourceGroup})
	d.conflicts[want.Key()] = true
}

// conflict explains why an existing resource may not take the desired
// body; ok is false when it may.
func (d *differ) conflict(want, got *Resource, own ownership) (Blocked, bool) {
	b := Blocked{Address: want.ID.Address(), Services: want.Services}
	if !own.managed {
		b.Code, b.Why = BlockNotManaged, own.why
		return b, true
	}
	if len(own.services) == 0 && len(own.foreignServices) == 0 {
		return b, false
	}
	all := append(append([]string(nil), own.services...), own.foreignServices...)
	users := append(append([]string(nil), all...), own.secondary...) // §6 Sharing: pinning binds
	for _, s := range want.Services {
		for _, o := range users {
			if s == o {
				return b, false
			}
		}
	}
	if want.Kind() == KindPublicIP || want.Kind() == KindPrivateLinkService {
		b.Code, b.Owners = BlockBelongsToOthers, all
		return b, true
	}
	return b, false
}

// withPIPServiceTag keeps out-of-scope Services in a shared public IP's
// k8s-azure-service tag (ccm-semantics §6 "Sharing"): the desired body only
// knows the Services in scope.
func (d *differ) withPIPServiceTag(want *Resource, own ownership) *Resource {
	if _, ok := want.Tags[TagService]; !ok || len(own.foreignServices) == 0 || d.scope.Prune {
		return want
	}
	w := cloneResource(want)
	w.Tags[TagService] = strings.Join(sortedUnique(append(splitServices(w.Tags[TagService]), own.foreignServices...)), ",")
	return w
}

// diffResource compares the fields want sets.
func diffResource(want, got *Resource) []AttributeChange {
	var out []AttributeChange
	if want.Location != "" && !strings.EqualFold(strings.ReplaceAll(want.Location, " ", ""), strings.ReplaceAll(got.Location, " ", "")) {
		out = append(out, AttributeChange{Path: []string{"location"}, Before: got.Location, After: want.Location})
	}
	if want.SKU != nil {
		compareValue([]string{"sku"}, "sku", want.SKU, anyMap(got.SKU), &out)
	}
	if want.Zones != nil && !equalList("zones", stringsToAny(want.Zones), stringsToAny(got.Zones)) {
		out = append(out, AttributeChange{Path: []string{"zones"}, Before: stringsToAny(got.Zones), After: stringsToAny(want.Zones)})
	}
	for _, k := range sortedKeys(want.Tags) {
		if v, ok := got.Tags[k]; !ok || v != want.Tags[k] {
			var before any
			if ok {
				before = v
			}
			out = append(out, AttributeChange{Path: []string{"tags", k}, Before: before, After: want.Tags[k]})
		}
	}
	path := make([]string, 1, 8) // room for nested keys: compareValue appends to it
	path[0] = "properties"
	compareValue(path, "properties", anyMapOrEmpty(want.Properties), anyMapOrEmpty(got.Properties), &out)
	return out
}

func anyMap(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

func anyMapOrEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func stringsToAny(ss []string) []any {
	if ss == nil {
		return nil
	}
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func onlyAddsTags(attrs []AttributeChange) bool {
	for _, a := range attrs {
		if a.Path[0] != "tags" || a.Before != nil {
			return false
		}
	}
	return true
}

// merged is the body an update sends: the observed resource with the
// desired fields laid over it.
func merged(want, got *Resource) *Resource {
	m := cloneResource(got)
	m.Properties = overlay(anyMapOrEmpty(got.Properties), anyMapOrEmpty(want.Properties)).(map[string]any)
	if want.SKU != nil {
		m.SKU = overlay(anyMapOrEmpty(got.SKU), want.SKU).(map[string]any)
	}
	if want.Location != "" {
		m.Location = want.Location
	}
	if want.Zones != nil {
		m.Zones = append([]string(nil), want.Zones...)
	}
	if len(want.Tags) > 0 && m.Tags == nil {
		m.Tags = map[string]string{}
	}
	for k, v := range want.Tags {
		m.Tags[k] = v
	}
	m.Services, m.Owned = append([]string(nil), want.Services...), true
	dropExcluded(m.Kind(), want.Properties, m.Properties)
	return m
}

// exclusive lists, per kind, observed fields that must go when the desired
// body sets another: ARM rejects a frontend with both a subnet and a public
// IP (arm-rules §2.2) and a Tcp probe with a request path (arm-rules §1.4).
var exclusive = map[Kind]map[string][]string{
	KindFrontend: {
		"subnet":          {"publicIPAddress", "publicIPPrefix"},
		"publicIPAddress": {"subnet", "privateIPAddress", "privateIPAllocationMethod"},
	},
}

func dropExcluded(k Kind, want, body map[string]any) {
	for field, drop := range exclusive[k] {
		if _, ok := want[field]; ok {
			for _, f := range drop {
				if _, set := want[f]; !set {
					delete(body, f)
				}
			}
		}
	}
	if p, _ := want["protocol"].(string); k == KindProbe && strings.EqualFold(p, "Tcp") {
		if _, set := want["requestPath"]; !set {
			delete(body, "requestPath")
		}
	}
}

// resolved returns want with AfterApply markers replaced by values already
// known: the desired source's value, else the observed source's value when
// the source is neither created nor replaced by this plan.
func (d *differ) resolved(want *Resource) *Resource {
	if !hasMarker(want.Properties) {
		return want
	}
	w := cloneResource(want)
	w.Properties = d.resolveValue(w.Properties).(map[string]any)
	return w
}

func (d *differ) resolveValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = d.resolveValue(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = d.resolveValue(x)
		}
		return t
	}
	if coll, addr, ok := ParsePublicIPByAddress(v); ok {
		if pip, found := d.pipByAddress(coll, addr); found {
			return pip.ID.String()
		}
		return v
	}
	if src, field, ok := UnknownSource(v); ok {
		if val, ok := d.knownValue(src, field); ok {
			return val
		}
	}
	return v
}

func (d *differ) knownValue(src Key, field string) (any, bool) {
	if c := d.changes[src]; c != nil && c.Has(ActionCreate) {
		return nil, false
	}
	if w, ok := d.desired.Get(src); ok {
		if v, ok := w.Properties[field]; ok && v != nil && !IsUnknown(v) {
			return v, true
		}
	}
	if o, ok := d.observed.Get(src); ok {
		if v, ok := o.Properties[field].(string); ok && v != "" {
			return v, true
		}
	}
	return nil, false
}

func hasMarker(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if hasMarker(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasMarker(x) {
				return true
			}
		}
	default:
		_, _, ok := UnknownSource(v)
		return ok
	}
	return false
}

// updateReason picks the reason code of an in-place update from the fields
// it changes (ux-anchors §8.1).
func updateReason(attrs []AttributeChange) Reason {
	if r := serviceTagReason(attrs); r != ReasonNone {
		return r
	}
	for _, a := range attrs {
		last := a.Path[len(a.Path)-1]
		switch {
		case strings.HasPrefix(last, "sourceAddressPrefix"):
			return ReasonSourceRangesChanged
		case strings.Contains(strings.ToLower(last), "port"):
			return ReasonPortChanged
		}
	}
	return ReasonAnnotationChanged
}

func sortKeys(ks []Key) { sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] }) }

// serviceTagReason is service_added or service_removed when a change only
// binds Services to or unbinds them from a public IP's k8s-azure-service tag
// (ccm-semantics §6 "Sharing"): a Service joining a shared IP is not drift.
func serviceTagReason(attrs []AttributeChange) Reason {
	if len(attrs) != 1 || len(attrs[0].Path) != 2 || attrs[0].Path[0] != "tags" || attrs[0].Path[1] != TagService {
		return ReasonNone
	}
	before, _ := attrs[0].Before.(string)
	after, _ := attrs[0].After.(string)
	switch b, a := len(splitServices(before)), len(splitServices(after)); {
	case a > b:
		return ReasonServiceAdded
	case a < b:
		return ReasonServiceRemoved
	}
	return ReasonNone
}
