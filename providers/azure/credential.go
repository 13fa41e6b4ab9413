package azure

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// Credentials say how to authenticate to ARM, in azure.json's terms
// (cluster.Auth). Printing them never shows a secret.
type Credentials struct {
	TenantID               string
	ClientID               string
	ClientSecret           string
	ClientCertPath         string
	ClientCertPassword     string
	UseManagedIdentity     bool
	UserAssignedIdentityID string
	FederatedTokenFile     string
	UseWorkloadIdentity    bool
}

func (c Credentials) String() string {
	return fmt.Sprintf("{tenant %q, client %q, secret set %v, managed identity %v %q, token file %q}",
		c.TenantID, c.ClientID, c.ClientSecret != "", c.UseManagedIdentity, c.UserAssignedIdentityID, c.FederatedTokenFile)
}

// GoString keeps %#v from printing the secrets.
func (c Credentials) GoString() string { return c.String() }

// Environment variables CCM lets override azure.json; the workload identity
// webhook injects them (CCM pkg/azclient auth_conf.go, arm_conf.go).
const (
	envClientID           = "AZURE_CLIENT_ID"
	envClientSecret       = "AZURE_CLIENT_SECRET"
	envTenantID           = "AZURE_TENANT_ID"
	envFederatedTokenFile = "AZURE_FEDERATED_TOKEN_FILE"
)

// withEnv applies those overrides: a set variable wins over azure.json, and
// AZURE_FEDERATED_TOKEN_FILE turns workload identity on.
func (c Credentials) withEnv(getenv func(string) string) Credentials {
	if getenv == nil {
		getenv = os.Getenv
	}
	set := func(dst *string, name string) {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	set(&c.ClientID, envClientID)
	set(&c.ClientSecret, envClientSecret)
	set(&c.TenantID, envTenantID)
	if f := getenv(envFederatedTokenFile); f != "" {
		c.FederatedTokenFile, c.UseWorkloadIdentity = f, true
	}
	return c
}

// sourced is a credential and the words that name where it came from, for
// errors: "managed identity (user-assigned client ID …)".
type sourced struct {
	cred   azcore.TokenCredential
	source string
	// chain is set for DefaultAzureCredential, whose error lists each
	// credential it tried.
	chain bool
}

// newCredential picks the one credential CCM would use (pkg/azclient
// auth.go NewAuthProvider, a switch, not a chain): workload identity when a
// federated token file is configured or injected, else managed identity,
// else a client secret, else a client certificate. When azure.json
// configures none, azsvc (unlike CCM, which stops there) uses
// DefaultAzureCredential, so `az login` and the AZURE_* variables work.
// Instance discovery is off for an Azure Stack Hub style cloud, whose
// authority Microsoft Entra does not know (azidentity's own advice).
func newCredential(c Credentials, o azcore.ClientOptions, customCloud bool) (sourced, error) {
	var s sourced
	var err error
	switch {
	case c.UseWorkloadIdentity:
		s.source = "workload identity (token file " + orUnset(c.FederatedTokenFile) + ")"
		s.cred, err = azidentity.NewWorkloadIdentityCredential(&azidentity.WorkloadIdentityCredentialOptions{
			ClientOptions: o, ClientID: c.ClientID, TenantID: c.TenantID, TokenFilePath: c.FederatedTokenFile,
			DisableInstanceDiscovery: customCloud,
		})
	case c.UseManagedIdentity:
		s.source, s.cred, err = managedIdentity(c, o)
	case c.ClientSecret != "":
		s.source = "client secret (aadClientId " + orUnset(c.ClientID) + ", tenantId " + orUnset(c.TenantID) + ")"
		s.cred, err = azidentity.NewClientSecretCredential(c.TenantID, c.ClientID, c.ClientSecret,
			&azidentity.ClientSecretCredentialOptions{ClientOptions: o, DisableInstanceDiscovery: customCloud})
	case c.ClientCertPath != "":
		s.source = "client certificate (aadClientCertPath " + c.ClientCertPath + ", aadClientId " + orUnset(c.ClientID) + ")"
		s.cred, err = clientCertificate(c, o, customCloud)
	default:
		s.source, s.chain = "DefaultAzureCredential", true
		s.cred, err = azidentity.NewDefaultAzureCredential(&azidentity.DefaultAzureCredentialOptions{
			ClientOptions: o, TenantID: c.TenantID, DisableInstanceDiscovery: customCloud,
		})
	}
	if err != nil {
		return s, fmt.Errorf("%s: %w", s.source, err)
	}
	return s, nil
}

// managedIdentity follows CCM: userAssignedIdentityID is a resource ID when
// it contains /subscriptions/, otherwise a client ID.
func managedIdentity(c Credentials, o azcore.ClientOptions) (string, azcore.TokenCredential, error) {
	// The SDK's IMDS retries wait for minutes in all; a CLI off Azure
	// should hear "no managed identity here" in seconds. IMDS itself
	// answers in milliseconds.
	if o.Retry.MaxRetries == 0 && o.Retry.TryTimeout == 0 {
		o.Retry = policy.RetryOptions{MaxRetries: 2, TryTimeout: 3 * time.Second, RetryDelay: 500 * time.Millisecond, MaxRetryDelay: 2 * time.Second}
	}
	opts := &azidentity.ManagedIdentityCredentialOptions{ClientOptions: o}
	source := "managed identity (system-assigned)"
	switch id := c.UserAssignedIdentityID; {
	case id == "":
	case strings.Contains(strings.ToUpper(id), "/SUBSCRIPTIONS/"):
		opts.ID = azidentity.ResourceID(id)
		source = "managed identity (user-assigned resource ID " + id + ")"
	default:
		opts.ID = azidentity.ClientID(id)
		source = "managed identity (user-assigned client ID " + id + ")"
	}
	cred, err := azidentity.NewManagedIdentityCredential(opts)
	return source, cred, err
}

func clientCertificate(c Credentials, o azcore.ClientOptions, customCloud bool) (azcore.TokenCredential, error) {
	data, err := os.ReadFile(c.ClientCertPath)
	if err != nil {
		return nil, fmt.Errorf("read the client certificate: %w", err)
	}
	certs, key, err := azidentity.ParseCertificates(data, []byte(c.ClientCertPassword))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.ClientCertPath, err)
	}
	return azidentity.NewClientCertificateCredential(c.TenantID, c.ClientID, certs, key,
		&azidentity.ClientCertificateCredentialOptions{ClientOptions: o, SendCertificateChain: true, DisableInstanceDiscovery: customCloud})
}

