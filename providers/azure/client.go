package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// Provider reads and writes one ARM target: Azure or an emulator.
type Provider struct {
	subscription  string
	target        string
	cred          azcore.TokenCredential
	options       arm.ClientOptions
	pollFrequency time.Duration
	limits        *rateLimits

	mu      sync.Mutex
	clients map[string]*clients // by lower-cased subscription
}

type clients struct {
	arm *armClient
}

// Target describes what the provider talks to, for the plan header.
func (p *Provider) Target() string { return p.target }

// Subscription is the default subscription of reads.
func (p *Provider) Subscription() string { return p.subscription }

// credentialHint is printed when no Azure credential works.
const credentialHint = "no usable Azure credentials: run `az login`, use workload identity, " +
	"or set AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET"

// NewAzure returns a provider for a real Azure subscription. It checks the
// credential up front by getting a token, so a missing login fails at once
// with a hint instead of on the first read.
func NewAzure(ctx context.Context, subscription string) (*Provider, error) {
	if subscription == "" {
		return nil, errors.New("azure: no subscription configured")
	}
	cred, err := azidentity.NewDefaultAzureCredential(nil)
	if err != nil {
		return nil, &credentialError{err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	scope := cloud.AzurePublic.Services[cloud.ResourceManager].Audience + "/.default"
	if _, err := cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: []string{scope}}); err != nil {
		return nil, &credentialError{err: err}
	}
	limits := &rateLimits{}
	return &Provider{
		subscription:  subscription,
		target:        "Azure subscription " + subscription,
		cred:          cred,
		options:       arm.ClientOptions{ClientOptions: policy.ClientOptions{PerRetryPolicies: []policy.Policy{limits}}},
		pollFrequency: 5 * time.Second,
		limits:        limits,
		clients:       map[string]*clients{},
	}, nil
}

// credentialError keeps the SDK's long, multi-line explanation reachable
// through Unwrap but prints as one line.
type credentialError struct{ err error }

func (e *credentialError) Error() string {
	first, _, _ := strings.Cut(e.err.Error(), "\n")
	return credentialHint + " (" + strings.TrimSpace(first) + ")"
}

func (e *credentialError) Unwrap() error { return e.err }

// EmulatorOptions configure a provider for an ARM emulator.
type EmulatorOptions struct {
	Subscription string
	// Endpoint is the emulator's base URL, e.g. https://emulator.azsvc.local
	// in process or http://127.0.0.1:8443 for `azsvc emulator serve`.
	Endpoint string
	// Transport carries requests in process; nil uses the network.
	Transport http.RoundTripper
	// Description completes the plan header, e.g. "state .azsvc/state.json".
	Description string
	// PollFrequency between long-running operation polls; zero means one
	// second, the SDK's minimum outside tests (arm-rules §3.2).
	PollFrequency time.Duration
	// RetryDelay is the first delay of the SDK's read retries; zero means
	// 10ms, so tests with injected throttling stay fast.
	RetryDelay time.Duration
}

// NewEmulator returns a provider for an ARM emulator, in process (with a
// Transport) or over TCP. It authenticates with a static fake token.
func NewEmulator(opts EmulatorOptions) (*Provider, error) {
	if opts.Subscription == "" {
		return nil, errors.New("emulator: no subscription configured")
	}
	u, err := url.Parse(opts.Endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("emulator: endpoint %q is not an http(s) URL", opts.Endpoint)
	}
	endpoint := strings.TrimSuffix(opts.Endpoint, "/")
	retryDelay := opts.RetryDelay
	if retryDelay == 0 {
		retryDelay = 10 * time.Millisecond
	}
	poll := opts.PollFrequency
	if poll == 0 {
		poll = time.Second
	}
	limits := &rateLimits{}
	o := arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			PerRetryPolicies: []policy.Policy{limits},
			Cloud: cloud.Configuration{
				ActiveDirectoryAuthorityHost: endpoint + "/",
				Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
					cloud.ResourceManager: {Audience: endpoint, Endpoint: endpoint},
				},
			},
			Retry: policy.RetryOptions{MaxRetries: 3, RetryDelay: retryDelay, MaxRetryDelay: 20 * retryDelay},
			// The bearer policy refuses to send a token over plain http
			// unless told: `emulator serve` listens on loopback http.
			InsecureAllowCredentialWithHTTP: u.Scheme == "http",
		},
		DisableRPRegistration: true,
	}
	if opts.Transport != nil {
		o.Transport = transporter{opts.Transport}
	}
	target := "ARM emulator at " + endpoint
	if opts.Transport != nil {
		target = "local emulator"
	}
	if opts.Description != "" {
		target += " (" + opts.Description + ")"
	}
	return &Provider{
		subscription:  opts.Subscription,
		target:        target,
		cred:          staticToken{},
		options:       o,
		pollFrequency: poll,
		limits:        limits,
		clients:       map[string]*clients{},
	}, nil
}

// transporter adapts an http.RoundTripper to the SDK's policy.Transporter.
type transporter struct{ rt http.RoundTripper }

func (t transporter) Do(req *http.Request) (*http.Response, error) { return t.rt.RoundTrip(req) }

// staticToken is the emulator's credential: it accepts any bearer token.
type staticToken struct{}

func (staticToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: "azsvc-emulator", ExpiresOn: time.Now().Add(24 * time.Hour)}, nil
}

// moduleName and moduleVersion name azsvc in the SDK pipeline's
// User-Agent telemetry.
const (
	moduleName    = "azsvc"
	moduleVersion = "v0.0.0"
)

// clientsFor returns the client factories of one subscription, built once.
func (p *Provider) clientsFor(subscription string) (*clients, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := strings.ToLower(subscription)
	if c, ok := p.clients[key]; ok {
		return c, nil
	}
	opts := p.options
	client, err := arm.NewClient(moduleName, moduleVersion, p.cred, &opts)
	if err != nil {
		return nil, fmt.Errorf("ARM client: %w", err)
	}
	c := &clients{arm: newARMClient(subscription, client)}
	p.clients[key] = c
	return c, nil
}

// noRetry disables the SDK's retries for one request: apply retries writes
// itself, with its own budget, and reports each attempt (arm-rules §2.3).
func noRetry(ctx context.Context) context.Context {
	return policy.WithRetryOptions(ctx, policy.RetryOptions{MaxRetries: -1})
}
