package azure

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// This file is the one place where ARM JSON becomes plan.Resources and back.
// Both directions work on ARM's wire shape (arm-rules §1.4): the SDK structs
// are only marshalled to and from it at the edges (read.go, write.go).

// inlineChildren are the child collections a parent body carries inline and
// azsvc models as resources of their own (arm-rules §1.3), in body order.
var inlineChildren = map[plan.Kind][]plan.Kind{
	plan.KindLoadBalancer:  {plan.KindFrontend, plan.KindBackendPool, plan.KindProbe, plan.KindRule},
	plan.KindSecurityGroup: {plan.KindSecurityRule},
}

// readOnly lists, per kind, the properties ARM fills in that azsvc never
// writes nor compares, and why (arm-rules §1.4 [RO] fields). Besides these,
// every properties object loses provisioningState and resourceGuid, and every
// sub-resource object (one with a "properties" key) loses its id, etag and
// type: ARM identifies inline children by name.
var readOnly = map[plan.Kind]map[string]string{
	plan.KindFrontend: {
		"loadBalancingRules": "back-reference from the rules using the frontend",
		"inboundNatRules":    "back-reference",
		"inboundNatPools":    "back-reference",
		"outboundRules":      "back-reference",
	},
	plan.KindBackendPool: {
		"loadBalancingRules":      "back-reference from the rules using the pool",
		"outboundRules":           "back-reference",
		"outboundRule":            "back-reference",
		"inboundNatRules":         "back-reference",
		"backendIPConfigurations": "back-reference from NIC ipconfigs in the pool",
	},
	plan.KindProbe:          {"loadBalancingRules": "back-reference from the rules using the probe"},
	plan.KindPublicIP:       {"ipConfiguration": "back-reference to the frontend or NIC using the address"},
	plan.KindPublicIPPrefix: {"publicIPAddresses": "back-reference from the public IPs carved from the prefix"},
	plan.KindSecurityGroup: {
		"defaultSecurityRules": "the six fixed rules every NSG has",
		"subnets":              "back-reference from associated subnets",
		"networkInterfaces":    "back-reference from associated NICs",
		"flowLogs":             "back-reference",
	},
	// A subnet write carries every other field as read (azsvc owns only
	// privateLinkServiceNetworkPolicies), so only server-filled ones go.
	plan.KindSubnet: {
		"ipConfigurations":        "back-reference from NIC and frontend ipconfigs in the subnet",
		"ipConfigurationProfiles": "back-reference",
		"privateEndpoints":        "back-reference from private endpoints in the subnet",
		"purpose":                 "derived from delegations",
		"resourceNavigationLinks": "back-reference from services using the subnet",
		"serviceAssociationLinks": "back-reference from services injected into the subnet",
	},
	plan.KindPrivateLinkService: {
		"networkInterfaces": "NICs the PLS creates for its NAT IPs",
		// privateEndpointConnections is summarised, see summarizeConnections.
	},
	plan.KindPrivateEndpoint: {
		"networkInterfaces": "the NIC ARM creates; its IP becomes privateIPAddress",
		"customDnsConfigs":  "server-filled; its first IP becomes privateIPAddress",
	},
	plan.KindPrivateDNSZone: {
		"maxNumberOfRecordSets":                          "limit reported by ARM",
		"maxNumberOfVirtualNetworkLinks":                 "limit reported by ARM",
		"maxNumberOfVirtualNetworkLinksWithRegistration": "limit reported by ARM",
		"numberOfRecordSets":                             "counter",
		"numberOfVirtualNetworkLinks":                    "counter",
		"numberOfVirtualNetworkLinksWithRegistration":    "counter",
		"internalId": "server identifier",
	},
	plan.KindVNetLink: {"virtualNetworkLinkState": "InProgress|Completed, server-filled"},
	plan.KindARecord: {
		"fqdn":             "derived from name and zone",
		"isAutoRegistered": "server-filled",
	},
}

// Computed properties are kept on read because plans show them and apply
// resolves "known after apply" values from them (DESIGN.md "Values only
// Azure can assign"), but they are never sent back to ARM.
//
//   - PLS "alias": ARM's own field.
//   - PLS "privateEndpointConnections": ARM's field, summarised to
//     [{"name", "privateEndpoint": "<PE ID as a plain string>", "status"}] so
//     the plan can say which connections a PLS delete drops. The ID is a plain
//     string, not an {"id"} reference: a PLS must not be ordered after its
//     PEs (Resource.References).
//   - PE "privateIPAddress": not an ARM field; the PE's IP taken from
//     customDnsConfigs, else the expanded NIC, else a static ipConfiguration
//     (arm-rules §1.4 "How to find the PE's private IP"). DNS A records copy it.
var computed = map[plan.Kind][]string{
	plan.KindPrivateLinkService: {"alias", "privateEndpointConnections"},
	plan.KindPrivateEndpoint:    {"privateIPAddress"},
}

