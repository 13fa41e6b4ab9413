// Package cluster holds the cluster configuration that shapes how Services
// become Azure resources: CCM's own azure.json keys (ccm-semantics §10) and
// azsvc's settings that CCM takes as flags (the cluster name) or that azsvc
// needs on top (the subscription to plan against).
package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DefaultClusterName is CCM's --cluster-name default (ccm-semantics §2.2).
const DefaultClusterName = "kubernetes"

// Load balancer SKUs (loadBalancerSku).
const (
	SKUBasic    = "basic"
	SKUStandard = "standard"
	SKUService  = "service"
)

// Backend pool configuration types (loadBalancerBackendPoolConfigurationType).
const (
	PoolNodeIPConfiguration = "nodeIPConfiguration"
	PoolNodeIP              = "nodeIP"
	PoolPodIP               = "podIP"
)

// preConfiguredBackendPoolLoadBalancerTypes values: the load balancers
// whose backend pool membership CCM leaves alone.
const (
	PreConfiguredInternal = "internal"
	PreConfiguredExternal = "external"
	PreConfiguredAll      = "all"
)

// Health probe modes (clusterServiceLoadBalancerHealthProbeMode).
const (
	ProbeModeServiceNodePort = "servicenodeport"
	ProbeModeShared          = "shared"
)

// Config is CCM's azure.json, restricted to the keys that shape Services,
// with CCM's defaults applied (pkg/provider/azure.go setLBDefaults), plus
// azsvc's own settings.
type Config struct {
	// azsvc settings (azsvc.yaml, flags, AZSVC_* environment).

	// ClusterName is CCM's --cluster-name; it names backend pools and
	// managed public IPs and is written into ownership tags.
	ClusterName string `json:"-"`
	// Subscription overrides subscriptionId when set.
	Subscription string `json:"-"`

	// azure.json keys.

	SubscriptionID                  string `json:"subscriptionId"`
	NetworkResourceSubscriptionID   string `json:"networkResourceSubscriptionID"`
	ResourceGroup                   string `json:"resourceGroup"`
	Location                        string `json:"location"`
	VnetName                        string `json:"vnetName"`
	VnetResourceGroup               string `json:"vnetResourceGroup"`
	SubnetName                      string `json:"subnetName"`
	SecurityGroupName               string `json:"securityGroupName"`
	SecurityGroupResourceGroup      string `json:"securityGroupResourceGroup"`
	LoadBalancerSKU                 string `json:"loadBalancerSku"`
	LoadBalancerName                string `json:"loadBalancerName"`
	LoadBalancerResourceGroup       string `json:"loadBalancerResourceGroup"`
	PrivateLinkServiceResourceGroup string `json:"privateLinkServiceResourceGroup"`
	DisableOutboundSNAT             bool   `json:"disableOutboundSNAT"`
	ExcludeMasterFromStandardLB     *bool  `json:"excludeMasterFromStandardLB"`
	MaximumLoadBalancerRuleCount    int    `json:"maximumLoadBalancerRuleCount"`
	// BackendPoolType is loadBalancerBackendPoolConfigurationType.
	BackendPoolType                            string            `json:"loadBalancerBackendPoolConfigurationType"`
	PreConfiguredBackendPoolLoadBalancerTypes  string            `json:"preConfiguredBackendPoolLoadBalancerTypes"`
	MultipleStandardLoadBalancerConfigurations []MultiSLBConfig  `json:"multipleStandardLoadBalancerConfigurations"`
	LoadBalancerBackendPoolUpdateInterval      int               `json:"loadBalancerBackendPoolUpdateIntervalInSeconds"`
	HealthProbeMode                            string            `json:"clusterServiceLoadBalancerHealthProbeMode"`
	SharedHealthProbePort                      int32             `json:"clusterServiceSharedLoadBalancerHealthProbePort"`
	SharedHealthProbePath                      string            `json:"clusterServiceSharedLoadBalancerHealthProbePath"`
	EnableIPTagMutationForExistingPublicIP     bool              `json:"enableIPTagMutationForExistingPublicIP"`
	EnableMigrateToIPBasedBackendPoolAPI       bool              `json:"enableMigrateToIPBasedBackendPoolAPI"`
	Tags                                       string            `json:"tags"`
	TagsMap                                    map[string]string `json:"tagsMap"`
	SystemTags                                 string            `json:"systemTags"`
	PrimaryAvailabilitySetName                 string            `json:"primaryAvailabilitySetName"`
	PrimaryScaleSetName                        string            `json:"primaryScaleSetName"`
	VMType                                     string            `json:"vmType"`
	ExtendedLocationName                       string            `json:"extendedLocationName"`
	ExtendedLocationType                       string            `json:"extendedLocationType"`
	ServiceGatewayEnabled                      bool              `json:"serviceGatewayEnabled"`
	// Auth holds the credential and cloud keys; it never prints secrets.
	Auth
	// Unknown holds keys azure.json carries that CCM does not read; they
	// are ignored with a note.
	Unknown map[string]any `json:"-"`
}

