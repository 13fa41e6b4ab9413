package plan

import (
	"slices"
	"strings"
)

// RemovedService is a Service outside the input whose resources a plan
// deletes (--prune), known by the name prefix CCM derives from its UID
// (ccm-semantics §2.1), and named when something names it: a plan that
// says "resource names starting a1042de5…" when a tag says whose they
// were hides what a reviewer must check (issue 22 item 3).
type RemovedService struct {
	Prefix string `json:"prefix"`
	// Service is the namespace/name; empty when nothing names it.
	Service string `json:"service,omitempty"`
	// NamedBy says what names it, and Evidence the resource whose tag
	// does (for the tags).
	NamedBy  NameSource `json:"named_by,omitempty"`
	Evidence string     `json:"evidence,omitempty"`
}

// NameSource is what names a removed Service.
type NameSource string

const (
	// NamedByServiceTag: CCM's k8s-azure-service tag of its public IP.
	NamedByServiceTag NameSource = "service_tag"
	// NamedByOwnerTag: the k8s-azure-owner-service tag of its private
	// link service.
	NamedByOwnerTag NameSource = "owner_tag"
	// NamedBySavedPlan: the saved plan given with --since recorded it.
	NamedBySavedPlan NameSource = "saved_plan"
	// NamedByBase: the base input of a base→head plan has it.
	NamedByBase NameSource = "base"
)

// KnownNames are names of Services by their name prefix from outside the
// plan's own reads: a saved plan's scope, a base input's Services (whose
// prefix may be a UIDPlaceholderPrefix).
type KnownNames struct {
	By    NameSource
	Names map[string]string // lower-case prefix -> namespace/name
}

// RemovedServices lists the prefixes of the deleted resources no Service
// of the input owns (changes without Services), each named, when it can
// be, by the tags of evidence: public IPs tagged with exactly one Service
// and private link services with an owner, whose names or frontends carry
// the prefix. Evidence is what the plan read (deleted or kept).
func RemovedServices(changes []*Change, evidence []*Resource) []RemovedService {
	var out []RemovedService
	for _, c := range changes {
		if len(c.Services) > 0 || !c.IsDelete() {
			continue
		}
		if prefix := UIDPrefixIn(c.ID().Name()); prefix != "" && !slices.ContainsFunc(out, func(r RemovedService) bool { return r.Prefix == prefix }) {
			out = append(out, RemovedService{Prefix: prefix})
		}
	}
	if len(out) == 0 {
		return nil
	}
	tagged := tagNames(evidence)
	for i, r := range out {
		if n, ok := tagged[r.Prefix]; ok {
			out[i] = n
		}
	}
	slices.SortFunc(out, func(a, b RemovedService) int { return strings.Compare(a.Prefix, b.Prefix) })
	return out
}

// NameRemoved names the removed Services nothing named yet from known.
func NameRemoved(rs []RemovedService, known KnownNames) []RemovedService {
	for i, r := range rs {
		if name := known.Names[r.Prefix]; r.Service == "" && name != "" {
			rs[i].Service, rs[i].NamedBy = name, known.By
		}
	}
	return rs
}

// tagNames maps prefixes to the Services the evidence's tags name, the
// first in resource order winning.
func tagNames(evidence []*Resource) map[string]RemovedService {
	out := map[string]RemovedService{}
	note := func(prefix, svc string, by NameSource, r *Resource) {
		if _, seen := out[prefix]; !seen && prefix != "" && svc != "" {
			out[prefix] = RemovedService{Prefix: prefix, Service: svc, NamedBy: by, Evidence: r.ID.Address()}
		}
	}
	rs := slices.Clone(evidence)
	SortResources(rs)
	for _, r := range rs {
		switch r.Kind() {
		case KindPublicIP:
			// A shared public IP's tag lists every Service using it: only
			// one Service names the creator for sure.
			if v, ok := TagValue(r.Tags, TagService, LegacyTagService); ok {
				if svcs := SplitServices(v); len(svcs) == 1 {
					note(UIDPrefixIn(r.Name()), svcs[0], NamedByServiceTag, r)
				}
			}
		case KindPrivateLinkService:
			if owner, ok := TagValue(r.Tags, TagOwnerService); ok {
				for _, fe := range AsPrivateLinkService(r).FrontendIDs() {
					if id, err := ParseID(string(fe)); err == nil {
						note(UIDPrefixIn(id.Name()), strings.TrimSpace(owner), NamedByOwnerTag, r)
					}
				}
			}
		}
	}
	return out
}
