package planview

import (
	"regexp"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// The comment's headline and the sections under it count the same
// things (issue 22 item 6): "Changes for 1 Service, 1 PrivateEndpoint"
// was followed by "Services (2 with changes)", and a comment too long to
// show every group said "of 3 Services" for 2 Services and an endpoint.
func TestMarkdownCountsAgree(t *testing.T) {
	pe := plan.NewID(sub, rg, plan.KindPrivateEndpoint, "pe-web")
	var changes []*plan.Change
	for _, owner := range []string{"web/frontend", "web/api", plan.EndpointOwner("web/pe")} {
		id := plan.ChildID(lb(), plan.KindRule, strings.ReplaceAll(owner, "/", "-"))
		if _, ok := plan.EndpointOf(owner); ok {
			id = pe
		}
		changes = append(changes, &plan.Change{Actions: []plan.Action{plan.ActionCreate}, Services: []string{owner},
			After: &plan.Resource{ID: id, Properties: map[string]any{"note": strings.Repeat("x", 3000)}}})
	}
	in := Input{Plan: &plan.Plan{Changes: changes}, Header: header()}
	whole, _ := MarkdownText(in, MarkdownOptions{})
	for _, want := range []string{"Changes for 2 Services, 1 PrivateEndpoint in 1 namespace.",
		"#### Services and PrivateEndpoints (2 Services, 1 PrivateEndpoint with changes)"} {
		if !strings.Contains(whole, want) {
			t.Errorf("comment lacks %q:\n%s", want, whole)
		}
	}
	cut, _ := MarkdownText(in, MarkdownOptions{Budget: 5000})
	if !regexp.MustCompile(`This comment shows \d of 2 Services, 1 PrivateEndpoint with changes`).MatchString(strings.ReplaceAll(cut, "\n> ", " ")) {
		t.Errorf("the cut comment does not count Services and PrivateEndpoints apart:\n%s", cut)
	}
}