// assignable are the properties a body may leave as plan.Unknown: ARM assigns
// them when they are absent, so the write simply omits them.
var assignable = map[string]bool{
	"privateIPAddress": true, // dynamic frontend / NAT ipconfig IP
	"ipAddress":        true, // a new public IP's address
	"alias":            true, // a PLS alias
}

// FromARM converts one ARM resource body, as GET returns it, into its
// resource and, for a load balancer or NSG, its inline children.
func FromARM(body []byte) (*plan.Resource, []*plan.Resource, error) {
	m, err := decodeObject(body)
	if err != nil {
		return nil, nil, err
	}
	return fromMap(m)
}

func fromMap(m map[string]any) (*plan.Resource, []*plan.Resource, error) {
	rawID, _ := m["id"].(string)
	id, err := plan.ParseID(rawID)
	if err != nil {
		return nil, nil, fmt.Errorf("ARM body: %w", err)
	}
	r := &plan.Resource{ID: id, Etag: str(m["etag"])}
	if err := setEnvelope(r, m); err != nil {
		return nil, nil, err
	}
	props, _ := m["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	var children []*plan.Resource
	for _, kind := range inlineChildren[id.Kind] {
		items, _ := props[kind.Segment()].([]any)
		delete(props, kind.Segment())
		for i, item := range items {
			c, err := childFromMap(r, kind, item)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: properties.%s[%d]: %w", id.Address(), kind.Segment(), i, err)
			}
			children = append(children, c)
		}
	}
	if id.Kind == plan.KindPrivateLinkService {
		summarizeConnections(props)
	}
	if id.Kind == plan.KindPrivateEndpoint {
		if ip := privateEndpointIP(props); ip != "" {
			props["privateIPAddress"] = ip
		}
	}
	r.Properties = cleanProps(id.Kind, props)
	plan.SortResources(children)
	return r, children, nil
}

// childFromMap converts one inline child. Children carry their parent's etag:
// apply sends If-Match for the parent, whose etag changes on every child write.
func childFromMap(parent *plan.Resource, kind plan.Kind, item any) (*plan.Resource, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object, got %T", item)
	}
	name := str(m["name"])
	if name == "" {
		if rawID := str(m["id"]); rawID != "" {
			name = rawID[strings.LastIndex(rawID, "/")+1:]
		}
	}
	if name == "" {
		return nil, fmt.Errorf("child has neither name nor id")
	}
	c := &plan.Resource{ID: plan.ChildID(parent.ID, kind, name), Etag: parent.Etag}
	zones, err := stringList(m["zones"])
	if err != nil {
		return nil, fmt.Errorf("zones: %w", err)
	}
	c.Zones = zones
	props, _ := m["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	c.Properties = cleanProps(kind, props)
	return c, nil
}

func setEnvelope(r *plan.Resource, m map[string]any) error {
	r.Location = str(m["location"])
	if sku, ok := m["sku"].(map[string]any); ok {
		r.SKU = sku
	}
	zones, err := stringList(m["zones"])
	if err != nil {
		return fmt.Errorf("%s: zones: %w", r.ID.Address(), err)
	}
	r.Zones = zones
	if tags, ok := m["tags"].(map[string]any); ok {
		r.Tags = make(map[string]string, len(tags))
		for k, v := range tags {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("%s: tags.%s: want a string, got %T", r.ID.Address(), k, v)
			}
			r.Tags[k] = s
		}
	}
	return nil
}

// cleanProps drops the read-only fields of kind from props (see readOnly).
func cleanProps(kind plan.Kind, props map[string]any) map[string]any {
	for k := range readOnly[kind] {
		delete(props, k)
	}
	return stripServerFields(props).(map[string]any)
}

func stripServerFields(v any) any {
	switch t := v.(type) {
	case map[string]any:
		delete(t, "provisioningState")
		delete(t, "resourceGuid")
		if _, sub := t["properties"]; sub {
			delete(t, "id")
			delete(t, "etag")
			delete(t, "type")
		}
		for k, x := range t {
			t[k] = stripServerFields(x)
		}
	case []any:
		for i, x := range t {
			t[i] = stripServerFields(x)
		}
	}
	return v
}

// summarizeConnections replaces a PLS's privateEndpointConnections with the
// summary described at computed.
func summarizeConnections(props map[string]any) {
	items, _ := props["privateEndpointConnections"].([]any)
	delete(props, "privateEndpointConnections")
	if len(items) == 0 {
		return
	}
	out := make([]any, 0, len(items))
	for _, item := range items {
		m, _ := item.(map[string]any)
		p, _ := m["properties"].(map[string]any)
		pe, _ := p["privateEndpoint"].(map[string]any)
		state, _ := p["privateLinkServiceConnectionState"].(map[string]any)
		out = append(out, map[string]any{
			"name":            str(m["name"]),
			"privateEndpoint": str(pe["id"]),
			"status":          str(state["status"]),
		})
	}
	props["privateEndpointConnections"] = out
}

