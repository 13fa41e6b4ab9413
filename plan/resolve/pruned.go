package resolve

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// outsideServices names the Service outside the input that a resource
// --prune removes belonged to, so the plan lists the delete under it: the
// Services its own tags name, else the one Service named by the tag of the
// public IP or private link service whose name carries the same UID prefix
// (CCM names all of a Service's resources after it, ccm-semantics §2.1).
// Nothing when neither says; the plan then shows the delete under the name
// prefix.
func (r *resolver) outsideServices(res *plan.Resource, own Ownership) []string {
	if len(own.Services) > 0 || !own.Foreign {
		return own.Services
	}
	if len(own.ForeignServices) > 0 {
		return own.ForeignServices
	}
	if r.prefixOwners == nil {
		r.prefixOwners = r.taggedPrefixes()
	}
	token, _, _ := strings.Cut(strings.ToLower(res.Name()), "-")
	if len(token) > plan.UIDPrefixLen {
		token = token[:plan.UIDPrefixLen]
	}
	if s, ok := r.prefixOwners[token]; ok {
		return []string{s}
	}
	return nil
}

// taggedPrefixes maps the UID prefix in the names of observed public IPs
// (<cluster>-<prefix>) and private link services (pls-<prefix>) to the one
// Service their tags name; prefixes tagged for several Services (a shared
// public IP) are left out.
func (r *resolver) taggedPrefixes() map[string]string {
	out := map[string]string{}
	ambiguous := map[string]bool{}
	note := func(name string, tags map[string]string, keys ...string) {
		v, ok := plan.TagValue(tags, keys...)
		services := plan.SplitServices(v)
		if !ok || len(services) != 1 {
			return
		}
		for _, token := range strings.Split(strings.ToLower(name), "-") {
			if !plan.IsUIDPrefix(token) {
				continue
			}
			p := token[:plan.UIDPrefixLen]
			if s, seen := out[p]; seen && s != services[0] {
				ambiguous[p] = true
			}
			out[p] = services[0]
		}
	}
	for _, e := range r.obs.OfKind(plan.KindPublicIP) {
		note(e.R.Name(), e.R.Tags, plan.TagService, plan.LegacyTagService)
	}
	for _, e := range r.obs.OfKind(plan.KindPrivateLinkService) {
		note(e.R.Name(), e.R.Tags, plan.TagOwnerService)
	}
	for p := range ambiguous {
		delete(out, p)
	}
	return out
}
