// Package statusview renders the report of azsvc status for people and
// programs: text (a tree per Service and PrivateEndpoint, as kubectl
// describe shows objects), wide text with every detail, and versioned JSON
// (SCHEMA.md). Every renderer is a pure function of one Input; the
// conditions are decided in plan/conditions, never here.
package statusview

import (
	"slices"

	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/planview"
)

// Input is everything a renderer shows.
type Input struct {
	Report *conditions.Report
	// Header names the target, as the plan's does.
	Header planview.Header
	// Sources maps a Service (namespace/name) or PrivateEndpoint owner
	// (plan.EndpointOwner) to where it came from.
	Sources     map[string]string
	Diagnostics []service.Diagnostic
}

// sorted returns the report's Services and endpoints in the plan's order
// (namespace and name, digits compared as numbers).
func sorted(r *conditions.Report) ([]conditions.Service, []conditions.Endpoint) {
	svcs, eps := slices.Clone(r.Services), slices.Clone(r.Endpoints)
	slices.SortStableFunc(svcs, func(a, b conditions.Service) int { return order(a.Name, b.Name) })
	slices.SortStableFunc(eps, func(a, b conditions.Endpoint) int { return order(a.Name, b.Name) })
	return svcs, eps
}

func order(a, b string) int {
	switch {
	case planview.NaturalLess(a, b):
		return -1
	case planview.NaturalLess(b, a):
		return 1
	}
	return 0
}

// Summary counts the Services and endpoints reported, and those with a
// condition that is not True.
type Summary struct {
	Services          int  `json:"services"`
	Endpoints         int  `json:"private_endpoints"`
	ServicesNotReady  int  `json:"services_not_ready"`
	EndpointsNotReady int  `json:"private_endpoints_not_ready"`
	Ready             bool `json:"-"` // the document's own "ready"
}

// Summarize counts r.
func Summarize(r *conditions.Report) Summary {
	s := Summary{Services: len(r.Services), Endpoints: len(r.Endpoints), Ready: r.Ready()}
	for _, svc := range r.Services {
		if !conditions.AllTrue(svc.Conditions) {
			s.ServicesNotReady++
		}
	}
	for _, e := range r.Endpoints {
		if !conditions.AllTrue(e.Conditions) {
			s.EndpointsNotReady++
		}
	}
	return s
}