// MultiSLBConfig is one entry of multipleStandardLoadBalancerConfigurations.
type MultiSLBConfig struct {
	Name                  string `json:"name"`
	AllowServicePlacement *bool  `json:"allowServicePlacement"`
	PrimaryVMSet          string `json:"primaryVMSet"`
	// Selectors are kept as raw label selector objects: offline, azsvc
	// matches serviceLabelSelector only (namespace labels are unknown).
	ServiceLabelSelector     *LabelSelector `json:"serviceLabelSelector"`
	ServiceNamespaceSelector *LabelSelector `json:"serviceNamespaceSelector"`
	NodeSelector             *LabelSelector `json:"nodeSelector"`
}

// LabelSelector is the matchLabels part of a Kubernetes label selector,
// plus its matchExpressions kept verbatim.
type LabelSelector struct {
	MatchLabels      map[string]string `json:"matchLabels"`
	MatchExpressions []any             `json:"matchExpressions"`
}

// check parses the selector as CCM does (metav1.LabelSelectorAsSelector in
// accommodateNodesByNodeSelector), which fails the reconcile on an
// unknown operator, values with Exists or DoesNotExist, no values with In
// or NotIn, or a key or value that is no label's.
func (s *LabelSelector) check() error {
	if s == nil {
		return nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	var sel metav1.LabelSelector
	if err := json.Unmarshal(raw, &sel); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return fmt.Errorf("not a label selector: %s holds %s where %s belongs", typ.Field, jsonGot(typ.Value), JSONWant(typ.Type))
		}
		return fmt.Errorf("not a label selector: %w", err)
	}
	_, err = metav1.LabelSelectorAsSelector(&sel)
	return err
}

// Matches reports whether labels satisfy the selector: every matchLabels
// pair and every matchExpressions requirement (In, NotIn, Exists,
// DoesNotExist), as metav1.LabelSelectorAsSelector reads them. A nil
// selector matches nothing (CCM: configs without selectors are handled by
// the caller). Parse refuses a nodeSelector CCM cannot read (check).
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels {
		if labels[k] != v {
			return false
		}
	}
	for _, e := range s.MatchExpressions {
		if !requirementMatches(e, labels) {
			return false
		}
	}
	return true
}

func requirementMatches(raw any, labels map[string]string) bool {
	m, ok := raw.(map[string]any)
	if !ok {
		return false
	}
	key, _ := m["key"].(string)
	op, _ := m["operator"].(string)
	var values []string
	if vs, ok := m["values"].([]any); ok {
		for _, v := range vs {
			s, ok := v.(string)
			if !ok {
				return false
			}
			values = append(values, s)
		}
	}
	v, has := labels[key]
	switch op {
	case "In":
		return has && len(values) > 0 && slices.Contains(values, v)
	case "NotIn":
		return len(values) > 0 && (!has || !slices.Contains(values, v))
	case "Exists":
		return has && len(values) == 0
	case "DoesNotExist":
		return !has && len(values) == 0
	}
	return false
}

