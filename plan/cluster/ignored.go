package cluster

import "strings"

// ignoredKeys are azure.json keys CCM reads that neither shape the Services'
// Azure resources nor say how to reach ARM (those are in Auth): caches, rate
// limits, node and route settings. They are accepted silently; the set is
// lower-cased for lookup and built per call so the package keeps no mutable
// state.
func ignoredKeys() map[string]bool {
	return lowerSet(
		"identitySystem", "useInstanceMetadata",
		"activeDirectoryAuthorityHost", "managedIdentityCredential", "networkResourceTenantID",
		"routeTableName", "routeTableResourceGroup", "kubeletIdentity", "enableMultipleStandardLoadBalancers",
		"nodePoolsWithoutDedicatedSLB", "putVMSSVMBatchSize", "availabilitySetNodesCacheTTLInSeconds",
		"vmssCacheTTLInSeconds", "vmssVirtualMachinesCacheTTLInSeconds", "vmCacheTTLInSeconds",
		"loadBalancerCacheTTLInSeconds", "nsgCacheTTLInSeconds", "routeTableCacheTTLInSeconds",
		"publicIPCacheTTLInSeconds", "plsCacheTTLInSeconds", "vmssFlexVMCacheTTLInSeconds",
		"availabilitySetsCacheTTLInSeconds", "nonVmssUniformNodesCacheTTLInSeconds", "disableAPICallCache",
		"cloudProviderBackoff", "cloudProviderBackoffMode", "cloudProviderBackoffRetries",
		"cloudProviderBackoffExponent", "cloudProviderBackoffDuration", "cloudProviderBackoffJitter",
		"cloudProviderRateLimit", "cloudProviderRateLimitQPS", "cloudProviderRateLimitBucket",
		"cloudProviderRateLimitQPSWrite", "cloudProviderRateLimitBucketWrite", "enableDualStackSupport",
		"useStandardLoadBalancer", "disableAvailabilitySetNodes", "enableVmssFlexNodes",
		"nodeResourceGroup", "clusterType", "callRateLimitsConfigFile", "enableMigrateToIPBasedBackendPoolAPI",
		"routeUpdateWaitingInSeconds", "disableAzureStackCloud", "enableCredentialProvider",
		"enableVMSSRouteTable", "userAgent",
	)
}

func lowerSet(keys ...string) map[string]bool {
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[strings.ToLower(k)] = true
	}
	return out
}
