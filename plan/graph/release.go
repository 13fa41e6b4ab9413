package graph

import (
	"github.com/azsvc/azsvc/plan"
)

// An address is held by one IP configuration at a time: ARM refuses a
// frontend that references a public IP another frontend holds
// (PublicIPAddressInUse) or takes a static private IP another holds
// (PrivateIPAddressInUse), arm-rules §2. When a Service moves between load
// balancers, the write that releases its address on the old one must run
// before the write that takes it on the new one. Inside one load balancer's
// write the order does not matter: ARM checks the body it ends with.

// held is an address a frontend holds: a public IP's key, or a subnet's
// key and a private address.
type held struct {
	pip          plan.Key
	subnet, addr string
}

// heldBy are the addresses frontend r holds; static says whether its
// private address counts as taken (a dynamic one is ARM's choice).
func heldBy(r *plan.Resource, static bool) []held {
	if r == nil || r.Kind() != plan.KindFrontend {
		return nil
	}
	f := plan.AsFrontend(r)
	var out []held
	if id := f.PublicIPID(); id != "" {
		out = append(out, held{pip: plan.KeyOf(id)})
	}
	if ip, sub := f.PrivateIP(), f.SubnetID(); ip != "" && sub != "" && (!static || f.Static()) {
		out = append(out, held{subnet: string(plan.KeyOf(sub)), addr: plan.CanonicalIP(ip)})
	}
	return out
}

func holds(list []held, h held) bool {
	for _, x := range list {
		if x == h {
			return true
		}
	}
	return false
}

// addReleaseEdges runs every operation that releases an address before the
// operations that take it on another frontend: a frontend deleted (alone or
// with its load balancer) or updated to another address releases it; a
// frontend created, replaced or updated to it takes it.
func (b *builder) addReleaseEdges() {
	released := map[held][]int{}
	release := func(i int, r *plan.Resource, keep []held) {
		for _, h := range heldBy(r, false) {
			if !holds(keep, h) {
				released[h] = append(released[h], i)
			}
		}
	}
	for i, o := range b.ops {
		c := o.change
		switch {
		case o.delete && c.Before.Kind() == plan.KindLoadBalancer:
			for _, kid := range b.world.Children(o.key) {
				if _, own := b.dels[kid.Key()]; !own {
					release(i, kid, nil)
				}
			}
		case o.delete:
			release(i, c.Before, nil)
		case c.Before != nil && !c.IsReplace():
			release(i, c.Before, heldBy(c.After, false))
		}
	}
	if len(released) == 0 {
		return
	}
	for i, o := range b.ops {
		c := o.change
		if o.delete {
			continue
		}
		var had []held
		if !c.IsReplace() {
			had = heldBy(c.Before, false)
		}
		for _, h := range heldBy(c.After, true) {
			if holds(had, h) {
				continue
			}
			for _, j := range released[h] {
				// One write of a load balancer carries both: ARM checks
				// the body it ends with.
				if r := b.ops[j]; r.key != o.key && (r.group == "" || r.group != o.group) {
					b.g.Connect(j, i, false)
				}
			}
		}
	}
}
