package adopt

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
)

// Result is what ARM says about the Services without metadata.uid.
type Result struct {
	// Prefixes maps a Service (namespace/name) to the prefix found in ARM,
	// for every Service whose prefix differs from the derived one.
	Prefixes map[string]string
	// Adopted explains each entry of Prefixes, sorted by Service.
	Adopted []plan.AdoptedUID
	// Diagnostics are the errors (ARM's marks name two prefixes for one
	// Service, or one prefix for two Services) and the warnings (internal
	// Services nothing ties to a frontend while untied frontends exist).
	Diagnostics []service.Diagnostic
	// Refused are the Services of the errors: nothing is planned for them.
	Refused map[string]bool
}

// Find looks for the prefix CCM used for every LoadBalancer Service of
// svcs that has no metadata.uid. A Service with a UID (from the cluster
// or the manifest) keeps it: the cluster's UID wins.
func Find(svcs []*service.Service, observed *plan.State, cluster string) Result {
	res := Result{Prefixes: map[string]string{}, Refused: map[string]bool{}}
	if !slices.ContainsFunc(svcs, func(s *service.Service) bool { return s.UID == "" }) {
		return res // nothing to look for: skip indexing ARM
	}
	m := index(observed, cluster)
	claimed := map[string]string{} // prefix -> Service with a UID
	for _, s := range svcs {
		if s.UID != "" {
			claimed[desired.Prefix(string(s.UID))] = s.Key()
		}
	}
	byPrefix := map[string][]*service.Service{}
	var unknown []*service.Service // internal, nothing in ARM ties them
	for _, s := range svcs {
		if s.UID != "" || s.Spec.Type != corev1.ServiceTypeLoadBalancer || s.Spec.LoadBalancerClass != nil {
			continue
		}
		found := m.candidates(s)
		for p := range found {
			slices.Sort(found[p]) // observed state is a map: fix the order
		}
		for p := range found {
			if claimed[p] != "" {
				delete(found, p) // another Service's, by its UID
			}
		}
		switch len(found) {
		case 0:
			if s.InternalForLBChoice() && len(addressesOf(s)) == 0 {
				unknown = append(unknown, s)
			}
			continue
		case 1:
			for p, ev := range found {
				byPrefix[p] = append(byPrefix[p], s)
				if p != desired.PrefixOf(s) {
					res.Prefixes[s.Key()] = p
					res.Adopted = append(res.Adopted, plan.AdoptedUID{Service: s.Key(), Prefix: p, Evidence: ev})
				}
			}
		default:
			res.refuse(s, twoPrefixes(s, found))
		}
	}
	res.refuseShared(byPrefix)
	res.warnUntied(unknown, m.untiedInternal(svcs, byPrefix, cluster))
	slices.SortFunc(res.Adopted, func(a, b plan.AdoptedUID) int { return strings.Compare(a.Service, b.Service) })
	return res
}

func (r *Result) refuse(s *service.Service, msg string) {
	r.Refused[s.Key()] = true
	delete(r.Prefixes, s.Key())
	r.Adopted = slices.DeleteFunc(r.Adopted, func(a plan.AdoptedUID) bool { return a.Service == s.Key() })
	r.Diagnostics = append(r.Diagnostics, service.Diagnostic{
		Code:     service.CodeRefuseUIDConflict,
		Severity: service.SeverityError,
		Service:  s.Key(),
		Pos:      s.Pos("metadata.name"),
		Field:    "metadata.uid",
		Message:  msg,
		Hint:     "set metadata.uid to the Service's UID in the cluster (kubectl get service -o jsonpath='{.metadata.uid}'), or plan with --from-cluster",
	})
}

// refuseShared refuses Services that ARM's marks give the same prefix: two
// Services cannot share names.
func (r *Result) refuseShared(byPrefix map[string][]*service.Service) {
	for _, p := range slices.Sorted(maps.Keys(byPrefix)) {
		svcs := byPrefix[p]
		if len(svcs) < 2 {
			continue
		}
		var names []string
		for _, s := range svcs {
			names = append(names, s.Key())
		}
		for _, s := range svcs {
			r.refuse(s, fmt.Sprintf("the resources named %s in Azure match both %s: cannot tell which Service CCM built them for",
				p, strings.Join(names, " and ")))
		}
	}
}

func twoPrefixes(s *service.Service, found map[string][]string) string {
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(found)) {
		parts = append(parts, fmt.Sprintf("%s (%s)", p, strings.Join(found[p], ", ")))
	}
	return fmt.Sprintf("Azure holds resources of %s under %d names: %s; cannot tell which UID CCM used",
		s.Key(), len(found), strings.Join(parts, " and "))
}

// warnUntied warns about internal Services without metadata.uid that
// nothing in ARM ties to a frontend (CCM leaves no name on an internal
// frontend, and they pin no address and carry no status), while internal
// frontends no Service of the input explains exist: if CCM built one of
// them for such a Service, the plan builds a second one.
func (r *Result) warnUntied(svcs []*service.Service, untied []string) {
	if len(untied) == 0 {
		return
	}
	for _, s := range svcs {
		r.Diagnostics = append(r.Diagnostics, service.Diagnostic{
			Code:     service.CodeUIDUntied,
			Severity: service.SeverityWarning,
			Service:  s.Key(),
			Pos:      s.Pos("metadata.name"),
			Field:    "metadata.uid",
			Message: fmt.Sprintf("internal Service without metadata.uid: Azure holds %d internal frontends no Service of the input explains (%s); if CCM built one of them for %s, this plan builds a second one",
				len(untied), untied[0], s.Key()),
			Hint: "set metadata.uid to the Service's UID in the cluster, keep status.loadBalancer in the manifest, or plan with --from-cluster",
		})
	}
}

// untiedInternal lists the internal frontends named like CCM's whose prefix
// no Service of svcs has (by UID, derived or adopted).
func (m *marks) untiedInternal(svcs []*service.Service, adopted map[string][]*service.Service, cluster string) []string {
	known := map[string]bool{}
	for p := range adopted {
		known[p] = true
	}
	for _, s := range svcs {
		known[desired.PrefixOf(s)] = true
	}
	var out []string
	for _, fe := range m.frontends {
		p, ok := prefixOf(fe.Name())
		if ok && !known[p] && strings.HasSuffix(strings.ToLower(fe.ID.Names[0]), "-internal") {
			out = append(out, fe.ID.Address())
		}
	}
	slices.Sort(out)
	return out
}
