package plan

import "strings"

// Tag keys CCM writes and reads (ccm-semantics §2.3), and the names CCM
// reserves for itself (§2.4, §4, §5.4).
const (
	TagService      = "k8s-azure-service"
	TagClusterName  = "k8s-azure-cluster-name"
	TagOwnerService = "k8s-azure-owner-service"
	// LegacyTagService and LegacyTagCluster are the keys older CCM versions
	// wrote; CCM still reads them.
	LegacyTagService = "service"
	LegacyTagCluster = "kubernetes-cluster-name"
	// SharedProbeName is the cluster's shared health probe.
	SharedProbeName = "cluster-service-shared-health-probe"
	// ManagedRulePrefix starts the names of the NSG rules CCM manages.
	ManagedRulePrefix = "k8s-azure-lb"
	// ManagedPriorityMin and ManagedPriorityMax bound the NSG priority band
	// CCM treats as its own.
	ManagedPriorityMin = 500
	ManagedPriorityMax = 4096
)

// TagValue returns the value of the first of keys present in tags, keys
// compared case-insensitively as ARM does.
func TagValue(tags map[string]string, keys ...string) (string, bool) {
	for _, k := range keys {
		for tk, v := range tags {
			if strings.EqualFold(tk, k) {
				return v, true
			}
		}
	}
	return "", false
}

// SplitServices reads a comma-separated k8s-azure-service tag into sorted,
// de-duplicated namespace/name entries.
func SplitServices(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return SortedUnique(out)
}
