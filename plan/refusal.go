package plan

// Refusal is a write of the plan that ARM would refuse, found at plan time
// (plan/preflight) so that nothing is applied: an ARM limit exceeded, a
// retired or mismatched SKU, a static private IP ARM rejects, a private
// link service ARM rejects, a reference to something that will not exist.
// It records facts; renderers word them.
type Refusal struct {
	Address string      `json:"address"` // the resource ARM would refuse
	Code    RefusalCode `json:"code"`
	// The facts a code refers to; which are set depends on Code.
	Other    string   `json:"other,omitempty"`     // another resource's address: a public IP, load balancer, subnet, holder or reference
	SKU      string   `json:"sku,omitempty"`       // the SKU of Address's load balancer
	OtherSKU string   `json:"other_sku,omitempty"` // the SKU of Other
	IP       string   `json:"ip,omitempty"`        // a static private IP
	Subnet   string   `json:"subnet,omitempty"`    // the subnet of IP
	Prefixes []string `json:"prefixes,omitempty"`  // Subnet's address prefixes, or the one IP is reserved in
	Limit    *Limit   `json:"limit,omitempty"`     // the limit exceeded
	// LeftBehind are the public IPs CCM would create before it fails at
	// Address's write, and leave (RefuseBasicLB).
	LeftBehind []string `json:"left_behind,omitempty"`
}

// RefusalCode names why ARM would refuse a write.
type RefusalCode uint8

const (
	RefuseNone RefusalCode = iota
	// RefuseLimit: Limit.Used is over Limit.Max (arm-rules §2.4).
	RefuseLimit
	// RefuseBasicLB, RefuseBasicPIP: the plan creates a Basic SKU load
	// balancer or public IP, which Azure retired on 2025-09-30. For a load
	// balancer, LeftBehind are the new public IPs of its frontends: CCM
	// creates them before the load balancer's PUT, which fails.
	RefuseBasicLB
	RefuseBasicPIP
	// RefuseSKUMismatch: frontend Address uses public IP Other of SKU
	// OtherSKU on a load balancer of SKU SKU.
	RefuseSKUMismatch
	// RefuseIPOutsideSubnet, RefuseIPReserved: static IP is outside the
	// Prefixes of Subnet, or one of the five Azure reserves in Prefixes[0].
	RefuseIPOutsideSubnet
	RefuseIPReserved
	// RefuseIPTaken: static IP is held by Other already, in Subnet.
	RefuseIPTaken
	// RefusePLSNotStandard: the private link service is on load balancer
	// Other, of SKU OtherSKU.
	RefusePLSNotStandard
	// RefusePLSSubnetPolicies: a NAT IP is in subnet Other, whose private
	// link service network policies are enabled.
	RefusePLSSubnetPolicies
	// RefuseReferenceMissing: Address references Other, which neither
	// exists nor is created by an earlier step.
	RefuseReferenceMissing
	// RefuseReferenceDeleted: Address references Other, which an earlier
	// step deletes.
	RefuseReferenceDeleted
	// RefuseGroupMissing: Address is written into resource group Other,
	// which the plan's reads found not to exist (azsvc creates none).
	RefuseGroupMissing
	// RefuseIPTakenDynamic: static IP in Subnet is the address Azure gives
	// Other, an IP configuration that an earlier step of the plan allocates
	// dynamically (the lowest free address). Prefixes[0] is the range the
	// plan's dynamic allocations in Subnet take before Address's write.
	RefuseIPTakenDynamic
)

var refusalCodes = [...]string{
	RefuseNone: "", RefuseLimit: "limit_exceeded", RefuseBasicLB: "basic_lb_retired", RefuseBasicPIP: "basic_pip_retired",
	RefuseSKUMismatch: "sku_mismatch", RefuseIPOutsideSubnet: "static_ip_outside_subnet", RefuseIPReserved: "static_ip_reserved",
	RefuseIPTaken: "static_ip_taken", RefusePLSNotStandard: "pls_lb_not_standard", RefusePLSSubnetPolicies: "pls_subnet_policies_enabled",
	RefuseReferenceMissing: "reference_missing", RefuseReferenceDeleted: "reference_deleted",
	RefuseGroupMissing: "resource_group_missing", RefuseIPTakenDynamic: "static_ip_taken_by_dynamic",
}

// String is the stable code, e.g. "sku_mismatch".
func (c RefusalCode) String() string { return codeName(refusalCodes[:], c, "refusal code") }

// MarshalText writes the code.
func (c RefusalCode) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a code written by MarshalText.
func (c *RefusalCode) UnmarshalText(b []byte) error {
	v, err := parseCode[RefusalCode](refusalCodes[:], b, "refusal code")
	*c = v
	return err
}
