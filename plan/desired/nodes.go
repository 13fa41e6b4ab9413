package desired

import (
	"net/netip"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// Labels and taints CCM reads on Nodes (pkg/consts/consts.go; the upstream
// service controller's stableNodeSetPredicates).
const (
	labelExcludeLB      = corev1.LabelNodeExcludeBalancers // node.kubernetes.io/exclude-from-external-load-balancers
	labelManaged        = "kubernetes.azure.com/managed"
	labelResourceGroup  = "kubernetes.azure.com/resource-group"
	labelControlPlane   = "node-role.kubernetes.io/control-plane"
	labelMaster         = "node-role.kubernetes.io/master"
	labelRole           = "kubernetes.io/role"
	taintToBeDeletedCAS = "ToBeDeletedByClusterAutoscaler"
)

// nodeFacts is what CCM knows about one Node when it fills backend pools.
type nodeFacts struct {
	name   string
	labels map[string]string
	// inSet: the service controller passes the node to CCM (§7.2): not
	// being deleted, not labelled for exclusion (true or unparsable), not
	// tainted for deletion by the cluster autoscaler. Readiness plays no
	// part since StableLoadBalancerNodeSet (GA in Kubernetes 1.30): a
	// NotReady node stays in the pools, as in CCM.
	inSet        bool
	controlPlane bool
	// excluded is ShouldNodeExcludedFromLoadBalancer: the exclude label
	// with any value, kubernetes.azure.com/managed=false, or a
	// kubernetes.azure.com/resource-group other than resourceGroup. It
	// only keeps a node out of NIC-based pools (§7.2).
	excluded bool
	first    perFamily   // the first InternalIP of each family (getNodePrivateIPAddress)
	all      [2][]string // every InternalIP by family (nodePrivateIPs)
	vmSet    string      // the VM scale set of a VMSS node's providerID, "" when unknown
}

// topology is the Nodes and EndpointSlices of the input as CCM reads them.
type topology struct {
	nodes []*nodeFacts // sorted by name
	// byIP maps every node address to its node (nodePrivateIPToNodeNameMap).
	byIP map[string]string
	// slicesKnown says whether EndpointSlices were given at all;
	// endpointNodes maps a Service to the nodes its endpoints run on, and
	// has no entry for a Service without an EndpointSlice.
	slicesKnown   bool
	endpointNodes map[string]map[string]bool
}

// newTopology reads t, nil when the input holds no Nodes.
func newTopology(t *service.Topology, resourceGroup string) *topology {
	if t == nil || !t.NodesKnown {
		return nil
	}
	topo := &topology{byIP: map[string]string{}, slicesKnown: t.SlicesKnown, endpointNodes: map[string]map[string]bool{}}
	for _, n := range t.Nodes {
		f := factsOf(n.Node, resourceGroup)
		topo.nodes = append(topo.nodes, f)
		for _, fam := range []family{ipv4, ipv6} {
			for _, ip := range f.all[famIndex(fam)] {
				topo.byIP[plan.CanonicalIP(ip)] = f.name
			}
		}
	}
	sort.SliceStable(topo.nodes, func(i, j int) bool { return topo.nodes[i].name < topo.nodes[j].name })
	for _, e := range t.EndpointSlices {
		svc := e.ServiceKey()
		if svc == "" {
			continue // CCM matches slices to Services by this label only
		}
		names := topo.endpointNodes[svc]
		if names == nil {
			names = map[string]bool{}
			topo.endpointNodes[svc] = names
		}
		// Every endpoint counts, ready or not: getLocalServiceEndpointsNodeNames
		// reads no condition.
		for _, ep := range e.Endpoints {
			if ep.NodeName != nil {
				names[strings.ToLower(*ep.NodeName)] = true
			}
		}
	}
	return topo
}

func factsOf(n *corev1.Node, resourceGroup string) *nodeFacts {
	f := &nodeFacts{name: n.Name, labels: n.Labels, inSet: inNodeSet(n), controlPlane: isControlPlane(n.Labels)}
	_, hasExclude := n.Labels[labelExcludeLB]
	rg, hasRG := n.Labels[labelResourceGroup]
	f.excluded = hasExclude || strings.EqualFold(n.Labels[labelManaged], "false") ||
		hasRG && rg != "" && !strings.EqualFold(rg, resourceGroup)
	for _, a := range n.Status.Addresses {
		if !strings.EqualFold(string(a.Type), string(corev1.NodeInternalIP)) {
			continue
		}
		addr, err := netip.ParseAddr(a.Address)
		if err != nil {
			continue // refused by the decoder; a cluster's API server validates addresses
		}
		fam := ipv4
		if addr.Is6() && !addr.Is4In6() {
			fam = ipv6
		}
		if f.first.of(fam) == "" {
			f.first.set(fam, a.Address)
		}
		f.all[famIndex(fam)] = append(f.all[famIndex(fam)], a.Address)
	}
	f.vmSet = vmssOfProviderID(n.Spec.ProviderID)
	return f
}

func famIndex(f family) int {
	if f == ipv6 {
		return 1
	}
	return 0
}

// inNodeSet is the upstream service controller's stableNodeSetPredicates.
func inNodeSet(n *corev1.Node) bool {
	if n.DeletionTimestamp != nil {
		return false
	}
	if v, ok := n.Labels[labelExcludeLB]; ok {
		if exclude, err := strconv.ParseBool(v); err != nil || exclude {
			return false
		}
	}
	for _, t := range n.Spec.Taints {
		if t.Key == taintToBeDeletedCAS {
			return false
		}
	}
	return true
}

// isControlPlane is CCM's isControlPlaneNode.
func isControlPlane(labels map[string]string) bool {
	_, cp := labels[labelControlPlane]
	_, master := labels[labelMaster]
	return cp || master || labels[labelRole] == "master"
}

// vmssOfProviderID is the scale set named by a VMSS node's providerID
// (azure:///subscriptions/…/virtualMachineScaleSets/<vmss>/virtualMachines/<n>),
// which is what GetNodeVMSetName returns for it. Other nodes' VM sets are
// known only to ARM; azsvc treats them as matching no primaryVMSet.
func vmssOfProviderID(id string) string {
	const marker = "/providers/microsoft.compute/virtualmachinescalesets/"
	lower := strings.ToLower(id)
	i := strings.Index(lower, marker)
	if !strings.HasPrefix(lower, "azure:///subscriptions/") || i < 0 {
		return ""
	}
	rest := id[i+len(marker):]
	name, vm, ok := strings.Cut(rest, "/")
	if !ok || name == "" || !strings.HasPrefix(strings.ToLower(vm), "virtualmachines/") {
		return ""
	}
	return name
}
