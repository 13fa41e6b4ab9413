package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/azsvc/azsvc/plan/cluster"
)

// Provider reads and writes one ARM target: Azure or an emulator.
type Provider struct {
	subscription  string
	target        string
	cred          azcore.TokenCredential
	options       arm.ClientOptions
	pollFrequency time.Duration
	limits        *rateLimits
	// placeholders: write values the API server assigns as their
	// placeholders (EmulatorOptions.Placeholders).
	placeholders bool

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

// AzureOptions configure a provider for Azure, or for an Azure Stack Hub
// style cloud (ResourceManagerEndpoint).
type AzureOptions struct {
	Subscription string
	// Cloud is a canonical cloud name (cluster.CloudPublic, ...); "" is
	// the public cloud. With ResourceManagerEndpoint it only labels the
	// target.
	Cloud string
	// ResourceManagerEndpoint, when set, is asked for its metadata (login
	// endpoint and token audience), as CCM does.
	ResourceManagerEndpoint string
	Credentials             Credentials
	// Getenv reads CCM's AZURE_* overrides of Credentials; nil is os.Getenv.
	Getenv func(string) string
	// Transport carries every request (metadata, token and ARM); nil uses
	// the network. Tests pass a client for their loopback servers.
	Transport policy.Transporter
	// TokenTimeout bounds the up-front token check; zero means 20 seconds.
	TokenTimeout time.Duration
	// PollFrequency between long-running operation polls; zero means 5 s.
	PollFrequency time.Duration
}

// NewAzure returns a provider for a real Azure subscription, authenticated
// as azure.json says (newCredential). It checks the credential up front by
// getting a token, so a missing login fails at once, naming every
// credential source tried, instead of on the first read.
func NewAzure(ctx context.Context, o AzureOptions) (*Provider, error) {
	if o.Subscription == "" {
		return nil, errors.New("azure: no subscription configured")
	}
	target := DescribeAzure(o.Cloud, o.ResourceManagerEndpoint, o.Subscription)
	cfg, err := resolveCloud(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", target, err)
	}
	copts := azcore.ClientOptions{Cloud: cfg, Transport: o.Transport}
	if rm := cfg.Services[cloud.ResourceManager].Endpoint; plainHTTP(rm) {
		copts.InsecureAllowCredentialWithHTTP = true // loopback only: resolveCloud checked
	}
	customCloud := o.ResourceManagerEndpoint != ""
	cred, err := newCredential(o.Credentials.withEnv(o.Getenv), copts, customCloud)
	if err != nil {
		return nil, &credentialError{target: target, tried: []string{err.Error()}, err: err}
	}
	timeout := o.TokenTimeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	scope := cfg.Services[cloud.ResourceManager].Audience + "/.default"
	if _, err := cred.cred.GetToken(tctx, policy.TokenRequestOptions{Scopes: []string{scope}}); err != nil {
		return nil, &credentialError{target: target, tried: triedSources(cred, err), err: err,
			managedIdentity: strings.HasPrefix(cred.source, "managed identity")}
	}
	poll := o.PollFrequency
	if poll == 0 {
		poll = 5 * time.Second
	}
	limits := &rateLimits{}
	copts.PerRetryPolicies = append(copts.PerRetryPolicies, limits)
	return &Provider{
		subscription:  o.Subscription,
		target:        target,
		cred:          cred.cred,
		options:       arm.ClientOptions{ClientOptions: copts},
		pollFrequency: poll,
		limits:        limits,
		clients:       map[string]*clients{},
	}, nil
}

// DescribeAzure names an Azure target for the plan header:
// "Azure (AzurePublicCloud, subscription …)".
func DescribeAzure(cloudName, endpoint, subscription string) string {
	if cloudName == "" {
		cloudName = cluster.CloudPublic
	}
	if endpoint != "" {
		cloudName += " at " + strings.TrimSuffix(endpoint, "/")
	}
	return "Azure (" + cloudName + ", subscription " + subscription + ")"
}

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
	// Token is the bearer token sent (`azsvc emulator serve` requires the
	// one it printed); "" sends a fixed placeholder the in-process
	// emulator accepts.
	Token string
	// PollFrequency between long-running operation polls; zero means one
	// second, the SDK's minimum outside tests (arm-rules §3.2).
	PollFrequency time.Duration
	// RetryDelay is the first delay of the SDK's read retries; zero means
	// 10ms, so tests with injected throttling stay fast.
	RetryDelay time.Duration
	// Placeholders lets writes carry the placeholders of values the API
	// server assigns (plan.Placeholder): only for the throwaway emulator
	// of a base→head plan, which builds what the base input would.
	Placeholders bool
}

// NewEmulator returns a provider for an ARM emulator in process (with a
// Transport), or for any ARM endpoint over TCP (`azsvc emulator serve`,
// --arm-endpoint). It authenticates with the static Token.
func NewEmulator(opts EmulatorOptions) (*Provider, error) {
	if opts.Subscription == "" {
		return nil, errors.New("emulator: no subscription configured")
	}
	endpoint := strings.TrimSuffix(opts.Endpoint, "/")
	if err := checkEndpoint(endpoint); err != nil {
		return nil, err
	}
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
			InsecureAllowCredentialWithHTTP: plainHTTP(endpoint),
		},
		DisableRPRegistration: true,
	}
	if opts.Transport != nil {
		o.Transport = transporter{opts.Transport}
	}
	target := "ARM endpoint " + endpoint
	if opts.Transport != nil {
		target = "local emulator"
	}
	if opts.Description != "" {
		target += " (" + opts.Description + ")"
	}
	return &Provider{
		subscription:  opts.Subscription,
		target:        target,
		cred:          staticToken(orDefault(opts.Token, "azsvc-emulator")),
		options:       o,
		pollFrequency: poll,
		limits:        limits,
		clients:       map[string]*clients{},
		placeholders:  opts.Placeholders,
	}, nil
}

// transporter adapts an http.RoundTripper to the SDK's policy.Transporter.
type transporter struct{ rt http.RoundTripper }

func (t transporter) Do(req *http.Request) (*http.Response, error) { return t.rt.RoundTrip(req) }

// staticToken is a fixed bearer token: an ARM endpoint's --arm-token, or
// a placeholder for the in-process emulator, which checks none.
type staticToken string

func (t staticToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: string(t), ExpiresOn: time.Now().Add(24 * time.Hour)}, nil
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
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
