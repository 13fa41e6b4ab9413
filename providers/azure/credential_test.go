package azure

import (
	"fmt"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
)

// TestCredentialChoice follows CCM's switch (pkg/azclient auth.go
// NewAuthProvider): workload identity, then managed identity, then a client
// secret, then a certificate; DefaultAzureCredential only when azure.json
// configures none. Constructing credentials makes no request.
func TestCredentialChoice(t *testing.T) {
	tests := []struct {
		name string
		c    Credentials
		env  map[string]string
		want string
	}{
		{"nothing configured", Credentials{}, nil, "DefaultAzureCredential"},
		{"managed identity, system-assigned", Credentials{UseManagedIdentity: true, ClientSecret: "msi", ClientID: "msi"}, nil,
			"managed identity (system-assigned)"},
		{"managed identity, client ID", Credentials{UseManagedIdentity: true, UserAssignedIdentityID: "1234"}, nil,
			"managed identity (user-assigned client ID 1234)"},
		{"managed identity, resource ID", Credentials{UseManagedIdentity: true, UserAssignedIdentityID: "/subscriptions/s/resourceGroups/r/providers/Microsoft.ManagedIdentity/userAssignedIdentities/id"}, nil,
			"managed identity (user-assigned resource ID /subscriptions/s/"},
		{"client secret", Credentials{TenantID: "t", ClientID: "c", ClientSecret: "s3cret"}, nil,
			"client secret (aadClientId c, tenantId t)"},
		{"workload identity wins over managed identity", Credentials{UseWorkloadIdentity: true, FederatedTokenFile: "/tok", UseManagedIdentity: true, TenantID: "t", ClientID: "c"}, nil,
			"workload identity (token file /tok)"},
		{"webhook's token file turns workload identity on", Credentials{UseManagedIdentity: true}, map[string]string{envFederatedTokenFile: "/var/run/tok", envClientID: "c", envTenantID: "t"},
			"workload identity (token file /var/run/tok)"},
		{"AZURE_CLIENT_SECRET selects a client secret", Credentials{}, map[string]string{envClientSecret: "s3cret", envClientID: "c", envTenantID: "t"},
			"client secret (aadClientId c, tenantId t)"},
		{"a token file set without useFederatedWorkloadIdentityExtension is not used (CCM)", Credentials{FederatedTokenFile: "/tok"}, nil,
			"DefaultAzureCredential"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c.withEnv(func(k string) string { return tt.env[k] })
			s, err := newCredential(c, azcore.ClientOptions{Cloud: cloud.AzurePublic}, false)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(s.source, tt.want) {
				t.Errorf("source %q, want %q", s.source, tt.want)
			}
			if strings.Contains(s.source, "s3cret") {
				t.Errorf("source names the secret: %q", s.source)
			}
		})
	}
}

func TestCredentialConstructionErrors(t *testing.T) {
	_, err := newCredential(Credentials{ClientCertPath: "/nonexistent/cert.pem", ClientID: "c", TenantID: "t"}, azcore.ClientOptions{}, false)
	if err == nil || !strings.Contains(err.Error(), "client certificate (aadClientCertPath /nonexistent/cert.pem") {
		t.Errorf("err = %v, want it to name the certificate source", err)
	}
}

func TestCredentialsNeverPrintSecrets(t *testing.T) {
	c := Credentials{ClientSecret: "s3cret", ClientCertPassword: "p4ss"}
	for _, out := range []string{fmt.Sprint(c), fmt.Sprintf("%v %+v %#v %s", c, c, c, c)} {
		if strings.Contains(out, "s3cret") || strings.Contains(out, "p4ss") {
			t.Errorf("printed a secret: %s", out)
		}
	}
}
