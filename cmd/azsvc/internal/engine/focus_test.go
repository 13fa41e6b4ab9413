package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestFocusOf: each criterion narrows the focus whatever the order of the
// Services in the input (a --service matched early once let every later
// Service through).
func TestFocusOf(t *testing.T) {
	cfg := exampleConfig(t)
	var docs []string
	for _, s := range []struct{ ns, name, tier string }{
		{"shop", "web", "front"}, {"shop", "cart", "back"}, {"pay", "ledger", "back"}, {"default", "echo", "front"},
	} {
		docs = append(docs, "apiVersion: v1\nkind: Service\nmetadata:\n  name: "+s.name+"\n  namespace: "+s.ns+
			"\n  labels: {tier: "+s.tier+"}\nspec:\n  type: LoadBalancer\n  ports: [{port: 80, nodePort: 30080}]\n")
	}
	svcs := mustInputs(t, cfg, []byte(strings.Join(docs, "---\n")), false).Service.Services
	tests := []struct {
		name  string
		focus Focus
		want  []string
		err   string
	}{
		{"first Service", Focus{Services: []string{"shop/web"}}, []string{"shop/web"}, ""},
		{"middle Service", Focus{Services: []string{"shop/cart"}}, []string{"shop/cart"}, ""},
		{"bare name is default/", Focus{Services: []string{"echo"}}, []string{"default/echo"}, ""},
		{"two Services", Focus{Services: []string{"pay/ledger", "shop/web"}}, []string{"pay/ledger", "shop/web"}, ""},
		{"namespace", Focus{Namespace: "shop"}, []string{"shop/cart", "shop/web"}, ""},
		{"selector", Focus{Selector: "tier=back"}, []string{"pay/ledger", "shop/cart"}, ""},
		{"namespace and selector", Focus{Namespace: "shop", Selector: "tier=front"}, []string{"shop/web"}, ""},
		{"unknown Service", Focus{Services: []string{"shop/web", "shop/nope"}}, nil, "--service shop/nope: no such Service"},
		{"nothing matches", Focus{Namespace: "pay", Selector: "tier=front"}, nil, "no Service of the input matches -n pay -l tier=front"},
		{"bad selector", Focus{Selector: "tier in (a"}, nil, `-l "tier in (a"`},
		{"not set", Focus{}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := focusOf(svcs, tt.focus)
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
