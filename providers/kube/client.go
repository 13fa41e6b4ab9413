// Package kube reads a live Kubernetes cluster for azsvc: the Services of
// type LoadBalancer, the Nodes and the EndpointSlices, with kubectl's
// conventions for choosing the cluster; takes the lease the Azure cloud
// controller manager takes before changing Azure (ccm-semantics §7.1); and
// writes status.loadBalancer.ingress as CCM does. It is the only package
// that imports client-go.
package kube

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	authorizationv1 "k8s.io/client-go/kubernetes/typed/authorization/v1"
	coordinationv1 "k8s.io/client-go/kubernetes/typed/coordination/v1"
	corev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	discoveryv1 "k8s.io/client-go/kubernetes/typed/discovery/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/flowcontrol"
)

// Options choose the cluster and what to read, as kubectl's flags do.
type Options struct {
	// Kubeconfig is --kubeconfig. Empty: KUBECONFIG, then ~/.kube/config,
	// then the Pod's service account when running in a cluster.
	Kubeconfig string
	// Context is --context; empty uses the kubeconfig's current context.
	Context string
	// Namespace is -n; empty uses the context's namespace ("default" when
	// it names none; the Pod's namespace in a cluster).
	Namespace string
	// AllNamespaces is -A; it wins over Namespace, as in kubectl.
	AllNamespaces bool
	// Selector is -l, a label selector for Services.
	Selector string
	// QPS and Burst bound the request rate; zero means DefaultQPS and
	// DefaultBurst.
	QPS   float32
	Burst int
	// PageSize is the limit of each list page; zero means DefaultPageSize,
	// kubectl's chunk size.
	PageSize int64
	// WrapTransport, when set, wraps the HTTP transport (tests count
	// requests with it).
	WrapTransport func(http.RoundTripper) http.RoundTripper
}

// Defaults: reads are a handful of paged lists, so these bound a runaway
// loop rather than slow a normal run; status writes are one per Service.
const (
	DefaultQPS      = 20
	DefaultBurst    = 40
	DefaultPageSize = 500
	requestTimeout  = time.Minute
)

// Clientset is the part of client-go's kubernetes.Interface azsvc uses; the
// fake clientset of unit tests satisfies it. Only these four API groups'
// clients are built: the whole clientset would compile a hundred packages
// more into azsvc.
type Clientset interface {
	CoreV1() corev1.CoreV1Interface
	DiscoveryV1() discoveryv1.DiscoveryV1Interface
	CoordinationV1() coordinationv1.CoordinationV1Interface
	AuthorizationV1() authorizationv1.AuthorizationV1Interface
}

type clientset struct {
	core          corev1.CoreV1Interface
	discovery     discoveryv1.DiscoveryV1Interface
	coordination  coordinationv1.CoordinationV1Interface
	authorization authorizationv1.AuthorizationV1Interface
}

func (c *clientset) CoreV1() corev1.CoreV1Interface                         { return c.core }
func (c *clientset) DiscoveryV1() discoveryv1.DiscoveryV1Interface          { return c.discovery }
func (c *clientset) CoordinationV1() coordinationv1.CoordinationV1Interface { return c.coordination }
func (c *clientset) AuthorizationV1() authorizationv1.AuthorizationV1Interface {
	return c.authorization
}

// newClientset builds the four clients over one HTTP client and one rate
// limiter, as kubernetes.NewForConfig does for all of them.
func newClientset(cfg *rest.Config) (*clientset, error) {
	cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(cfg.QPS, cfg.Burst)
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	cs := &clientset{}
	if cs.core, err = corev1.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	if cs.discovery, err = discoveryv1.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	if cs.coordination, err = coordinationv1.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	if cs.authorization, err = authorizationv1.NewForConfigAndClient(cfg, hc); err != nil {
		return nil, err
	}
	return cs, nil
}

// Client is one cluster, with the namespace scope and selector chosen.
type Client struct {
	cs        Clientset
	namespace string // the namespace read, or the default namespace of manifests under -A
	all       bool
	selector  labels.Selector
	selText   string
	pageSize  int64
	where     string // "context aks-prod (https://...)", for messages
	context   string // the kubeconfig context used, "" in a Pod's configuration
	server    string // the API server's URL
}

