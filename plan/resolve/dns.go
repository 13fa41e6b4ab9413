package resolve

import "github.com/azsvc/azsvc/plan"

// Private DNS zones and their virtual network links are shared: several
// endpoints write records in one zone, and a zone is linked once to each
// virtual network (ARM refuses a second link, arm-rules §2.4). So:
//   - a desired zone that exists and azsvc does not manage is used as it
//     is: never rewritten, never deleted; records go in it all the same;
//   - a desired link is dropped when the zone already links its virtual
//     network, under any name: the existing link serves;
//   - an owned zone or link nothing desires is deleted only when no
//     endpoint still declares it: declarations are the records in the
//     zone, each carrying its owner in its metadata (zone and link tags
//     could not list a thousand endpoints: a tag value holds 256
//     characters). Records of endpoints outside the input keep the zone
//     and its links, unless --prune; an unmanaged record or link keeps the
//     zone (deleting a zone deletes its records).

// useExistingDNS finds the desired zones and links that existing ones
// serve: placeDesired leaves them out.
func (ep *endpoints) useExistingDNS() {
	linked := map[plan.Key]map[plan.Key]plan.Key{} // zone -> vnet -> observed link
	for _, e := range ep.obs.OfKind(plan.KindVNetLink) {
		zone, _ := e.Key.Parent()
		if linked[zone] == nil {
			linked[zone] = map[plan.Key]plan.Key{}
		}
		linked[zone][plan.AsVNetLink(e.R).VirtualNetwork()] = e.Key
	}
	for _, e := range ep.desList {
		switch e.R.Kind() {
		case plan.KindPrivateDNSZone:
			if _, exists := ep.obs.Get(e.Key); exists && !ep.own[e.Key].Managed {
				ep.used[e.Key] = true
			}
		case plan.KindVNetLink:
			zone, _ := e.Key.Parent()
			got, ok := linked[zone][plan.AsVNetLink(e.R).VirtualNetwork()]
			switch {
			case ok && got != e.Key:
				ep.used[e.Key], ep.usedObserved[got] = true, true
			case ok && !ep.own[got].Managed:
				ep.used[e.Key] = true
			}
		}
	}
}

// planDNSRemovals deletes the owned links and zones no endpoint declares
// any more (see above). It runs after planRemovals decided the records.
func (ep *endpoints) planDNSRemovals() {
	for _, z := range ep.obs.OfKind(plan.KindPrivateDNSZone) {
		kids := ep.obs.Children(z.Key)
		keep, owners := ep.zoneKept(kids)
		links := 0
		for _, l := range kids {
			if l.Kind() != plan.KindVNetLink {
				continue
			}
			if ep.linkRemovable(l.Key(), keep) {
				ep.out.remove(l.Key(), owners)
				continue
			}
			links++
		}
		_, wanted := ep.wanted.Get(z.Key)
		if !wanted && links == 0 && !keep && ep.own[z.Key].Managed {
			ep.out.remove(z.Key, owners)
		}
	}
}

// zoneKept reports whether a record that stays in the zone still declares
// it (an endpoint outside the input, without --prune, or a record azsvc
// does not manage), and the owners of the records this plan removes.
func (ep *endpoints) zoneKept(kids []*plan.Resource) (bool, []string) {
	keep := false
	var owners []string
	for _, rec := range kids {
		if rec.Kind() != plan.KindARecord {
			continue
		}
		k := rec.Key()
		if services, gone := ep.out.Remove[k]; gone {
			owners = append(owners, services...)
			continue
		}
		if _, wanted := ep.wanted.Get(k); !wanted {
			keep = true // it stays in Azure: so must its zone
		}
	}
	return keep, plan.SortedUnique(owners)
}

// linkRemovable: an owned link no desired link is or is served by, in a
// zone no record outside the plan's reach keeps.
func (ep *endpoints) linkRemovable(k plan.Key, zoneKept bool) bool {
	if _, wanted := ep.wanted.Get(k); wanted || ep.usedObserved[k] || zoneKept {
		return false
	}
	own := ep.own[k]
	return own.Managed && own.Deletable
}
