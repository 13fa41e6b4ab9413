package engine

import (
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/apply"
)

// maxStaleServices bounds how many Services a stale-cluster refusal names.
const maxStaleServices = 20

// CheckCluster compares the Services a plan was made from (c, as read then)
// with the same scope read again now, and refuses the plan
// (*apply.StaleError, exit 5) when a Service was added, removed, recreated
// (another UID) or changed (another resourceVersion: spec, annotations,
// labels or status). Only Services are compared: Nodes and EndpointSlices
// change with every heartbeat and Pod, and what of them the plan uses is
// checked through the ARM resources it writes (CheckFresh, CheckSaved).
func CheckCluster(c *Cluster, now []corev1.Service) error {
	if c == nil {
		return nil
	}
	before := make(map[string]*corev1.Service, len(c.Snapshot.Services))
	for i := range c.Snapshot.Services {
		s := &c.Snapshot.Services[i]
		before[s.Namespace+"/"+s.Name] = s
	}
	var changed []apply.Drift
	seen := make(map[string]bool, len(now))
	for i := range now {
		s := &now[i]
		key := s.Namespace + "/" + s.Name
		seen[key] = true
		old, ok := before[key]
		switch {
		case !ok:
			changed = append(changed, clusterDrift(key, "added to the cluster since the plan"))
		case old.UID != s.UID:
			changed = append(changed, clusterDrift(key, fmt.Sprintf("deleted and created again since the plan (uid %s, now %s)", old.UID, s.UID)))
		case old.ResourceVersion != s.ResourceVersion:
			changed = append(changed, clusterDrift(key, fmt.Sprintf("changed in the cluster since the plan (resourceVersion %s, now %s)", old.ResourceVersion, s.ResourceVersion)))
		}
	}
	for key := range before {
		if !seen[key] {
			changed = append(changed, clusterDrift(key, "removed from the cluster (or no longer of type LoadBalancer, or no longer selected) since the plan"))
		}
	}
	if len(changed) == 0 {
		return nil
	}
	sort.Slice(changed, func(i, j int) bool { return changed[i].Address < changed[j].Address })
	if n := len(changed) - maxStaleServices; n > 0 {
		changed = append(changed[:maxStaleServices], apply.Drift{Address: "…", Detail: fmt.Sprintf("and %d more Services", n)})
	}
	return &apply.StaleError{Changed: changed}
}

func clusterDrift(key, detail string) apply.Drift {
	return apply.Drift{Address: "Service " + key, Detail: detail}
}
