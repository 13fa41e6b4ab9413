package resolve

import (
	"testing"

	"github.com/azsvc/azsvc/plan"
)

// A block naming something missing offers what the plan read nearest to
// it (issue 22 item 4: the subnet typo ilb-subnt, with ilb-subnet in the
// VNet, said nothing).
func TestSuggestFromWhatThePlanRead(t *testing.T) {
	observed := plan.NewState()
	vnet := plan.NewID("sub", "rg", plan.KindVirtualNetwork, "aks-vnet")
	other := plan.NewID("sub", "rg", plan.KindVirtualNetwork, "other-vnet")
	for _, id := range []plan.ID{plan.ChildID(vnet, plan.KindSubnet, "ilb-subnet"), plan.ChildID(vnet, plan.KindSubnet, "aks-subnet"),
		plan.ChildID(other, plan.KindSubnet, "pls-nat-a")} {
		observed.Put(&plan.Resource{ID: id})
	}
	observed.Put(&plan.Resource{ID: plan.NewID("sub", "rg", plan.KindPublicIP, "ingress-pip"), Properties: map[string]any{"ipAddress": "20.62.13.8"}})
	observed.Put(&plan.Resource{ID: plan.NewID("sub", "other-rg", plan.KindPublicIP, "outbound-x7")})
	observed.Put(&plan.Resource{ID: plan.NewID("sub", "rg", plan.KindPublicIPPrefix, "ingress-prefix")})
	for _, tt := range []struct {
		name string
		b    plan.Blocked
		want string
	}{
		{"subnet typo", plan.Blocked{Code: plan.BlockSubnetMissing, Value: "ilb-subnt", Other: "aks-vnet", Group: "rg"}, "ilb-subnet"},
		{"subnet of another vnet", plan.Blocked{Code: plan.BlockSubnetMissing, Value: "pls-nat-b", Other: "aks-vnet", Group: "rg"}, ""},
		{"subnet case", plan.Blocked{Code: plan.BlockSubnetMissing, Value: "ilb-subnt", Other: "AKS-VNET", Group: "RG"}, "ilb-subnet"},
		{"nothing near", plan.Blocked{Code: plan.BlockSubnetMissing, Value: "database", Other: "aks-vnet", Group: "rg"}, ""},
		// Two edits apart, but another subnet, not a typo of it.
		{"another name of the same shape", plan.Blocked{Code: plan.BlockSubnetMissing, Value: "pls-subnet", Other: "aks-vnet", Group: "rg"}, ""},
		{"public IP name", plan.Blocked{Code: plan.BlockUserPIPMissing, Value: "ingres-pip", Group: "rg"}, "ingress-pip"},
		{"two letters swapped", plan.Blocked{Code: plan.BlockUserPIPMissing, Value: "ingerss-pip", Group: "rg"}, "ingress-pip"},
		{"public IP of another group", plan.Blocked{Code: plan.BlockUserPIPMissing, Value: "outbound-x8", Group: "rg"}, ""},
		{"prefix", plan.Blocked{Code: plan.BlockPIPPrefixMissing, Value: "ingress-prefx", Group: "rg"}, "ingress-prefix"},
		{"pinned address", plan.Blocked{Code: plan.BlockPinnedIPNotFound, Value: "20.62.13.9", Group: "rg"}, "20.62.13.8"},
		{"code naming nothing missing", plan.Blocked{Code: plan.BlockDeleteInUse, Value: "ilb-subnt", Other: "aks-vnet", Group: "rg"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Suggest([]plan.Blocked{tt.b}, observed)
			if got[0].Suggestion != tt.want {
				t.Errorf("suggestion %q, want %q", got[0].Suggestion, tt.want)
			}
		})
	}
}
