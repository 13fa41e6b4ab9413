package engine

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/planview"
)

// View gathers what every plan renderer shows: the plan, the header naming
// the target, the findings and where each Service came from.
func View(p *plan.Plan, in *Inputs, t *Target, files []string) planview.Input {
	return ViewFor(p, in, t.Describe(), files)
}

// ViewFor is View for a target known by its description: a saved plan's,
// shown offline (azsvc show).
func ViewFor(p *plan.Plan, in *Inputs, target string, files []string) planview.Input {
	cfg := in.Config
	sources := map[string]string{}
	for _, s := range in.Service.Services {
		sources[s.Key()] = s.Source.Origin()
	}
	for _, ep := range in.Service.Endpoints {
		sources[ep.Owner()] = ep.Source.Origin()
	}
	return planview.Input{
		Plan: p,
		Header: planview.Header{
			Target:        target,
			Subscription:  cfg.SubscriptionForIDs(),
			ResourceGroup: cfg.ResourceGroup,
			Cluster:       cfg.ClusterName,
			Location:      cfg.Location,
			LBSKU:         cfg.LoadBalancerSKU,
			Source:        source(in, files),
			Focus:         focusNote(in),
		},
		Diagnostics:  in.Diagnostics,
		Sources:      sources,
		FileContents: in.Service.Sources,
	}
}

// source names where the Services came from: the files, the cluster, or
// the files laid over the cluster.
func source(in *Inputs, files []string) string {
	s := strings.Join(files, ", ")
	if in.Cluster == nil {
		return s
	}
	if s == "" {
		return in.Cluster.Where
	}
	return s + " over " + in.Cluster.Where
}

// focusNote says what a focused plan is narrowed to: "2 of 500 Services
// (--service shop/web)"; "" for a plan of every Service.
func focusNote(in *Inputs) string {
	if len(in.Scope.Focus) == 0 {
		return ""
	}
	endpoints := 0
	for _, k := range in.Scope.Focus {
		if _, isEndpoint := plan.EndpointOf(k); isEndpoint {
			endpoints++
		}
	}
	note := fmt.Sprintf("%d of %d Services", len(in.Scope.Focus)-endpoints, len(in.Service.Services))
	if endpoints > 0 {
		note += fmt.Sprintf(" and %d of %d PrivateEndpoints", endpoints, len(in.Service.Endpoints))
	}
	if in.Focus.Set() {
		note += " (" + in.Focus.String() + ")"
	}
	return note
}
