package main

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/status"
	"github.com/azsvc/azsvc/providers/kube"
)

// statusUpdate writes the Services' load balancer status and counts the
// outcome.
type statusUpdate struct {
	client  *kube.Client
	ingress *status.Ingresses

	written, same int
	notes         []string
	failed        []error
}

// run compares every input Service that exists in the cluster with what
// Azure has and writes the ones that differ, one request each: the status
// subresource has no batch write.
func (u *statusUpdate) run(ctx context.Context, in *engine.Inputs) {
	byKey := make(map[string]*corev1.Service, len(in.Cluster.Snapshot.Services))
	for i := range in.Cluster.Snapshot.Services {
		s := &in.Cluster.Snapshot.Services[i]
		byKey[s.Namespace+"/"+s.Name] = s
	}
	notInCluster := 0
	for _, svc := range in.Service.Services {
		live, ok := byKey[svc.Key()]
		if !ok {
			notInCluster++
			continue
		}
		want, err := u.ingress.Of(svc)
		if err != nil {
			u.notes = append(u.notes, fmt.Sprintf("%s: status not written: %v", svc.Key(), err))
			continue
		}
		if status.Equal(live.Status.LoadBalancer.Ingress, want) {
			u.same++
			continue
		}
		if err := u.client.UpdateStatus(ctx, live, want); err != nil {
			u.failed = append(u.failed, fmt.Errorf("status of %s: %w", svc.Key(), err))
			continue
		}
		u.written++
	}
	if notInCluster > 0 {
		u.notes = append(u.notes, fmt.Sprintf("%d Service(s) from -f are not in the cluster yet: no status to write", notInCluster))
	}
}