// SubscriptionForIDs is the subscription used in every generated resource
// ID: networkResourceSubscriptionID when set and different (§2.2 "Resource
// IDs"), else the azsvc override, else subscriptionId.
func (c *Config) SubscriptionForIDs() string {
	sub := c.SubscriptionID
	if c.Subscription != "" {
		sub = c.Subscription
	}
	if c.NetworkResourceSubscriptionID != "" && !strings.EqualFold(c.NetworkResourceSubscriptionID, sub) {
		return c.NetworkResourceSubscriptionID
	}
	return sub
}

// LBBase is loadBalancerName, else the cluster name (§2.2).
func (c *Config) LBBase() string {
	if c.LoadBalancerName != "" {
		return c.LoadBalancerName
	}
	return c.ClusterName
}

// LBResourceGroup is loadBalancerResourceGroup, else resourceGroup.
func (c *Config) LBResourceGroup() string {
	return orDefault(c.LoadBalancerResourceGroup, c.ResourceGroup)
}

// NSGResourceGroup is securityGroupResourceGroup, else resourceGroup.
func (c *Config) NSGResourceGroup() string {
	return orDefault(c.SecurityGroupResourceGroup, c.ResourceGroup)
}

// VnetRG is vnetResourceGroup, else resourceGroup.
func (c *Config) VnetRG() string { return orDefault(c.VnetResourceGroup, c.ResourceGroup) }

// PLSResourceGroup is privateLinkServiceResourceGroup, else resourceGroup.
func (c *Config) PLSResourceGroup() string {
	return orDefault(c.PrivateLinkServiceResourceGroup, c.ResourceGroup)
}

// Standard reports whether the LB SKU is standard.
func (c *Config) Standard() bool { return strings.EqualFold(c.LoadBalancerSKU, SKUStandard) }

// SharedProbe reports whether the shared cluster health probe mode is on.
func (c *Config) SharedProbe() bool { return strings.EqualFold(c.HealthProbeMode, ProbeModeShared) }

// MultiSLB reports whether multiple standard load balancers are in use
// (standard SKU, non-NIC pools and at least one configuration, §7.6).
func (c *Config) MultiSLB() bool {
	return c.Standard() && len(c.MultipleStandardLoadBalancerConfigurations) > 0 &&
		!strings.EqualFold(c.BackendPoolType, PoolNodeIPConfiguration)
}

// PreConfiguredPools is isBackendPoolPreConfigured for a Service of the
// given kind (ccm-semantics §10): preConfiguredBackendPoolLoadBalancerTypes
// "all", "internal" for internal Services or "external" for the others.
// CCM compares the value exactly, so "Internal" covers nothing.
func (c *Config) PreConfiguredPools(internal bool) bool {
	switch c.PreConfiguredBackendPoolLoadBalancerTypes {
	case PreConfiguredAll:
		return true
	case PreConfiguredInternal:
		return internal
	case PreConfiguredExternal:
		return !internal
	}
	return false
}

// ConfigTags is tags ("a=b,c=d") merged with tagsMap, tagsMap winning
// (azure_utils.go parseTags). Malformed pairs are skipped, as CCM does.
func (c *Config) ConfigTags() map[string]string {
	out := ParseTags(c.Tags)
	for k, v := range c.TagsMap {
		setTagFold(out, k, v)
	}
	return out
}

// ParseTags parses "a=b,c=d" the way CCM's parseTags does: trimmed keys and
// values, pairs without exactly one "=" or with an empty key ignored.
func ParseTags(s string) map[string]string {
	out := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		kv := strings.Split(strings.TrimSpace(pair), "=")
		if len(kv) != 2 {
			continue
		}
		k, v := strings.TrimSpace(kv[0]), strings.TrimSpace(kv[1])
		if k == "" {
			continue
		}
		setTagFold(out, k, v)
	}
	return out
}

// setTagFold sets k=v, replacing a key that differs only in case: Azure
// tag keys are case-insensitive.
func setTagFold(m map[string]string, k, v string) {
	for old := range m {
		if strings.EqualFold(old, k) && old != k {
			delete(m, old)
		}
	}
	m[k] = v
}

func orDefault(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}
