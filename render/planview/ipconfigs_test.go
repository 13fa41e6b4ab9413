package planview

import (
	"bytes"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// A private link service's NAT IP configurations are rebuilt whole when
// one changes (ccm-semantics §8): the diff shows one line per
// configuration gained or lost, never a JSON object folded mid-token
// (issue 22 item 6).
func TestIPConfigurationsOneLinePerMember(t *testing.T) {
	subnet := plan.ID{Subscription: sub, ResourceGroup: rg, Kind: plan.KindSubnet, Names: []string{"aks-vnet", "pls-subnet"}}
	cfg := func(name, ip string, primary bool) any {
		props := map[string]any{"primary": primary, "privateIPAddressVersion": "IPv4", "subnet": plan.Ref(subnet)}
		if ip == "" {
			props["privateIPAllocationMethod"] = "Dynamic"
		} else {
			props["privateIPAllocationMethod"], props["privateIPAddress"] = "Static", ip
		}
		return map[string]any{"name": name, "properties": props}
	}
	before := []any{cfg("pls-subnet-partner-api-pls-static-10.225.1.10", "10.225.1.10", true),
		cfg("pls-subnet-partner-api-pls-static-10.225.1.11", "10.225.1.11", false), cfg("pls-subnet-partner-api-pls-dynamic-0", "", false)}
	after := []any{before[0], cfg("pls-subnet-partner-api-pls-static-10.225.1.12", "10.225.1.12", false), before[2]}
	pls := plan.NewID(sub, rg, plan.KindPrivateLinkService, "partner-api-pls")
	c := &plan.Change{Actions: []plan.Action{plan.ActionUpdate}, Services: []string{"partner-api/gateway"},
		Before:     &plan.Resource{ID: pls, Properties: map[string]any{"ipConfigurations": before}},
		After:      &plan.Resource{ID: pls, Properties: map[string]any{"ipConfigurations": after}},
		Attributes: []plan.AttributeChange{{Path: []string{"properties", "ipConfigurations"}, Before: before, After: after}}}
	in := Input{Plan: &plan.Plan{Changes: []*plan.Change{c}}}
	var text, md bytes.Buffer
	if err := Text(&text, in, style.New(false)); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, in, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		for _, want := range []string{
			"ipConfigurations: 3 -> 3 members:",
			"+ pls-subnet-partner-api-pls-static-10.225.1.12 (10.225.1.12, Static, IPv4, subnet vnet/aks-vnet/subnet/pls-subnet)\n",
			"- pls-subnet-partner-api-pls-static-10.225.1.11 (10.225.1.11, Static, IPv4, subnet vnet/aks-vnet/subnet/pls-subnet)\n",
			"… 2 unchanged",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
		if strings.Contains(out, `{"name"`) || strings.Contains(out, `"properties"`) {
			t.Errorf("%s shows a configuration as JSON:\n%s", name, out)
		}
	}
}

// Folding a long line breaks between words, not inside one.
func TestFoldLineAtSpaces(t *testing.T) {
	text := strings.Repeat("word ", 40) + strings.Repeat("x", 200)
	lines := foldLine(markChange, text, "  ")
	for i, l := range lines {
		if len([]rune(l.text)) > maxLineWidth {
			t.Errorf("line %d has %d characters", i, len([]rune(l.text)))
		}
	}
	if !strings.HasSuffix(lines[0].text, "word") {
		t.Errorf("first line does not end at a word: %q", lines[0].text)
	}
}
