package service

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNameRules(t *testing.T) {
	tests := []struct {
		rule  func(string) string
		value string
		ok    bool
	}{
		{ResourceNameProblem, "web-pip_1.v4", true},
		{ResourceNameProblem, "_x_", true},
		{ResourceNameProblem, strings.Repeat("a", 80), true},
		{ResourceNameProblem, strings.Repeat("a", 81), false},
		{ResourceNameProblem, "", false},
		{ResourceNameProblem, "-web", false},
		{ResourceNameProblem, "web.", false},
		{ResourceNameProblem, "a/b", false},
		{ResourceNameProblem, "..", false},
		{ResourceNameProblem, "a%2Fb", false},
		{ResourceNameProblem, "a?b", false},
		{ResourceNameProblem, "a#b", false},
		{ResourceNameProblem, "café", false},
		{ResourceNameProblem, "a\x00b", false},
		{ResourceGroupProblem, "MC_rg-prod_(weu).1", true},
		{ResourceGroupProblem, strings.Repeat("r", 90), true},
		{ResourceGroupProblem, strings.Repeat("r", 91), false},
		{ResourceGroupProblem, "rg.", false},
		{ResourceGroupProblem, "/../../x", false},
		{ResourceGroupProblem, "rg x", false},
		{DNSLabelProblem, "shop-42", true},
		{DNSLabelProblem, "abc", true},
		{DNSLabelProblem, "ab", false},
		{DNSLabelProblem, strings.Repeat("a", 63), true},
		{DNSLabelProblem, strings.Repeat("a", 64), false},
		{DNSLabelProblem, "Shop", false},
		{DNSLabelProblem, "9shop", false},
		{DNSLabelProblem, "shop-", false},
		{DNSLabelProblem, "sh_op", false},
		{DNSLabelProblem, strings.Repeat("x", 5<<20), false},
		{PublicIPPrefixIDProblem, "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/publicIPPrefixes/p1", true},
		{PublicIPPrefixIDProblem, "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/publicIPPrefixes/p1", false},
		{PublicIPPrefixIDProblem, "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/publicIPPrefixes/p1/../x", false},
		{PublicIPPrefixIDProblem, "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/p1", false},
		{FQDNProblem, "api.partner.contoso.com", true},
		{FQDNProblem, "api..contoso.com", false},
		{FQDNProblem, "-api.contoso.com", false},
		{FQDNProblem, "api.contoso.com,", false},
		{TagKeyProblem, "cost-center", true},
		{TagKeyProblem, "a/b", false},
		{TagKeyProblem, strings.Repeat("k", 513), false},
		{TagValueProblem, "José", true},
		{TagValueProblem, "a\x1b", false},
		{TagValueProblem, "\xff", false},
		{ServiceTagProblem, "AzureFrontDoor.Backend", true},
		{ServiceTagProblem, "", false},
		{ServiceTagProblem, "Internet AzureCloud", false},
		{RequestPathProblem, "/healthz?full=1", true},
		{RequestPathProblem, "/health z", false},
		{qualifiedNameProblem, "service.beta.kubernetes.io/azure-load-balancer-internal", true},
		{qualifiedNameProblem, "app", true},
		{qualifiedNameProblem, "Service.Beta/x", false},
		{qualifiedNameProblem, "a/-x", false},
		{qualifiedNameProblem, "a/b/c", false},
	}
	for _, tt := range tests {
		p := tt.rule(tt.value)
		if (p == "") != tt.ok {
			t.Errorf("%.60q: problem %q, want ok=%v", tt.value, p, tt.ok)
		}
		if len(p) > 400 {
			t.Errorf("%.60q: a %d-byte message", tt.value, len(p))
		}
	}
}

// FuzzNameRules: a value the name rules accept is the same bytes in a URL
// path segment (nothing to escape, no separator, no dot segment) and is
// plain ASCII; a refused one gets a short message.
func FuzzNameRules(f *testing.F) {
	for _, s := range []string{"web", "a/../b", "x%2Fy", "rg(1).", "ü", "a\x1b", "..", "Shop"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		for _, rule := range []func(string) string{ResourceNameProblem, ResourceGroupProblem, DNSLabelProblem} {
			p := rule(v)
			if p != "" {
				if len(p) > 400 || !utf8.ValidString(p) {
					t.Fatalf("%q: message %q", v, p)
				}
				continue
			}
			if strings.ContainsAny(v, "/\\%?# ") || v == "." || v == ".." {
				t.Fatalf("%q accepted but it changes a URL", v)
			}
			if esc := url.PathEscape(v); strings.Contains(esc, "%") && !strings.ContainsAny(v, "()") {
				t.Fatalf("%q accepted but escapes to %q", v, esc)
			}
			for i := 0; i < len(v); i++ {
				if v[i] < 0x21 || v[i] > 0x7e {
					t.Fatalf("%q accepted with byte %#x", v, v[i])
				}
			}
		}
	})
}
