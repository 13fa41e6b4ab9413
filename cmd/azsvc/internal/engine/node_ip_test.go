package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/preflight"
)

// TestStaticIPOfANode: a static frontend IP that a Node of the input holds
// is refused at plan time, as ARM refuses it on the node NIC's address
// (which azsvc cannot read: scale set NICs are no Microsoft.Network
// resources), also after the UIDs and placement rebuild the desired state.
func TestStaticIPOfANode(t *testing.T) {
	tg := liveClusterTarget(t)
	pinned := filepath.Join(t.TempDir(), "pinned.yaml")
	if err := os.WriteFile(pinned, []byte(`apiVersion: v1
kind: Service
metadata:
  name: pinned
  namespace: retail
  uid: 6f1c9a52-0d7e-4f55-9b8e-2b1d7c3a9e10
  annotations:
    service.beta.kubernetes.io/azure-load-balancer-internal: "true"
    service.beta.kubernetes.io/azure-load-balancer-ipv4: 10.224.0.5
spec:
  type: LoadBalancer
  ports: [{port: 80, nodePort: 30111}]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	in, _ := liveClusterInputs(t, liveCluster.services, liveCluster.nodes, pinned)
	p, _, err := Plan(context.Background(), in, tg)
	if !errors.Is(err, preflight.ErrRefused) || p == nil {
		t.Fatalf("plan: %v, want a refusal", err)
	}
	want := plan.Refusal{Code: plan.RefuseIPTaken, IP: "10.224.0.5", Other: "node aks-nodepool1-12345678-vmss000001"}
	for _, r := range p.Refused {
		if r.Code == want.Code && r.IP == want.IP && r.Other == want.Other {
			return
		}
	}
	t.Fatalf("refused %+v, want %+v", p.Refused, want)
}
