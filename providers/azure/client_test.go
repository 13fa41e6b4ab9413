package azure

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestNewAzureNeedsSubscription(t *testing.T) {
	if _, err := NewAzure(context.Background(), AzureOptions{}); err == nil {
		t.Error("NewAzure accepted an empty subscription")
	}
}

func TestDescribeAzure(t *testing.T) {
	tests := []struct{ cloud, endpoint, want string }{
		{"", "", "Azure (AzurePublicCloud, subscription s)"},
		{"AzureChinaCloud", "", "Azure (AzureChinaCloud, subscription s)"},
		{"AzureStackCloud", "https://management.local.azurestack.external/", "Azure (AzureStackCloud at https://management.local.azurestack.external, subscription s)"},
	}
	for _, tt := range tests {
		if got := DescribeAzure(tt.cloud, tt.endpoint, "s"); got != tt.want {
			t.Errorf("DescribeAzure(%q, %q) = %q, want %q", tt.cloud, tt.endpoint, got, tt.want)
		}
	}
}

// TestCredentialErrorNamesSources: every credential DefaultAzureCredential
// tried gets its own line, continuation lines joined, and the SDK's error
// stays reachable.
func TestCredentialErrorNamesSources(t *testing.T) {
	cause := errors.New("DefaultAzureCredential: failed to acquire a token.\nAttempted credentials:\n" +
		"\tEnvironmentCredential: missing environment variable AZURE_TENANT_ID\n" +
		"\tManagedIdentityCredential: managed identity timed out.\n\t\tSee the troubleshooting guide\n" +
		"\tAzureCLICredential: Azure CLI not found on path")
	err := error(&credentialError{target: "Azure (AzurePublicCloud, subscription s)",
		tried: triedSources(sourced{source: "DefaultAzureCredential", chain: true}, cause), err: cause})
	want := "Azure (AzurePublicCloud, subscription s): no usable Azure credentials. Tried:\n" +
		"  - azure.json: no credential keys set (useFederatedWorkloadIdentityExtension, useManagedIdentityExtension, aadClientSecret, aadClientCertPath), so DefaultAzureCredential:\n" +
		"    - EnvironmentCredential: missing environment variable AZURE_TENANT_ID\n" +
		"    - ManagedIdentityCredential: managed identity timed out. See the troubleshooting guide\n" +
		"    - AzureCLICredential: Azure CLI not found on path\n" + credentialHint
	if got := err.Error(); got != want {
		t.Errorf("message:\n%s\nwant:\n%s", got, want)
	}
	if !errors.Is(err, cause) {
		t.Error("the SDK's full explanation is not reachable with errors.Is")
	}
	one := triedSources(sourced{source: "client secret (aadClientId c, tenantId t)"}, errors.New("ClientSecretCredential: AADSTS7000215: invalid secret\nmore"))
	if len(one) != 1 || !strings.HasPrefix(one[0], "client secret (aadClientId c, tenantId t): ClientSecretCredential: AADSTS7000215") {
		t.Errorf("single credential: %q", one)
	}
}
