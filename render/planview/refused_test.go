package planview

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// refusedPlan refuses one write of every kind preflight finds.
func refusedPlan() *plan.Plan {
	const fe, nodes = "lb/kubernetes/frontend/a1", "vnet/vnet/subnet/nodes"
	return &plan.Plan{Refused: []plan.Refusal{
		{Address: "nsg/" + nsgName, Code: plan.RefuseLimit, Limit: &plan.Limit{Name: "nsg_rules", Scope: "nsg/" + nsgName, Used: 1001, Max: 1000}},
		{Address: "lb/kubernetes", Code: plan.RefuseBasicLB, LeftBehind: []string{"pip/kubernetes-a1", "pip/kubernetes-b2"}},
		{Address: "lb/kubernetes-internal", Code: plan.RefuseBasicLB},
		{Address: "pip/kubernetes-a1", Code: plan.RefuseBasicPIP},
		{Address: fe, Code: plan.RefuseSKUMismatch, Other: "pip/kubernetes-a1", OtherSKU: "Standard", SKU: "Basic"},
		{Address: fe, Code: plan.RefuseIPOutsideSubnet, IP: "10.9.0.10", Subnet: nodes, Prefixes: []string{"10.224.0.0/16"}},
		{Address: fe, Code: plan.RefuseIPReserved, IP: "10.224.0.3", Subnet: nodes, Prefixes: []string{"10.224.0.0/16"}},
		{Address: fe, Code: plan.RefuseIPTaken, IP: "10.224.0.10", Subnet: nodes, Other: "lb/kubernetes/frontend/team"},
		{Address: "pls/pls-a1", Code: plan.RefuseIPTakenDynamic, IP: "10.224.0.4", Subnet: nodes, Other: "lb/kubernetes/frontend/b2"},
		{Address: "pls/pls-a1", Code: plan.RefusePLSNotStandard, Other: "lb/kubernetes", OtherSKU: "Basic"},
		{Address: "pls/pls-a1", Code: plan.RefusePLSSubnetPolicies, Other: nodes},
		{Address: fe, Code: plan.RefuseReferenceMissing, Other: "pip/gateway-pip-v4"},
		{Address: "lb/kubernetes/rule/a1-TCP-80", Code: plan.RefuseReferenceDeleted, Other: "lb/kubernetes/probe/a1-TCP-80"},
		{Address: "pip/kubernetes-b2", Code: plan.RefuseGroupMissing, Other: "rg-tpyo"},
	}}
}

// A refused plan shows every refusal, worded, in each format; the JSON
// keeps the facts beside the wording and is not applyable.
func TestRefusedGolden(t *testing.T) {
	in := Input{Plan: refusedPlan(), Header: header()}
	for _, f := range []struct {
		ext    string
		render func(*bytes.Buffer) error
	}{
		{"txt", func(b *bytes.Buffer) error { return Text(b, in, style.New(false)) }},
		{"json", func(b *bytes.Buffer) error { return JSON(b, in) }},
		{"md", func(b *bytes.Buffer) error { return Markdown(b, in, MarkdownOptions{}) }},
	} {
		t.Run(f.ext, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.render(&b); err != nil {
				t.Fatal(err)
			}
			assertGolden(t, filepath.Join("testdata", "refused."+f.ext), b.Bytes())
		})
	}
	var b bytes.Buffer
	if err := JSON(&b, in); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Applyable bool
		Refused   []struct {
			Address, Code, Reason string
			Limit                 *plan.Limit
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Applyable || len(doc.Refused) != len(in.Plan.Refused) || doc.Refused[0].Code != "limit_exceeded" ||
		doc.Refused[0].Limit == nil || doc.Refused[0].Limit.Used != 1001 {
		t.Errorf("JSON: applyable %v, refused %+v", doc.Applyable, doc.Refused)
	}
}

// Every refusal code has a sentence of its own, never the bare code.
func TestRefusalWordingCoversEveryCode(t *testing.T) {
	seen := map[plan.RefusalCode]bool{}
	for _, r := range refusedPlan().Refused {
		seen[r.Code] = true
		if text := RefusalText(r); text == r.Code.String() || strings.Contains(text, "%!") {
			t.Errorf("%s: %q", r.Code, text)
		}
	}
	for c := plan.RefuseNone + 1; !strings.HasPrefix(c.String(), "refusal code("); c++ {
		if !seen[c] {
			t.Errorf("refusedPlan has no %s refusal", c)
		}
	}
}
