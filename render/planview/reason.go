package planview

import "github.com/azsvc/azsvc/plan"

// ReasonText says why a change is planned, without claiming more than
// azsvc knows: with no record of what it wrote before (plan --since), an
// owned resource that differs from what the Services ask for may have been
// edited in the manifests or in Azure, and the words say only that it
// differs (issue 16 "honest labels").
func ReasonText(c *plan.Change) string {
	who := "a Service"
	if len(c.Services) == 1 && isEndpoint(c.Services[0]) {
		who = "a PrivateEndpoint"
	}
	switch c.Reason {
	case plan.ReasonServiceAdded:
		if c.Has(plan.ActionAdopt) {
			return "built by CCM for a Service in the input: azsvc starts managing it"
		}
		if c.IsReplace() || c.Has(plan.ActionCreate) {
			return who + " in the input needs it"
		}
		return who + " in the input starts using it"
	case plan.ReasonServiceRemoved:
		if c.IsDelete() && endpointSide(c.ID().Kind) {
			return "no PrivateEndpoint in the input declares it any more"
		}
		if c.IsDelete() {
			return "no Service in the input needs it any more"
		}
		return "a Service stops using it"
	case plan.ReasonAnnotationChanged:
		return "differs from what the Service's annotations and the configuration ask for"
	case plan.ReasonPortChanged:
		return "a port differs from the Service's"
	case plan.ReasonSourceRangesChanged:
		return "its source ranges differ from the Service's"
	case plan.ReasonRequiresReplacement:
		if c.Cause != "" {
			return "re-created because " + addressOf(c.Cause) + " is re-created"
		}
		return "a setting Azure cannot change in place differs"
	case plan.ReasonConnectionLost:
		return "its connection was rejected or removed by the PLS owner: only a new endpoint can ask again"
	case plan.ReasonApproveConnection:
		return "the PrivateEndpoint asks for approval, and azsvc manages the private link service"
	case plan.ReasonSourceRecreated:
		if c.Cause != "" {
			return "follows the new address of " + addressOf(c.Cause)
		}
		return "follows a value Azure assigns again"
	case plan.ReasonNodesChanged:
		switch {
		case c.ID().Kind == plan.KindBackendPool:
			return "its members follow the nodes: nodes joined or left the set it should hold"
		case c.IsDelete():
			return "the nodes whose addresses it allowed left the input's Nodes, and nothing else is left to allow"
		}
		return "the node addresses it allows follow the nodes that joined or left"
	case plan.ReasonNodesNotInInput:
		return "members leave it whose Node is not in the input: if those nodes are still in the cluster, the Node manifests are incomplete (give every Node, or plan with --from-cluster)"
	case plan.ReasonNone:
		return "no reason recorded"
	}
	return c.Reason.String()
}

// endpointSide reports the kinds a PrivateEndpoint object declares: the
// endpoint and its private DNS.
func endpointSide(k plan.Kind) bool {
	switch k {
	case plan.KindPrivateEndpoint, plan.KindPrivateDNSZone, plan.KindVNetLink, plan.KindARecord:
		return true
	}
	return false
}
