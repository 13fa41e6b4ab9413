package plan

import (
	"fmt"
	"sort"
	"strings"
)

const (
	destPrefix   = "destinationAddressPrefix"
	destPrefixes = "destinationAddressPrefixes"
)

// reconcileNSGs plans the NSG rules of every NSG the desired state writes,
// the way CCM's reconcileSecurityGroup does (ccm-semantics §5.5): a managed
// rule is shared by every Service with the same protocol, sources and ports,
// so its destinations are reconciled one by one. The destinations of
// in-scope Services are replaced by what they want now; those of Services
// outside the scope are kept; a managed rule left without destinations is
// deleted; new rules get priorities as CCM allocates them (§5.4).
func (d *differ) reconcileNSGs() error {
	wanted := map[Key][]*Resource{}
	for _, e := range ofKind(d.desList, KindSecurityRule) {
		r := e.r
		pid, _ := r.ID.ParentID()
		wanted[pid.Key()] = append(wanted[pid.Key()], r)
	}
	released := nsgRelease{ips: d.releasedIPs(), retained: d.retainedPorts()}
	for _, k := range sortedNSGKeys(d.owners.nsgs) {
		if err := d.reconcileNSG(k, wanted[k], released); err != nil {
			return err
		}
	}
	return nil
}

func sortedNSGKeys(m map[Key]bool) []Key {
	out := make([]Key, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}

// releasedIPs are the addresses of in-scope Services' frontends and public
// IPs as observed, mapped to those Services: the destinations this plan
// answers for. Their current use is dropped and re-added from the desired
// rules. A managed public IP tagged for Services outside the scope is left
// out; a user-assigned one has no tags, so the ports other Services still
// serve on an address are kept per rule (retainedPorts, nsg_shared.go).
func (d *differ) releasedIPs() map[string][]string {
	out := map[string][]string{}
	add := func(ip any, services []string) {
		if d.allFailed(services) {
			return // CCM fails these Services before it touches the NSG
		}
		if s, ok := ip.(string); ok && s != "" {
			out[s] = append(out[s][:len(out[s]):len(out[s])], services...)
		}
	}
	for _, e := range ofKind(d.obsList, KindFrontend) {
		fe, own := e.r, d.own[e.key]
		pruned := own.foreign && d.scope.Prune && d.changes[e.key] != nil
		if !own.deletable || len(own.services) == 0 && !pruned {
			continue
		}
		add(fe.Properties["privateIPAddress"], own.services)
		if pip, ok := d.observed.Get(KeyOf(refID(fe.Properties["publicIPAddress"]))); ok {
			if po := d.own[pip.Key()]; len(po.foreignServices) == 0 || d.scope.Prune {
				add(pip.Properties["ipAddress"], own.services)
			}
		}
	}
	for _, e := range ofKind(d.obsList, KindPublicIP) {
		pip, own := e.r, d.own[e.key]
		if own.deletable && len(own.services) > 0 && (len(own.foreignServices) == 0 || d.scope.Prune) {
			add(pip.Properties["ipAddress"], own.services)
		}
	}
	return out
}

func (d *differ) reconcileNSG(nsg Key, wanted []*Resource, released nsgRelease) error {
	byKey := make(map[Key]*Resource, len(wanted))
	creates := map[Key]*Resource{}
	for _, w := range wanted {
		k := w.Key()
		got, ok := d.observed.Get(k)
		if d.allFailed(w.Services) {
			byKey[k] = w // an observed rule stays as it is; diff_pip.go says why
			continue
		}
		var blind []Key
		byKey[k], blind = d.withNodeIPs(d.withoutFailedAddrs(d.resolved(w)))
		d.noteNodeIPs(byKey[k], blind, ok)
		empty := len(destinations(byKey[k])) == 0
		switch {
		case !ok && empty:
			// Nothing to allow yet (nsg_nodes.go); CCM drops such a rule.
		case !ok:
			creates[k] = byKey[k]
		case !d.own[k].managed:
			d.block(Blocked{Address: w.ID.Address(), Code: BlockNSGRuleNotManaged, Why: d.own[k].why, Services: w.Services})
		case empty:
			d.reconcileRule(k, got, nil, released)
		default:
			d.reconcileRule(k, got, byKey[k], released)
		}
	}
	for _, got := range d.obsKids[nsg] {
		k := got.Key()
		if _, ok := byKey[k]; !ok && d.own[k].managed {
			d.reconcileRule(k, got, nil, released)
		}
	}
	return d.allocatePriorities(nsg, creates)
}

// reconcileRule plans one observed managed rule; want is nil when no
// in-scope Service wants the rule any more.
func (d *differ) reconcileRule(key Key, got, want *Resource, released nsgRelease) {
	var kept []any
	var services []string
	for _, dst := range destinations(got) {
		if s, ok := dst.(string); ok {
			if owners, isReleased := released.ips[s]; isReleased && !servesRetained(got, released.retained[canonicalIP(s)]) {
				services = append(services, owners...)
				continue
			}
		}
		kept = append(kept, dst)
	}
	if want == nil {
		switch {
		case len(kept) == 0:
			d.changes[key] = d.deletion(got, services)
		case len(kept) != len(destinations(got)):
			after := cloneResource(got)
			setDestinations(after.Properties, kept)
			d.changes[key] = &Change{Actions: []Action{ActionUpdate}, Before: got, After: after,
				Reason: ReasonServiceRemoved, Services: sortedUnique(services),
				Attributes: destAttr(got, after)}
		}
		return
	}
	body := withoutDestinations(want)
	attrs := diffResource(body, got)
	after := merged(body, got)
	setDestinations(after.Properties, append(kept, destinations(want)...))
	if a := destAttr(got, after); a != nil {
		attrs = append(attrs, a...)
	}
	if len(attrs) == 0 {
		d.noop++
		return
	}
	after.Services = sortedUnique(append(services, want.Services...))
	d.changes[key] = &Change{Actions: []Action{ActionUpdate}, Before: got, After: after,
		Reason: ruleReason(attrs), Services: after.Services, Attributes: attrs}
}

// ruleReason explains an NSG rule update: a destination-only change means
// a Service gained or lost the rule.
func ruleReason(attrs []AttributeChange) Reason {
	if len(attrs) != 1 || attrs[0].Path[len(attrs[0].Path)-1] != destPrefixes {
		return updateReason(attrs)
	}
	before, _ := attrs[0].Before.([]any)
	after, _ := attrs[0].After.([]any)
	switch {
	case len(after) < len(before):
		return ReasonServiceRemoved
	case len(after) > len(before):
		return ReasonServiceAdded
	}
	return updateReason(attrs)
}

// destinations lists a rule's destination prefixes, singular or plural.
func destinations(r *Resource) []any {
	var out []any
	if v, ok := r.Properties[destPrefix]; ok && v != nil && v != "" {
		out = append(out, v)
	}
	switch l := r.Properties[destPrefixes].(type) {
	case []any:
		out = append(out, l...)
	case nil:
	default:
		if IsUnknown(l) {
			out = append(out, l) // a whole list known after apply, e.g. BackendNodeIPs
		}
	}
	return out
}

// setDestinations writes de-duplicated, string-sorted destinations in the
// form CCM uses: one value in destinationAddressPrefix, several in
// destinationAddressPrefixes (ccm-semantics §5.3). Unknown values sort last.
func setDestinations(props map[string]any, dests []any) {
	seen := map[string]bool{}
	var known []string
	var unknown []any
	for _, v := range dests {
		if s, ok := v.(string); ok {
			if !seen[s] {
				seen[s] = true
				known = append(known, s)
			}
			continue
		}
		unknown = append(unknown, v)
	}
	sort.Strings(known)
	all := make([]any, 0, len(known)+len(unknown))
	for _, s := range known {
		all = append(all, s)
	}
	all = append(all, unknown...)
	delete(props, destPrefix)
	delete(props, destPrefixes)
	if len(all) == 1 {
		props[destPrefix] = all[0]
	} else if len(all) > 1 {
		props[destPrefixes] = all
	}
}

func withoutDestinations(r *Resource) *Resource {
	c := cloneResource(r)
	delete(c.Properties, destPrefix)
	delete(c.Properties, destPrefixes)
	delete(c.Properties, "priority")
	return c
}

// destAttr reports a change of the destination set, compared as a set.
func destAttr(before, after *Resource) []AttributeChange {
	b, a := destinations(before), destinations(after)
	if sameStringSet(b, a) {
		return nil
	}
	return []AttributeChange{{Path: []string{"properties", destPrefixes}, Before: b, After: a}}
}

func sameStringSet(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	as, bs := scalarStrings("", a), scalarStrings("", b)
	for i := range as {
		if as[i] != bs[i] || as[i] == "\x00unknown" {
			return false
		}
	}
	return true
}

// allocatePriorities gives each new rule a priority the way CCM does
// (ccm-semantics §5.4): existing rules keep theirs; allow rules take the
// lowest free priority from 500 up, deny rules the highest free from 4095
// down. Priorities are unique per direction (arm-rules §1.4).
func (d *differ) allocatePriorities(nsg Key, creates map[Key]*Resource) error {
	used := map[string]map[int]bool{}
	for _, r := range d.obsKids[nsg] {
		if c := d.changes[r.Key()]; c != nil && c.IsDelete() {
			continue
		}
		if p, ok := number(r.Properties["priority"]); ok {
			dir := direction(r)
			if used[dir] == nil {
				used[dir] = map[int]bool{}
			}
			used[dir][int(p)] = true
		}
	}
	for _, w := range sortedResources(creates) {
		dir := direction(w)
		if used[dir] == nil {
			used[dir] = map[int]bool{}
		}
		p, ok := nextPriority(used[dir], strings.EqualFold(fmt.Sprint(w.Properties["access"]), "Deny"))
		if !ok {
			return fmt.Errorf("security rule priority exhausted in %s: no free priority in %d-%d for %s",
				addressOfKey(nsg), managedPriorityMin, managedPriorityMax-1, w.ID.Address())
		}
		used[dir][p] = true
		after := cloneResource(w)
		after.Properties["priority"] = p
		setDestinations(after.Properties, destinations(w))
		d.changes[after.Key()] = &Change{Actions: []Action{ActionCreate}, After: after, Reason: ReasonServiceAdded, Services: w.Services}
	}
	return nil
}

func nextPriority(used map[int]bool, deny bool) (int, bool) {
	if deny {
		for p := managedPriorityMax - 1; p >= managedPriorityMin; p-- {
			if !used[p] {
				return p, true
			}
		}
		return 0, false
	}
	for p := managedPriorityMin; p < managedPriorityMax; p++ {
		if !used[p] {
			return p, true
		}
	}
	return 0, false
}

func direction(r *Resource) string {
	if s, ok := r.Properties["direction"].(string); ok && s != "" {
		return strings.ToLower(s)
	}
	return "inbound"
}
