package cluster

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotModelled marks a configuration CCM accepts but azsvc does not plan:
// a plan would show resources CCM never builds there. Commands refuse it as
// invalid input.
var ErrNotModelled = errors.New("a cloud provider mode azsvc does not plan")

// ServiceGatewayError refuses CCM's Service Gateway mode. CCM turns it on
// with all three of serviceGatewayEnabled, podIP backend pools and
// loadBalancerSku "service" (pkg/provider/azure.go:351-352 at 7b31c76) and
// then serves Services from pkg/provider/servicegateway/ instead of the
// shared cluster load balancer azsvc plans.
type ServiceGatewayError struct{}

func (*ServiceGatewayError) Error() string {
	return "CCM's Service Gateway mode (serviceGatewayEnabled: true, " +
		"loadBalancerBackendPoolConfigurationType: podIP, loadBalancerSku: service) is not planned by azsvc yet. " +
		"In that mode CCM builds one load balancer of SKU Service per Service, named after the Service's UID, " +
		"with a StandardV2 public IP, and registers pod IPs on the cluster's ServiceGateway; " +
		"it writes no NSG rules and no Private Link Service. " +
		"azsvc would plan the shared cluster load balancer instead, which CCM does not build there"
}

func (*ServiceGatewayError) Is(target error) bool { return target == ErrNotModelled }

// checkServiceGateway applies CCM's rule for the three Service Gateway
// settings (pkg/provider/azure.go:351-373 at 7b31c76): any one of them
// without the other two stops CCM at start-up; all three select the mode,
// which excludes multi-SLB configurations and the IP-based pool migration.
// Both comparisons are case-insensitive, as CCM's IsLBBackendPoolTypePodIP
// and UseServiceLoadBalancer are (pkg/provider/config/azure.go:201-207).
func (c *Config) checkServiceGateway() error {
	podIP := strings.EqualFold(c.BackendPoolType, PoolPodIP)
	service := strings.EqualFold(c.LoadBalancerSKU, SKUService)
	if !c.ServiceGatewayEnabled && !podIP && !service {
		return nil
	}
	if !c.ServiceGatewayEnabled || !podIP || !service {
		return fmt.Errorf("serviceGatewayEnabled: true, loadBalancerBackendPoolConfigurationType: podIP and "+
			"loadBalancerSku: service go together (CCM refuses to start otherwise); this file has "+
			"serviceGatewayEnabled: %t, loadBalancerBackendPoolConfigurationType: %q, loadBalancerSku: %q",
			c.ServiceGatewayEnabled, c.BackendPoolType, c.LoadBalancerSKU)
	}
	if len(c.MultipleStandardLoadBalancerConfigurations) > 0 {
		return errors.New(`"serviceGatewayEnabled" and "multipleStandardLoadBalancerConfigurations" cannot be set together (CCM refuses to start)`)
	}
	if c.EnableMigrateToIPBasedBackendPoolAPI {
		return errors.New(`"enableMigrateToIPBasedBackendPoolAPI" cannot be used with "serviceGatewayEnabled" (CCM refuses to start)`)
	}
	return &ServiceGatewayError{}
}

// normalizeSKU accepts loadBalancerSku as CCM compares it,
// case-insensitively and untrimmed (pkg/provider/config/azure.go:205-215):
// standard, basic, or service (Service Gateway), and spells it in lower
// case. CCM defaults only an absent or empty value (pkg/provider/azure.go:600)
// and builds a Basic load balancer for any other value; azsvc names the
// value as written instead of planning Basic for a typo.
func (c *Config) normalizeSKU() error {
	switch sku := strings.ToLower(c.LoadBalancerSKU); sku {
	case SKUStandard, SKUBasic, SKUService:
		c.LoadBalancerSKU = sku
		return nil
	}
	return fmt.Errorf(`"loadBalancerSku": invalid value %q: want standard or basic (any letter case; service only `+
		`for Service Gateway mode). CCM builds a Basic load balancer for any other value; fix the value rather than `+
		`plan one`, c.LoadBalancerSKU)
}

// Unmodelled is a CCM setting that shapes Services but that azsvc does not
// plan as CCM does; `azsvc help config` and the README list them.
type Unmodelled struct {
	Keys []string
	// What azsvc does about it, and where CCM uses it.
	What string
}

// NotModelled lists the azure.json settings azsvc reads or accepts without
// planning what CCM does with them. Keys that only tune CCM itself (caches,
// rate limits, routes) are accepted silently and are not listed.
func NotModelled() []Unmodelled {
	return []Unmodelled{
		{[]string{"serviceGatewayEnabled", "loadBalancerBackendPoolConfigurationType: podIP", "loadBalancerSku: service"},
			"Service Gateway mode: refused (exit 4); any one of them without the others is an azure.json error, as CCM refuses to start on it."},
		{[]string{"extendedLocationName", "extendedLocationType"},
			"an edge zone: azsvc leaves zones off new public IPs as CCM does, but writes no extendedLocation on the load balancers and public IPs it creates (CCM: azure_loadbalancer.go:991, 1321)."},
		{[]string{"maximumLoadBalancerRuleCount"},
			"CCM's cap on the rules of a Basic load balancer it chooses for a Service (CCM: azure_loadbalancer.go:1084); azsvc checks ARM's limits only."},
		{[]string{"systemTags"},
			"CCM's tag deletion policy (CCM: azure_utils.go:146); azsvc adds and updates tags, and removes none."},
		{[]string{"enableIPTagMutationForExistingPublicIP"},
			"azsvc plans a changed azure-pip-ip-tags as a public IP replacement, as CCM does without this setting."},
		{[]string{"enableMigrateToIPBasedBackendPoolAPI", "loadBalancerBackendPoolUpdateIntervalInSeconds"},
			"how and when CCM moves pool members: azsvc plans the end state."},
	}
}
