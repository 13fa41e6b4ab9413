package plan

// Whether a blocked change fails the plan (issue 22 item 4): CI must not
// go green while a Service gets no load balancer because its subnet name
// has a typo. A block fails when it leaves a Service or PrivateEndpoint
// without what its manifest asks for: a subnet, public IP, prefix or
// pinned address that does not exist, a port already taken on a shared
// frontend, a private link service the endpoint may not see, a resource
// that belongs to others. Azure will not match the input, so plan and
// apply exit 4. A block does not fail when it holds back a delete that
// would break something in use, or when it says what CCM itself does
// (node IPs its reconcile adds later): Azure then matches what CCM would
// build.

// blockOutcome classifies a BlockCode; the zero value is "not classified"
// so a new code without an entry is caught by the test.
type blockOutcome uint8

const (
	blockUnclassified blockOutcome = iota
	blockFails
	blockHeld
)

var blockOutcomes = map[BlockCode]blockOutcome{
	BlockNotManaged:        blockFails, // a resource of that name is someone else's
	BlockBelongsToOthers:   blockFails,
	BlockNSGReplace:        blockFails, // the NSG keeps what the Service does not want
	BlockSubnetMissing:     blockFails,
	BlockUserPIPMissing:    blockFails,
	BlockDeleteInUse:       blockHeld,  // the delete waits for what still uses it
	BlockReplaceInUse:      blockFails, // the new setting never takes effect
	BlockEmptiedLB:         blockHeld,
	BlockDependsOnBlocked:  blockHeld, // the block it depends on decides
	BlockPinnedIPNotFound:  blockFails,
	BlockSharedAcrossLBs:   blockFails,
	BlockSharedPort:        blockFails,
	BlockNSGRuleNotManaged: blockFails,
	// CCM-faithful: CCM builds no rule without node IPs either, and adds
	// them when it reconciles the Service (ccm-semantics §5.2, §5.5).
	BlockNodeIPsNotPlanned: blockHeld,
	BlockNodeIPsLeft:       blockHeld,
	BlockNodeIPsPartial:    blockHeld,
	BlockNotVisible:        blockFails,
	BlockPIPPrefixMissing:  blockFails,
	BlockEndpointConnected: blockHeld,
}

// Fails reports whether a block of this code leaves a Service or
// PrivateEndpoint without what its manifest asks for.
func (c BlockCode) Fails() bool { return blockOutcomes[c] == blockFails }

// Fails reports whether b leaves its Services without what they ask for.
func (b Blocked) Fails() bool { return b.Code.Fails() }

// FailingBlocks are the entries of bs that fail the plan, in order.
func FailingBlocks(bs []Blocked) []Blocked {
	var out []Blocked
	for _, b := range bs {
		if b.Fails() {
			out = append(out, b)
		}
	}
	return out
}
