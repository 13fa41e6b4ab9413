package cluster

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Auth is how CCM authenticates to ARM: azure.json's credential and cloud
// keys (CCM pkg/azclient auth_conf.go, cloud.go). azsvc reads them the same
// way; the SDK work lives in providers/azure.
type Auth struct {
	// Cloud is azure.json's "cloud"; see CloudName.
	Cloud    string `json:"cloud"`
	TenantID string `json:"tenantId"`
	// ClientID and ClientSecret are aadClientId and aadClientSecret.
	ClientID     string `json:"aadClientId"`
	ClientSecret Secret `json:"aadClientSecret"`
	// ClientCertPath and ClientCertPassword are aadClientCertPath and
	// aadClientCertPassword (a PKCS#12 or PEM file).
	ClientCertPath     string `json:"aadClientCertPath"`
	ClientCertPassword Secret `json:"aadClientCertPassword"`
	// UseManagedIdentity is useManagedIdentityExtension; with
	// UserAssignedIdentityID (a client ID, or a resource ID) the
	// user-assigned identity is used instead of the system-assigned one.
	UseManagedIdentity     bool   `json:"useManagedIdentityExtension"`
	UserAssignedIdentityID string `json:"userAssignedIdentityID"`
	// FederatedTokenFile and UseWorkloadIdentity are aadFederatedTokenFile
	// and useFederatedWorkloadIdentityExtension.
	FederatedTokenFile  string `json:"aadFederatedTokenFile"`
	UseWorkloadIdentity bool   `json:"useFederatedWorkloadIdentityExtension"`
	// ResourceManagerEndpoint is an Azure Stack Hub style ARM endpoint
	// whose metadata names the login endpoint and token audience.
	ResourceManagerEndpoint string `json:"resourceManagerEndpoint"`
}

// Secret is a credential read from azure.json. It never prints: fmt and
// encoding/json show a placeholder; Reveal is the one way to read it.
type Secret string

const redacted = "[redacted]"

// Reveal returns the secret itself, for the credential that sends it.
func (s Secret) Reveal() string { return string(s) }

func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString keeps %#v from printing the value.
func (s Secret) GoString() string { return s.String() }

// MarshalJSON keeps any JSON rendering of a Config free of secrets.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + s.String() + `"`), nil }

// Canonical cloud names, as the plan header shows them.
const (
	CloudPublic       = "AzurePublicCloud"
	CloudChina        = "AzureChinaCloud"
	CloudUSGovernment = "AzureUSGovernmentCloud"
)

// cloudAliases are the values CCM accepts for "cloud", compared
// case-insensitively (pkg/azclient cloud.go EnvironmentMapping).
var cloudAliases = map[string]string{
	"":                       CloudPublic,
	"azurecloud":             CloudPublic,
	"azurepubliccloud":       CloudPublic,
	"azurechinacloud":        CloudChina,
	"azureusgovernment":      CloudUSGovernment,
	"azureusgovernmentcloud": CloudUSGovernment,
}

// CloudName is the canonical name of the configured cloud. With
// resourceManagerEndpoint set the cloud is whatever that endpoint
// describes, and the name is shown as written ("AzureStackCloud" by
// convention).
func (a *Auth) CloudName() string {
	if a.ResourceManagerEndpoint != "" {
		if a.Cloud == "" {
			return "custom cloud"
		}
		return a.Cloud
	}
	return cloudAliases[strings.ToLower(a.Cloud)]
}

// notes are remarks about credential keys CCM reads but does not use.
func (a *Auth) notes() []string {
	if a.FederatedTokenFile != "" && !a.UseWorkloadIdentity {
		// CCM pkg/azclient auth_conf.go GetAzureFederatedTokenFile.
		return []string{`azure.json: "aadFederatedTokenFile" is ignored without "useFederatedWorkloadIdentityExtension": true, as the cloud provider ignores it`}
	}
	return nil
}

func (a *Auth) check() error {
	if a.ResourceManagerEndpoint != "" {
		return checkEndpoint("resourceManagerEndpoint", a.ResourceManagerEndpoint)
	}
	if _, ok := cloudAliases[strings.ToLower(a.Cloud)]; !ok {
		return fmt.Errorf(`"cloud": invalid value %q (want one of %s, %s, %s; or set "resourceManagerEndpoint" for Azure Stack Hub)`,
			a.Cloud, CloudPublic, CloudChina, CloudUSGovernment)
	}
	return nil
}

// checkEndpoint is CheckEndpoint for an azure.json key.
func checkEndpoint(key, raw string) error {
	if err := CheckEndpoint(raw); err != nil {
		return fmt.Errorf("%q: %w", key, err)
	}
	return nil
}

// CheckEndpoint accepts an ARM endpoint: an https URL, or plain http to a
// loopback address (the bearer token must not cross a network in clear
// text), with no user info (a password would be printed in the plan's
// target and saved plans), query or fragment (request paths are appended
// to it).
func CheckEndpoint(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%q is not an http(s) URL", redactedURL(raw))
	}
	switch {
	case u.User != nil:
		return fmt.Errorf("%q carries user info: pass the token with --arm-token (or AZSVC_ARM_TOKEN), never in the URL", u.Redacted())
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return fmt.Errorf("%q has a query or fragment: give the endpoint's base URL only", raw)
	case u.Scheme == "http" && !IsLoopbackHost(u.Hostname()):
		return fmt.Errorf("%q must use https (plain http only to a loopback address)", raw)
	}
	return nil
}

// redactedURL hides a password in a URL that does not parse.
func redactedURL(raw string) string {
	if i := strings.Index(raw, "@"); i >= 0 {
		if j := strings.Index(raw, "://"); j >= 0 && j < i {
			return raw[:j+3] + "xxxxx" + raw[i:]
		}
	}
	return raw
}

// IsLoopbackHost reports whether host (no port) names this machine:
// localhost or a loopback address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
