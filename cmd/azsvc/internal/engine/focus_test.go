package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/service"
)

// TestFocusOf: each criterion narrows the focus whatever the order of the
// Services in the input (a --service matched early once let every later
// Service through).
func TestFocusOf(t *testing.T) {
	var docs []string
	for _, s := range []struct{ ns, name, tier string }{
		{"shop", "web", "front"}, {"shop", "cart", "back"}, {"pay", "ledger", "back"}, {"default", "echo", "front"},
	} {
		docs = append(docs, "apiVersion: v1\nkind: Service\nmetadata:\n  name: "+s.name+"\n  namespace: "+s.ns+
			"\n  labels: {tier: "+s.tier+"}\nspec:\n  type: LoadBalancer\n  ports: [{port: 80, nodePort: 30080}]\n")
	}
	subnet := "/subscriptions/5c7d9e1f-2a3b-4c5d-8e9f-0a1b2c3d4e5f/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/s"
	for _, ep := range []struct{ ns, name, target string }{
		{"shop", "web", "service: web"}, // the Service's own name
		{"pay", "consumer", "privateLinkServiceID: pls-x.0f2e6a8c-1d35-4e59-9b7d-4d2b8f6e1c3a.westeurope.azure.privatelinkservice"},
	} {
		docs = append(docs, "apiVersion: azsvc.io/v1alpha1\nkind: PrivateEndpoint\nmetadata: {name: "+ep.name+", namespace: "+ep.ns+
			"}\nspec:\n  "+ep.target+"\n  subnetID: "+subnet+"\n")
	}
	in := service.Decode("in.yaml", []byte(strings.Join(docs, "---\n")))
	if len(in.Diagnostics) > 0 || len(in.Services) != 4 || len(in.Endpoints) != 2 {
		t.Fatalf("decoded %d Services, %d endpoints, diagnostics %v", len(in.Services), len(in.Endpoints), in.Diagnostics)
	}
	tests := []struct {
		name  string
		focus Focus
		want  []string
		err   string
	}{
		{"first Service and its endpoint", Focus{Services: []string{"shop/web"}}, []string{"PrivateEndpoint/shop/web", "shop/web"}, ""},
		{"an endpoint by name", Focus{Services: []string{"pay/consumer"}}, []string{"PrivateEndpoint/pay/consumer"}, ""},
		{"a saved plan's endpoint owner", Focus{Services: []string{"PrivateEndpoint/pay/consumer"}}, []string{"PrivateEndpoint/pay/consumer"}, ""},
		{"middle Service", Focus{Services: []string{"shop/cart"}}, []string{"shop/cart"}, ""},
		{"bare name is default/", Focus{Services: []string{"echo"}}, []string{"default/echo"}, ""},
		{"two Services", Focus{Services: []string{"pay/ledger", "shop/web"}}, []string{"PrivateEndpoint/shop/web", "pay/ledger", "shop/web"}, ""},
		{"namespace", Focus{Namespace: "shop"}, []string{"PrivateEndpoint/shop/web", "shop/cart", "shop/web"}, ""},
		{"namespace of an endpoint alone", Focus{Namespace: "pay"}, []string{"PrivateEndpoint/pay/consumer", "pay/ledger"}, ""},
		{"selector", Focus{Selector: "tier=back"}, []string{"pay/ledger", "shop/cart"}, ""},
		{"namespace and selector", Focus{Namespace: "shop", Selector: "tier=front"}, []string{"PrivateEndpoint/shop/web", "shop/web"}, ""},
		{"unknown Service", Focus{Services: []string{"shop/web", "shop/nope"}}, nil, "--service shop/nope: no such Service or PrivateEndpoint"},
		{"nothing matches", Focus{Namespace: "pay", Selector: "tier=front"}, nil, "no Service of the input matches -n pay -l tier=front"},
		{"bad selector", Focus{Selector: "tier in (a"}, nil, `-l "tier in (a"`},
		{"not set", Focus{}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := focusOf(in, tt.focus)
			var fe *FocusError
			switch {
			case tt.err != "" && (!errors.As(err, &fe) || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("error %v, want a FocusError containing %q", err, tt.err)
			case tt.err == "" && err != nil:
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("focus %v, want %v", got, tt.want)
			}
		})
	}
}
