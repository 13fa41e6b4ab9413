package resolve

import "github.com/azsvc/azsvc/plan"

// A frontend's public IP or subnet that neither exists nor is planned:
// CCM fails the Service (ccm-semantics §1.3 #24 "PublicIP from annotation
// azure-pip-name ... doesn't exist", #2 "failed to get subnet"), and ARM
// refuses any load balancer write that carries the frontend
// (InvalidResourceReference, arm-rules §2.2), that is the write of every
// Service on that load balancer. So the Service fails alone: nothing is
// planned for it, its frontend and public IP stay out of every write, and
// NSG rules it shares keep the other Services' destinations only.

// findMissingReferences fails the Services of every desired frontend whose
// public IP or subnet is neither observed nor desired, and of every new
// public IP whose prefix (azure-pip-prefix-id, §1.3 #26) is not observed:
// CCM creates the IP from it, and ARM refuses (ResourceNotFound).
func (r *resolver) findMissingReferences() {
	for _, e := range r.desList {
		switch e.R.Kind() {
		case plan.KindFrontend:
			fe := plan.AsFrontend(e.R)
			if id, ok := r.missingRef(fe.PublicIPID()); ok {
				r.fail(e, id.Key(), plan.Blocked{Address: id.Address(), Code: plan.BlockUserPIPMissing,
					Value: id.Name(), Group: id.ResourceGroup})
			}
			if id, ok := r.missingRef(fe.SubnetID()); ok {
				r.fail(e, id.Key(), plan.Blocked{Address: id.Address(), Code: plan.BlockSubnetMissing,
					Value: id.Name(), Other: id.Names[0], Group: id.ResourceGroup})
			}
		case plan.KindPublicIP:
			if _, exists := r.obs.Get(e.Key); exists {
				continue // the prefix matters only when the IP is created
			}
			if id, ok := r.missingRef(plan.AsPublicIP(e.R).PrefixID()); ok {
				r.fail(e, id.Key(), plan.Blocked{Address: id.Address(), Code: plan.BlockPIPPrefixMissing,
					Value: id.Name(), Group: id.ResourceGroup})
			}
		}
	}
}

// missingRef parses ref and reports whether it names something neither
// observed nor desired.
func (r *resolver) missingRef(ref string) (plan.ID, bool) {
	if ref == "" {
		return plan.ID{}, false
	}
	k := plan.KeyOf(ref)
	if _, seen := r.obs.Get(k); seen {
		return plan.ID{}, false
	}
	if _, wanted := r.wanted.Get(k); wanted {
		return plan.ID{}, false
	}
	id, err := plan.ParseID(ref)
	return id, err == nil
}

// fail fails the Services of e (a frontend or public IP) for the missing
// resource missing, which b explains.
func (r *resolver) fail(e plan.Entry, missing plan.Key, b plan.Blocked) {
	r.out.Conflicts[e.Key] = true
	r.failedSources[e.Key], r.failedSources[missing] = true, true
	b.Services = e.R.Services
	r.block(b)
	for _, s := range e.R.Services {
		r.out.Failed[s] = true
	}
}
