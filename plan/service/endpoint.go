package service

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// Endpoint input: the consumer side of Private Link, read beside Services
// from the same manifests.
//
//	apiVersion: azsvc.io/v1alpha1
//	kind: PrivateEndpoint
//	metadata: {name: private-router, namespace: clusters-foo}
//	spec:
//	  service: private-router        # or privateLinkServiceID: <PLS ID or alias>
//	  subnetID: /subscriptions/.../virtualNetworks/<vnet>/subnets/<subnet>
//	  dns:
//	  - zone: foo.hypershift.local
//	    records: [api, "*.apps"]
const (
	EndpointAPIVersion = "azsvc.io/v1alpha1"
	EndpointKind       = "PrivateEndpoint"
)

// PrivateEndpoint is a decoded PrivateEndpoint object with the positions of
// its fields (paths as for Service: spec.dns[0].records[1]).
type PrivateEndpoint struct {
	Namespace string
	Name      string
	Spec      EndpointSpec
	// Source is where the object's document starts.
	Source    Position
	positions map[string]Position
}

// EndpointSpec is a PrivateEndpoint's spec.
type EndpointSpec struct {
	// Service is a Service of the input ("name" in the object's namespace,
	// or "namespace/name") whose private link service the endpoint
	// connects to; PrivateLinkServiceID names one outside the input (an
	// ARM ID or an alias). Exactly one is set.
	Service              string
	PrivateLinkServiceID string
	SubnetID             string
	// ResourceGroup defaults to the subnet's; the subscription is always
	// the subnet's.
	ResourceGroup string
	// Name is the Azure name of the private endpoint; default
	// metadata.name.
	Name           string
	ManualApproval bool
	RequestMessage string
	// Approve approves a Pending connection through the PLS, when azsvc
	// manages that PLS.
	Approve bool
	DNS     []EndpointDNS
}

// EndpointDNS is one private DNS zone an endpoint writes records in.
type EndpointDNS struct {
	Zone    string
	Records []string
	// TTL is the records' TTL in seconds; 0 means DefaultTTL.
	TTL int64
	// VNetLinks are the virtual networks linked to the zone; nil means the
	// endpoint subnet's virtual network.
	VNetLinks []string
}

// DefaultTTL is the TTL of an endpoint's A records when dns[].ttl is unset
// (HyperShift's, arm-rules §4.2).
const DefaultTTL = 300

// Key is "namespace/name"; an empty namespace is "default".
func (e *PrivateEndpoint) Key() string {
	ns := e.Namespace
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + e.Name
}

// Owner is the endpoint's owner name in plans and tags (plan.EndpointOwner).
func (e *PrivateEndpoint) Owner() string { return plan.EndpointOwner(e.Key()) }

// Pos returns the position of the field at path, falling back to the
// nearest enclosing field that has one, then to the document start.
func (e *PrivateEndpoint) Pos(path string) Position {
	for p := path; p != ""; p = parentPath(p) {
		if pos, ok := e.positions[p]; ok {
			return pos
		}
	}
	return e.Source
}

// ServiceKey is the "namespace/name" of spec.service, "" when unset.
func (e *PrivateEndpoint) ServiceKey() string {
	s := e.Spec.Service
	if s == "" || strings.Contains(s, "/") {
		return s
	}
	ns := e.Namespace
	if ns == "" {
		ns = "default"
	}
	return ns + "/" + s
}

// Subnet is spec.subnetID parsed; ok is false when it is not a subnet ID,
// or one with a segment ARM refuses (armPathProblem): the endpoint's ID and
// every URL of it are made from it, so such an endpoint is not planned.
func (e *PrivateEndpoint) Subnet() (plan.ID, bool) {
	id, ok := e.subnetShape()
	return id, ok && armPathProblem(e.Spec.SubnetID) == ""
}

// subnetShape is spec.subnetID parsed, its segments unchecked.
func (e *PrivateEndpoint) subnetShape() (plan.ID, bool) {
	id, err := plan.ParseID(e.Spec.SubnetID)
	return id, err == nil && id.Kind == plan.KindSubnet
}

// ID is the ARM ID of the private endpoint: in the subnet's subscription,
// spec.resourceGroup or the subnet's group, named spec.name or
// metadata.name. ok is false without a valid subnet ID.
func (e *PrivateEndpoint) ID() (plan.ID, bool) {
	sn, ok := e.Subnet()
	if !ok {
		return plan.ID{}, false
	}
	rg := e.Spec.ResourceGroup
	if rg == "" {
		rg = sn.ResourceGroup
	}
	name := e.Spec.Name
	if name == "" {
		name = e.Name
	}
	return plan.NewID(sn.Subscription, rg, plan.KindPrivateEndpoint, name), true
}

// VNet is the ID of the subnet's virtual network.
func (e *PrivateEndpoint) VNet() (plan.ID, bool) {
	sn, ok := e.Subnet()
	if !ok {
		return plan.ID{}, false
	}
	vnet, _ := sn.ParentID()
	return vnet, true
}

// TTLOf is the TTL of entry d's records.
func TTLOf(d EndpointDNS) int64 {
	if d.TTL == 0 {
		return DefaultTTL
	}
	return d.TTL
}

// diag builds a diagnostic about the endpoint's field at path.
func (e *PrivateEndpoint) diag(code, path, msg, hint string) Diagnostic {
	return Diagnostic{Code: code, Severity: severityOf(code), Service: e.Owner(), Pos: e.Pos(path),
		Field: path, Message: msg, Hint: hint}
}