// privateEndpointIP finds a PE's private IP in the order arm-rules §1.4 gives.
func privateEndpointIP(props map[string]any) string {
	for _, c := range list(props["customDnsConfigs"]) {
		if ips := list(obj(c)["ipAddresses"]); len(ips) > 0 {
			return str(ips[0])
		}
	}
	for _, nic := range list(props["networkInterfaces"]) {
		for _, ipc := range list(obj(obj(nic)["properties"])["ipConfigurations"]) {
			if ip := str(obj(obj(ipc)["properties"])["privateIPAddress"]); ip != "" {
				return ip
			}
		}
	}
	for _, ipc := range list(props["ipConfigurations"]) {
		if ip := str(obj(obj(ipc)["properties"])["privateIPAddress"]); ip != "" {
			return ip
		}
	}
	return ""
}

// ToARM joins body and its inline children into the ARM body of one PUT: a
// load balancer with every frontend, pool, probe and rule; an NSG with every
// security rule. Computed properties are dropped; an Unknown value is omitted
// where ARM assigns it (assignable) and is an error anywhere else, since apply
// must resolve it first.
func ToARM(body *plan.Resource, children []*plan.Resource) ([]byte, error) {
	return toARM(body, children, false)
}

// toARM is ToARM; with placeholders, a value the API server assigns is
// written as its placeholder (plan.Placeholder), which only a base→head
// plan's throwaway emulator is given. Otherwise it is an error: apply
// refuses such a plan before any write (plan.Unresolved).
func toARM(body *plan.Resource, children []*plan.Resource, placeholders bool) ([]byte, error) {
	m := map[string]any{}
	if body.Location != "" {
		m["location"] = body.Location
	}
	if body.SKU != nil {
		m["sku"] = body.SKU
	}
	if body.Zones != nil {
		m["zones"] = body.Zones
	}
	if body.Tags != nil {
		m["tags"] = body.Tags
	}
	props := cloneMap(body.Properties)
	for _, k := range computed[body.Kind()] {
		delete(props, k)
	}
	if err := joinChildren(body, children, props); err != nil {
		return nil, err
	}
	if err := resolveUnknowns(body.ID.Address()+": properties", props, placeholders); err != nil {
		return nil, err
	}
	m["properties"] = props
	return json.Marshal(m)
}

func joinChildren(body *plan.Resource, children []*plan.Resource, props map[string]any) error {
	kinds := inlineChildren[body.Kind()]
	if len(kinds) == 0 {
		if len(children) > 0 {
			return fmt.Errorf("%s: a %s has no inline children, got %d", body.ID.Address(), body.Kind(), len(children))
		}
		return nil
	}
	for _, kind := range kinds {
		props[kind.Segment()] = []any{}
	}
	for _, c := range children {
		pid, ok := c.ID.ParentID()
		if !ok || pid.Key() != body.Key() || !contains(kinds, c.Kind()) {
			return fmt.Errorf("%s: %s is not an inline child of it", body.ID.Address(), c.ID.Address())
		}
		item := map[string]any{"name": c.Name()}
		if c.Zones != nil {
			item["zones"] = c.Zones
		}
		item["properties"] = cloneMap(c.Properties)
		seg := c.Kind().Segment()
		props[seg] = append(props[seg].([]any), item)
	}
	return nil
}

// resolveUnknowns removes assignable Unknown values and reports any other;
// it writes the placeholders of values the API server assigns when allowed.
func resolveUnknowns(path string, v any, placeholders bool) error {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if ph, ok := plan.Placeholder(x); ok {
				if !placeholders {
					return fmt.Errorf("%s.%s is %s", path, k, plan.ServerAssignedText)
				}
				t[k] = ph
				continue
			}
			if plan.IsUnknown(x) {
				if _, _, copied := plan.UnknownSource(x); assignable[k] && !copied {
					delete(t, k)
					continue
				}
				return fmt.Errorf("%s.%s is still (known after apply)", path, k)
			}
			if err := resolveUnknowns(path+"."+k, x, placeholders); err != nil {
				return err
			}
		}
	case []any:
		for i, x := range t {
			if ph, ok := plan.Placeholder(x); ok {
				if !placeholders {
					return fmt.Errorf("%s[%d] is %s", path, i, plan.ServerAssignedText)
				}
				t[i] = ph
				continue
			}
			if plan.IsUnknown(x) {
				return fmt.Errorf("%s[%d] is still (known after apply)", path, i)
			}
			if err := resolveUnknowns(fmt.Sprintf("%s[%d]", path, i), x, placeholders); err != nil {
				return err
			}
		}
	}
	return nil
}
