package emulator

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
)

func secRule(name string, prio int32, dir armnetwork.SecurityRuleDirection) *armnetwork.SecurityRule {
	return &armnetwork.SecurityRule{Name: to(name), Properties: &armnetwork.SecurityRulePropertiesFormat{
		Priority: to(prio), Direction: to(dir), Access: to(armnetwork.SecurityRuleAccessAllow),
		Protocol: to(armnetwork.SecurityRuleProtocolTCP), SourceAddressPrefix: to("Internet"), SourcePortRange: to("*"),
		DestinationAddressPrefixes: []*string{to("203.0.113.1")}, DestinationPortRanges: []*string{to("80")},
	}}
}

func (en *env) putNSG(name string, rules ...*armnetwork.SecurityRule) (armnetwork.SecurityGroup, error) {
	p, err := en.net.NewSecurityGroupsClient().BeginCreateOrUpdate(en.ctx, testRG, name, armnetwork.SecurityGroup{
		Location: to(testLocation), Properties: &armnetwork.SecurityGroupPropertiesFormat{SecurityRules: rules}}, nil)
	if err != nil {
		return armnetwork.SecurityGroup{}, err
	}
	res, err := p.PollUntilDone(en.ctx, en.poll)
	return res.SecurityGroup, err
}

func TestNSGRules(t *testing.T) {
	en := newEnv(t, Options{})
	in, out := armnetwork.SecurityRuleDirectionInbound, armnetwork.SecurityRuleDirectionOutbound
	nsg, err := en.putNSG("svc", secRule("a", 100, in), secRule("b", 100, out))
	if err != nil {
		t.Fatalf("the same priority in two directions is allowed: %v", err)
	}
	if len(nsg.Properties.DefaultSecurityRules) != 6 || len(nsg.Properties.SecurityRules[0].Properties.SourcePortRanges) != 0 {
		t.Fatalf("default rules %d", len(nsg.Properties.DefaultSecurityRules))
	}
	tests := []struct {
		name  string
		rules []*armnetwork.SecurityRule
		code  string
	}{
		{"priority conflict", []*armnetwork.SecurityRule{secRule("a", 100, in), secRule("b", 100, in)}, "SecurityRuleConflict"},
		{"priority below range", []*armnetwork.SecurityRule{secRule("a", 99, in)}, "SecurityRuleInvalidPriority"},
		{"priority above range", []*armnetwork.SecurityRule{secRule("a", 4097, in)}, "SecurityRuleInvalidPriority"},
		{"too many rules", func() []*armnetwork.SecurityRule {
			var rs []*armnetwork.SecurityRule
			for i := range 1001 {
				rs = append(rs, secRule(fmt.Sprintf("r%d", i), int32(100+i), in))
			}
			return rs
		}(), "SecurityRulesCountLimitReached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := en.putNSG("bad", tt.rules...)
			wantCode(t, err, tt.code, http.StatusBadRequest)
		})
	}

	rules := en.net.NewSecurityRulesClient()
	_, err = rules.BeginCreateOrUpdate(en.ctx, testRG, "svc", "c", *secRule("c", 100, in), nil)
	wantCode(t, err, "SecurityRuleConflict", http.StatusBadRequest)
	p, err := rules.BeginCreateOrUpdate(en.ctx, testRG, "svc", "c", *secRule("c", 101, in), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.PollUntilDone(en.ctx, en.poll)
	if err != nil {
		t.Fatal(err)
	}
	if *c.ID != id("networkSecurityGroups", "svc")+"/securityRules/c" {
		t.Fatalf("rule id %s", *c.ID)
	}
	pager := rules.NewListPager(testRG, "svc", nil)
	page, err := pager.NextPage(en.ctx)
	if err != nil || len(page.Value) != 3 {
		t.Fatalf("list: %v %d", err, len(page.Value))
	}
	d, err := rules.BeginDelete(en.ctx, testRG, "svc", "a", nil)
	if err == nil {
		_, err = d.PollUntilDone(en.ctx, en.poll)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, err = rules.Get(en.ctx, testRG, "svc", "a", nil)
	wantCode(t, err, "NotFound", http.StatusNotFound)
}
