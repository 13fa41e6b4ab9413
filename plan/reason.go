package plan

// Reason says why a change is planned (ux-anchors §8.1 action_reason). It is
// a code, not a sentence: renderers word it. Display only: nothing in apply
// may branch on it.
type Reason uint8

const (
	ReasonNone Reason = iota
	// ReasonServiceAdded: a Service wants a resource it did not have, or
	// joins a shared one.
	ReasonServiceAdded
	// ReasonServiceRemoved: a Service stopped wanting the resource (or left
	// the input with --prune).
	ReasonServiceRemoved
	// ReasonAnnotationChanged: an owned resource differs in a field an
	// annotation or the configuration decides.
	ReasonAnnotationChanged
	// ReasonPortChanged: a port differs.
	ReasonPortChanged
	// ReasonSourceRangesChanged: an NSG rule's sources differ.
	ReasonSourceRangesChanged
	// ReasonRequiresReplacement: a field ARM cannot change in place differs,
	// or a resource this one references is re-created (see Change.Cause).
	ReasonRequiresReplacement
	// ReasonConnectionLost: the PLS owner rejected or removed a private
	// endpoint's connection; only a new endpoint can connect again.
	ReasonConnectionLost
	// ReasonApproveConnection: a pending connection to a PLS azsvc manages
	// is approved (PrivateEndpoint spec.approve).
	ReasonApproveConnection
	// ReasonSourceRecreated: a value the resource copies from another
	// (Change.Cause) is assigned again, because that one is created or
	// re-created: a DNS record follows its endpoint's new address.
	ReasonSourceRecreated
	// ReasonNodesChanged: an IP-based backend pool gains or loses nodes
	// (nodes joined, left, or changed address or eligibility).
	ReasonNodesChanged
	// ReasonNodesNotInInput: an IP-based backend pool loses members whose
	// Node the input's Node manifests do not list (Scope.AbsentNodeIPs): a
	// node that left the cluster, or a manifest missing from the input.
	ReasonNodesNotInInput
)

var reasonCodes = [...]string{
	ReasonNone:                "",
	ReasonServiceAdded:        "service_added",
	ReasonServiceRemoved:      "service_removed",
	ReasonAnnotationChanged:   "annotation_changed",
	ReasonPortChanged:         "port_changed",
	ReasonSourceRangesChanged: "source_ranges_changed",
	ReasonRequiresReplacement: "requires_replacement",
	ReasonConnectionLost:      "connection_lost",
	ReasonApproveConnection:   "approve_connection",
	ReasonSourceRecreated:     "source_recreated",
	ReasonNodesChanged:        "nodes_changed",
	ReasonNodesNotInInput:     "nodes_not_in_input",
}

// String is the stable code, e.g. "service_added".
func (c Reason) String() string { return codeName(reasonCodes[:], c, "action reason") }

// MarshalText writes the code.
func (c Reason) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a code written by MarshalText.
func (c *Reason) UnmarshalText(b []byte) error {
	v, err := parseCode[Reason](reasonCodes[:], b, "action reason")
	*c = v
	return err
}