func orUnset(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

// credentialError says which credentials were tried for which target and
// why each failed, one per line. The SDK's full error stays reachable
// through Unwrap.
type credentialError struct {
	target          string
	tried           []string
	err             error
	managedIdentity bool // azure.json chose managed identity
}

func (e *credentialError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: no usable Azure credentials. Tried:", e.target)
	for _, t := range e.tried {
		if sub, ok := strings.CutPrefix(t, "  "); ok {
			b.WriteString("\n    - " + sub)
		} else {
			b.WriteString("\n  - " + t)
		}
	}
	if e.managedIdentity {
		b.WriteString("\n" + managedIdentityHint)
	}
	b.WriteString("\n" + credentialHint)
	return b.String()
}

func (e *credentialError) Unwrap() error { return e.err }

// managedIdentityHint explains the usual managed identity failure: an
// AKS node's azure.json used elsewhere.
const managedIdentityHint = "azure.json sets useManagedIdentityExtension, and managed identity answers only on an Azure host " +
	"(VM, scale set, AKS node); elsewhere, use a copy of azure.json without it."

// credentialHint is printed when no Azure credential works.
const credentialHint = "Log in with `az login`, set AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET, " +
	"or set azure.json's credential keys (aadClientId and aadClientSecret, useManagedIdentityExtension, " +
	"aadFederatedTokenFile); or choose the local emulator with --target emulator."

// triedSources lists what a failed credential tried: each credential of
// DefaultAzureCredential's chain (its error has one "\t<Name>: why" line
// each), or the one credential azure.json selected.
func triedSources(s sourced, err error) []string {
	msg := err.Error()
	if s.chain {
		var out []string
		_, list, found := strings.Cut(msg, "Attempted credentials:")
		for _, line := range strings.Split(list, "\n") {
			switch {
			case !found:
			case strings.HasPrefix(line, "\t\t") && len(out) > 0:
				out[len(out)-1] += " " + strings.TrimSpace(line)
			case strings.TrimSpace(line) != "":
				out = append(out, strings.TrimSpace(line))
			}
		}
		if len(out) > 0 {
			return append([]string{"azure.json: no credential keys set (useFederatedWorkloadIdentityExtension, " +
				"useManagedIdentityExtension, aadClientSecret, aadClientCertPath), so DefaultAzureCredential:"}, subItems(out)...)
		}
	}
	return []string{s.source + ": " + reason(err)}
}

// reason is one line saying why a credential failed: the token endpoint's
// error and description when it answered (its body never holds the
// secret), else the first line of the SDK's message.
func reason(err error) string {
	first, _, _ := strings.Cut(err.Error(), "\n")
	if errors.Is(err, context.DeadlineExceeded) {
		return "no token before the time limit (" + strings.TrimSpace(first) + ")"
	}
	var afe *azidentity.AuthenticationFailedError
	if !errors.As(err, &afe) || afe.RawResponse == nil {
		return strings.TrimSpace(first)
	}
	body, _ := runtime.Payload(afe.RawResponse)
	var answer struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &answer) != nil || answer.Error == "" {
		return fmt.Sprintf("%s (HTTP %d)", strings.TrimSpace(first), afe.RawResponse.StatusCode)
	}
	desc, _, _ := strings.Cut(answer.Description, "\n")
	return fmt.Sprintf("%s: %s %s", strings.TrimSuffix(strings.TrimSpace(first), "."), answer.Error, strings.TrimSpace(desc))
}

func subItems(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "  " + l
	}
	return out
}