// Connect builds a client from the kubeconfig (or the in-cluster
// configuration) the way kubectl does. It does not contact the cluster.
func Connect(o Options) (*Client, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = o.Kubeconfig
	overrides := &clientcmd.ConfigOverrides{CurrentContext: o.Context}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, configError(err)
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, configError(err)
	}
	if o.Namespace != "" {
		ns = o.Namespace
	}
	where, name := "in-cluster configuration ("+cfg.Host+")", ""
	if raw, err := cc.RawConfig(); err == nil && len(raw.Contexts) > 0 {
		name = o.Context
		if name == "" {
			name = raw.CurrentContext
		}
		where = fmt.Sprintf("context %q (%s)", name, cfg.Host)
	}
	tune(cfg, o)
	cs, err := newClientset(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubernetes client for %s: %w", where, err)
	}
	c, err := newClient(cs, ns, where, o)
	if err != nil {
		return nil, err
	}
	c.context, c.server = name, cfg.Host
	return c, nil
}

// NewForClientset wraps a clientset (client-go's fake one in unit tests).
func NewForClientset(cs Clientset, namespace, where string, o Options) (*Client, error) {
	if namespace == "" {
		namespace = "default"
	}
	return newClient(cs, namespace, where, o)
}

func newClient(cs Clientset, ns, where string, o Options) (*Client, error) {
	sel := labels.Everything()
	if o.Selector != "" {
		var err error
		if sel, err = labels.Parse(o.Selector); err != nil {
			return nil, fmt.Errorf("invalid selector %q: %w", o.Selector, err)
		}
	}
	page := o.PageSize
	if page <= 0 {
		page = DefaultPageSize
	}
	return &Client{cs: cs, namespace: ns, all: o.AllNamespaces, selector: sel, selText: o.Selector,
		pageSize: page, where: where}, nil
}

// tune sets the rate limits, timeout and wire format of every request.
func tune(cfg *rest.Config, o Options) {
	cfg.QPS, cfg.Burst = DefaultQPS, DefaultBurst
	if o.QPS > 0 {
		cfg.QPS = o.QPS
	}
	if o.Burst > 0 {
		cfg.Burst = o.Burst
	}
	cfg.Timeout = requestTimeout
	cfg.UserAgent = "azsvc"
	// Protobuf decodes a 5,000-Service list several times faster than JSON.
	cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	if o.WrapTransport != nil {
		cfg.Wrap(o.WrapTransport)
	}
}

// Where names the cluster for messages and the plan header.
func (c *Client) Where() string { return c.where }

// Context is the kubeconfig context used, "" for a Pod's service account.
func (c *Client) Context() string { return c.context }

// Server is the API server's URL ("" for a client over a given clientset).
func (c *Client) Server() string { return c.server }

// Namespace is the namespace read; under -A, the default namespace of
// manifests that name none.
func (c *Client) Namespace() string { return c.namespace }

// AllNamespaces reports -A.
func (c *Client) AllNamespaces() bool { return c.all }

// Selector is -l as given ("" for none).
func (c *Client) Selector() string { return c.selText }

// Selects reports whether labels match -l.
func (c *Client) Selects(l map[string]string) bool { return c.selector.Matches(labels.Set(l)) }

// Scope describes what is read, for messages: `namespace "prod"`, "all
// namespaces", with the selector when there is one.
func (c *Client) Scope() string {
	s := fmt.Sprintf("namespace %q", c.namespace)
	if c.all {
		s = "all namespaces"
	}
	if c.selText != "" {
		s += fmt.Sprintf(", selector %q", c.selText)
	}
	return s
}

// configError explains a kubeconfig that cannot be used.
func configError(err error) error {
	if clientcmd.IsEmptyConfig(err) {
		return errors.New("no Kubernetes configuration: pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config (in a Pod, the service account is used)")
	}
	return fmt.Errorf("kubeconfig: %w", err)
}
