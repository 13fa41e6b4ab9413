package azure_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// fakeCloud is an Azure Stack Hub style cloud on one loopback TLS server:
// ARM metadata, a Microsoft Entra style token endpoint, an App Service style
// managed identity endpoint, and the emulator as ARM, which refuses any
// request without the token the endpoint issued. Nothing leaves loopback:
// the client dials only loopback addresses.
type fakeCloud struct {
	srv    *httptest.Server
	client *http.Client
	emu    *emulator.Emulator

	mu      sync.Mutex
	grants  []url.Values // token requests, form or query
	armAuth []string     // Authorization headers of ARM requests
	reject  bool         // answer token requests 401 invalid_client
}

const (
	fakeTenant   = "72f988bf-0000-0000-0000-000000000001"
	fakeAudience = "https://management.azsvc.test/3c2c4bd3-0000"
	fakeToken    = "issued-by-loopback"
)

func newFakeCloud(t *testing.T) *fakeCloud {
	t.Helper()
	emu, err := emulator.Open(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	if err := emu.EnsureBaseline(sub, rg, location, "aks-vnet", "10.224.0.0/12", map[string]string{"aks-subnet": "10.224.0.0/16"}, "aks-agentpool-nsg"); err != nil {
		t.Fatal(err)
	}
	fc := &fakeCloud{emu: emu}
	arm := emu.Guarded(fakeToken)
	fc.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "https://" + r.Host
		switch p := r.URL.Path; {
		case p == "/metadata/endpoints":
			writeJSON(w, http.StatusOK, map[string]any{"authentication": map[string]any{
				"loginEndpoint": base + "/", "audiences": []string{fakeAudience}}})
		case p == "/"+fakeTenant+"/v2.0/.well-known/openid-configuration":
			writeJSON(w, http.StatusOK, map[string]string{
				"token_endpoint":         base + "/" + fakeTenant + "/oauth2/v2.0/token",
				"authorization_endpoint": base + "/" + fakeTenant + "/oauth2/v2.0/authorize",
				"issuer":                 base + "/" + fakeTenant + "/v2.0",
			})
		case p == "/"+fakeTenant+"/oauth2/v2.0/token":
			_ = r.ParseForm()
			fc.token(w, r.PostForm)
		case p == "/msi/token":
			q := r.URL.Query()
			q.Set("x-identity-header", r.Header.Get("X-IDENTITY-HEADER"))
			fc.token(w, q)
		default:
			fc.mu.Lock()
			fc.armAuth = append(fc.armAuth, r.Header.Get("Authorization"))
			fc.mu.Unlock()
			arm.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(fc.srv.Close)
	tr := fc.srv.Client().Transport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(addr)
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			return nil, fmt.Errorf("test refuses to dial %s: loopback only", addr)
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	fc.client = &http.Client{Transport: tr}
	return fc
}

func (fc *fakeCloud) token(w http.ResponseWriter, v url.Values) {
	fc.mu.Lock()
	fc.grants = append(fc.grants, v)
	reject := fc.reject
	fc.mu.Unlock()
	if reject {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_client",
			"error_description": "AADSTS7000215: Invalid client secret provided.", "error_codes": []int{7000215}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"token_type": "Bearer", "access_token": fakeToken,
		"expires_in": 3600, "ext_expires_in": 3600, "resource": fakeAudience})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (fc *fakeCloud) open(t *testing.T, c azure.Credentials) (*azure.Provider, error) {
	t.Helper()
	return azure.NewAzure(context.Background(), azure.AzureOptions{
		Subscription:            sub,
		Cloud:                   "AzureStackCloud",
		ResourceManagerEndpoint: fc.srv.URL,
		Credentials:             c,
		Getenv:                  func(string) string { return "" },
		Transport:               fc.client,
		PollFrequency:           time.Millisecond,
	})
}

// TestCredentialsAgainstLoopbackCloud: each credential azure.json can
// select gets its token from the loopback token endpoint, and the ARM
// requests that follow carry exactly that token (the emulator refuses any
// other with 401).
func TestCredentialsAgainstLoopbackCloud(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "federated-token")
	if err := os.WriteFile(tokenFile, []byte("federated-jwt-from-kubelet"), 0o600); err != nil {
		t.Fatal(err)
	}
	certFile := writeClientCert(t, dir)
	tests := []struct {
		name  string
		c     azure.Credentials
		env   map[string]string
		grant map[string]string
	}{
		{"client secret", azure.Credentials{TenantID: fakeTenant, ClientID: "app-1", ClientSecret: "s3cret"}, nil,
			map[string]string{"grant_type": "client_credentials", "client_id": "app-1", "client_secret": "s3cret", "scope": fakeAudience + "/.default"}},
		{"workload identity", azure.Credentials{TenantID: fakeTenant, ClientID: "app-2", UseWorkloadIdentity: true, FederatedTokenFile: tokenFile}, nil,
			map[string]string{"grant_type": "client_credentials", "client_id": "app-2", "client_assertion": "federated-jwt-from-kubelet",
				"client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", "scope": fakeAudience + "/.default"}},
		{"client certificate", azure.Credentials{TenantID: fakeTenant, ClientID: "app-3", ClientCertPath: certFile}, nil,
			map[string]string{"grant_type": "client_credentials", "client_id": "app-3",
				"client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", "scope": fakeAudience + "/.default"}},
		// The App Service variables point managed identity at loopback
		// instead of the instance metadata address.
		{"managed identity", azure.Credentials{UseManagedIdentity: true, UserAssignedIdentityID: "mi-client-4"},
			map[string]string{"IDENTITY_ENDPOINT": "/msi/token", "IDENTITY_HEADER": "hdr"},
			map[string]string{"client_id": "mi-client-4", "resource": fakeAudience, "x-identity-header": "hdr"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := newFakeCloud(t)
			for k, v := range tt.env {
				if k == "IDENTITY_ENDPOINT" {
					v = fc.srv.URL + v
				}
				t.Setenv(k, v)
			}
			p, err := fc.open(t, tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Read(context.Background(), plan.ReadScope{Groups: map[plan.Kind][]plan.Group{plan.KindSecurityGroup: {{Name: rg}}}}); err != nil {
				t.Fatalf("read through ARM: %v", err)
			}
			fc.mu.Lock()
			defer fc.mu.Unlock()
			if len(fc.grants) == 0 {
				t.Fatal("no token request reached the loopback endpoint")
			}
			for k, want := range tt.grant {
				got := fc.grants[0].Get(k)
				if k == "scope" { // MSAL adds its own scopes after the one asked for
					got, _, _ = strings.Cut(got, " ")
				}
				if got != want {
					t.Errorf("token request %s = %q, want %q", k, got, want)
				}
			}
			if tt.c.ClientCertPath != "" && strings.Count(fc.grants[0].Get("client_assertion"), ".") != 2 {
				t.Errorf("client_assertion %q is not a signed JWT", fc.grants[0].Get("client_assertion"))
			}
			if len(fc.armAuth) == 0 {
				t.Fatal("no ARM request was made")
			}
			for _, h := range fc.armAuth {
				if h != "Bearer "+fakeToken {
					t.Errorf("ARM request carried %q, want the issued token", h)
				}
			}
			if want := "Azure (AzureStackCloud at " + fc.srv.URL + ", subscription " + sub + ")"; p.Target() != want {
				t.Errorf("target %q, want %q", p.Target(), want)
			}
		})
	}
}

// TestRejectedCredentialNamesItsSource: a token endpoint that refuses the
// secret fails NewAzure at once, naming the source but not the secret.
func TestRejectedCredentialNamesItsSource(t *testing.T) {
	fc := newFakeCloud(t)
	fc.reject = true
	_, err := fc.open(t, azure.Credentials{TenantID: fakeTenant, ClientID: "app-1", ClientSecret: "wrong-s3cret"})
	if err == nil {
		t.Fatal("a refused secret was accepted")
	}
	msg := err.Error()
	if !strings.Contains(msg, "no usable Azure credentials") || !strings.Contains(msg, "client secret (aadClientId app-1, tenantId "+fakeTenant+")") ||
		!strings.Contains(msg, "AADSTS7000215") || strings.Contains(msg, "wrong-s3cret") {
		t.Errorf("error:\n%s", msg)
	}
	if len(fc.armAuth) != 0 {
		t.Errorf("ARM was called without a token: %q", fc.armAuth)
	}
}

// writeClientCert writes a self-signed certificate and its key as one PEM
// file, the form aadClientCertPath may name.
func writeClientCert(t *testing.T, dir string) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "azsvc-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	data = append(data, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})...)
	path := filepath.Join(dir, "client.pem")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
