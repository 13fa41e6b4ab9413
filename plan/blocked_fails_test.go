package plan

import "testing"

// Every block code says whether it fails the plan: a code added without
// an entry would neither fail CI nor be known to be harmless.
func TestEveryBlockCodeClassified(t *testing.T) {
	for c := BlockCode(1); int(c) < len(blockCodes); c++ {
		if blockOutcomes[c] == blockUnclassified {
			t.Errorf("block code %s is not classified as failing or held (plan/blocked_fails.go)", c)
		}
	}
	if len(blockOutcomes) != len(blockCodes)-1 {
		t.Errorf("%d outcomes for %d block codes", len(blockOutcomes), len(blockCodes)-1)
	}
}

func TestBlockOutcomes(t *testing.T) {
	for _, tt := range []struct {
		code BlockCode
		fail bool
	}{
		{BlockSubnetMissing, true}, {BlockUserPIPMissing, true}, {BlockPIPPrefixMissing, true},
		{BlockPinnedIPNotFound, true}, {BlockSharedPort, true}, {BlockNotVisible, true},
		{BlockBelongsToOthers, true}, {BlockNotManaged, true},
		{BlockDeleteInUse, false}, {BlockEndpointConnected, false}, {BlockEmptiedLB, false},
		{BlockNodeIPsNotPlanned, false}, {BlockNodeIPsLeft, false}, {BlockNodeIPsPartial, false},
		{BlockNone, false},
	} {
		if got := tt.code.Fails(); got != tt.fail {
			t.Errorf("%s.Fails() = %v, want %v", tt.code, got, tt.fail)
		}
	}
	bs := []Blocked{{Address: "a", Code: BlockDeleteInUse}, {Address: "b", Code: BlockSubnetMissing}}
	if got := FailingBlocks(bs); len(got) != 1 || got[0].Address != "b" {
		t.Errorf("FailingBlocks = %v, want only b", got)
	}
}
