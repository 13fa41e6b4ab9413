package diff

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// updateReason picks the reason code of an in-place update from the fields
// it changes (ux-anchors §8.1).
func updateReason(k plan.Kind, attrs []plan.AttributeChange) plan.Reason {
	if k == plan.KindBackendPool {
		for _, a := range attrs {
			if a.Path[len(a.Path)-1] == plan.PoolMembersField {
				return plan.ReasonNodesChanged
			}
		}
	}
	if k == plan.KindSecurityRule {
		if r := destinationReason(attrs); r != plan.ReasonNone {
			return r
		}
	}
	if r := serviceTagReason(attrs); r != plan.ReasonNone {
		return r
	}
	for _, a := range attrs {
		last := a.Path[len(a.Path)-1]
		switch {
		case strings.HasPrefix(last, "sourceAddressPrefix"):
			return plan.ReasonSourceRangesChanged
		case strings.Contains(strings.ToLower(last), "port"):
			return plan.ReasonPortChanged
		}
	}
	return plan.ReasonAnnotationChanged
}

// serviceTagReason is service_added or service_removed when a change only
// binds Services to or unbinds them from a public IP's k8s-azure-service tag
// (ccm-semantics §6 "Sharing"): a Service joining a shared IP is not drift.
func serviceTagReason(attrs []plan.AttributeChange) plan.Reason {
	if len(attrs) != 1 || len(attrs[0].Path) != 2 || attrs[0].Path[0] != "tags" || attrs[0].Path[1] != plan.TagService {
		return plan.ReasonNone
	}
	before, _ := attrs[0].Before.(string)
	after, _ := attrs[0].After.(string)
	return countReason(len(plan.SplitServices(before)), len(plan.SplitServices(after)))
}

// destinationReason explains an NSG rule update: a destination-only change
// means a Service gained or lost the rule.
func destinationReason(attrs []plan.AttributeChange) plan.Reason {
	if len(attrs) != 1 || attrs[0].Path[len(attrs[0].Path)-1] != plan.DestinationField {
		return plan.ReasonNone
	}
	before, _ := attrs[0].Before.([]any)
	after, _ := attrs[0].After.([]any)
	return countReason(len(before), len(after))
}

func countReason(before, after int) plan.Reason {
	switch {
	case after > before:
		return plan.ReasonServiceAdded
	case after < before:
		return plan.ReasonServiceRemoved
	}
	return plan.ReasonNone
}
