package conditions

import (
	"github.com/azsvc/azsvc/plan"
)

// Endpoint is what Azure holds of what one PrivateEndpoint object of the
// input needs: the private endpoint, its connection, and its private DNS.
type Endpoint struct {
	Name string `json:"name"` // namespace/name of the PrivateEndpoint object
	// Endpoint is the Azure private endpoint; its Address "" when the
	// input names none that could be planned.
	Endpoint  Resource `json:"private_endpoint"`
	IPAddress string   `json:"ip_address,omitempty"`
	// Connection is the connection's state: Approved, Pending, Rejected,
	// Disconnected; "" when Azure holds no endpoint or reports none.
	Connection string `json:"connection_state,omitempty"`
	// Manual: a manual connection (manualPrivateLinkServiceConnections),
	// which the PLS owner approves.
	Manual bool `json:"manual"`
	// PrivateLinkService is the service it connects to: an address when
	// azsvc knows it, else the ID or alias the endpoint names.
	PrivateLinkService string      `json:"private_link_service,omitempty"`
	Zones              []Zone      `json:"zones"`
	Conditions         []Condition `json:"conditions"`
}

// Zone is a private DNS zone, with the links and records the endpoint
// needs in it.
type Zone struct {
	Resource
	Name    string   `json:"name"`
	Links   []Link   `json:"links"`
	Records []Record `json:"records"`
}

// Link is a virtual network link of a zone.
type Link struct {
	Resource
	Name           string `json:"name"`
	VirtualNetwork string `json:"virtual_network,omitempty"` // its address, vnet/…
}

// Record is an A record set.
type Record struct {
	Resource
	Name        string   `json:"name"`
	IPAddresses []string `json:"ip_addresses,omitempty"`
	TTL         int      `json:"ttl,omitempty"`
}

// endpoint reports on the PrivateEndpoint object key, owner of its
// resources.
func (b *builder) endpoint(key, owner string) Endpoint {
	e := Endpoint{Name: key, Zones: []Zone{}}
	zones := map[plan.Key]int{} // index in e.Zones
	zoneOf := func(id plan.ID) *Zone {
		if parent, ok := id.ParentID(); ok {
			id = parent
		}
		i, ok := zones[id.Key()]
		if !ok {
			i = len(e.Zones)
			zones[id.Key()] = i
			ref, _ := b.resource(id)
			e.Zones = append(e.Zones, Zone{Resource: ref, Name: id.Name(), Links: []Link{}, Records: []Record{}})
		}
		return &e.Zones[i]
	}
	for _, r := range b.owned[owner] {
		switch r.Kind() {
		case plan.KindPrivateEndpoint:
			b.privateEndpoint(&e, r)
		case plan.KindPrivateDNSZone:
			zoneOf(r.ID)
		case plan.KindVNetLink:
			z := zoneOf(r.ID)
			z.Links = append(z.Links, b.link(r.ID))
		case plan.KindARecord:
			z := zoneOf(r.ID)
			z.Records = append(z.Records, b.record(r.ID))
		}
	}
	e.Conditions = b.endpointConditions(owner, &e)
	return e
}

// privateEndpoint fills in what Azure holds of the endpoint want.
func (b *builder) privateEndpoint(e *Endpoint, want *plan.Resource) {
	ref, got := b.resource(want.ID)
	e.Endpoint = ref
	src := want
	if got != nil {
		src = got
		v := plan.AsPrivateEndpoint(got)
		e.IPAddress, e.Connection = v.PrivateIP(), v.Status()
	}
	v := plan.AsPrivateEndpoint(src)
	e.Manual = v.ConnectionList() == plan.ManualConnections
	e.PrivateLinkService = targetOf(v.Target())
}

// targetOf names the private link service a connection targets: its
// address for an ID, or for an alias copied from a PLS of the input; the
// alias as written otherwise.
func targetOf(v any) string {
	if src, _, ok := plan.UnknownSource(v); ok {
		return src.Address()
	}
	s, _ := v.(string)
	if id, err := plan.ParseID(s); err == nil {
		return id.Address()
	}
	return s
}

func (b *builder) link(id plan.ID) Link {
	ref, got := b.resource(id)
	l := Link{Resource: ref, Name: id.Name()}
	if got != nil {
		if vnet, err := plan.ParseID(plan.AsVNetLink(got).VirtualNetworkID()); err == nil {
			l.VirtualNetwork = vnet.Address()
		}
	}
	return l
}

func (b *builder) record(id plan.ID) Record {
	ref, got := b.resource(id)
	r := Record{Resource: ref, Name: id.Name()}
	if got != nil {
		v := plan.AsARecord(got)
		r.TTL = v.TTL()
		for _, a := range v.Addresses() {
			if s, ok := a.(string); ok {
				r.IPAddresses = append(r.IPAddresses, s)
			}
		}
	}
	return r
}
