package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/kube"
)

// kubeOptions choose a live cluster with kubectl's flags.
type kubeOptions struct {
	FromCluster   bool
	Kubeconfig    string
	Context       string
	Namespace     string
	AllNamespaces bool
	Selector      string
	// Services focus a plan (--service), and so do -n and -l without
	// --from-cluster (see focus).
	Services []string
	// Focusable: the command plans, so -n and -l may focus it.
	Focusable bool
}

func addKubeFlags(cmd *cobra.Command, o *kubeOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.FromCluster, "from-cluster", false, "read the Services of type LoadBalancer from the cluster; -f manifests then override them by namespace/name")
	f.StringVar(&o.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: KUBECONFIG, then ~/.kube/config, then the Pod's service account)")
	f.StringVar(&o.Context, "context", "", "kubeconfig context to use")
	f.StringVarP(&o.Namespace, "namespace", "n", "", "namespace to read (default: the context's namespace)")
	f.BoolVarP(&o.AllNamespaces, "all-namespaces", "A", false, "read every namespace")
	f.StringVarP(&o.Selector, "selector", "l", "", "label selector for the Services read (e.g. app=web,tier!=cache)")
	_ = cmd.MarkFlagFilename("kubeconfig")
}

// addFocusFlags lets plan and apply focus on some Services: --service, and
// -n and -l when no cluster is read (with --from-cluster they choose what
// is read, which focuses as much).
func addFocusFlags(cmd *cobra.Command, o *kubeOptions) {
	o.Focusable = true
	cmd.Flags().StringSliceVar(&o.Services, "service", nil, "plan only the changes of this Service (namespace/name; repeatable): the rest is read, not changed")
	cmd.Flags().Lookup("namespace").Usage = "with --from-cluster: the namespace to read (default: the context's); without: plan only the changes of its Services"
	cmd.Flags().Lookup("selector").Usage = "with --from-cluster: read only Services with these labels; without: plan only their changes (e.g. app=web,tier!=cache)"
}

// focus is what the plan is narrowed to.
func (o kubeOptions) focus() engine.Focus {
	if o.FromCluster {
		return engine.Focus{Services: o.Services}
	}
	return engine.Focus{Services: o.Services, Namespace: o.Namespace, Selector: o.Selector}
}

// configured reports whether a cluster was asked for: --from-cluster, or
// --kubeconfig or --context given (apply then takes the lease). KUBECONFIG
// alone is not enough: plenty of shells set it for other work.
func (o kubeOptions) configured() bool {
	return o.FromCluster || o.Kubeconfig != "" || o.Context != ""
}

// check is the usage check of the cluster flags: scope flags mean nothing
// without --from-cluster, and a cluster source replaces the need for -f.
func (o kubeOptions) check(files []string, clusterOnlyFlagsOK bool) error {
	switch {
	case !o.FromCluster && o.AllNamespaces:
		return usageErrorf("-A reads every namespace of a cluster: add --from-cluster")
	case !o.FromCluster && !o.Focusable && (o.Namespace != "" || o.Selector != ""):
		return usageErrorf("-n and -l choose what --from-cluster reads: add --from-cluster")
	case !o.FromCluster && !clusterOnlyFlagsOK && (o.Kubeconfig != "" || o.Context != ""):
		return usageErrorf("--kubeconfig and --context choose the cluster --from-cluster reads: add --from-cluster")
	case !o.FromCluster:
		return requireFiles(files)
	}
	return nil
}

// checkPrune refuses --prune over part of a cluster. --prune deletes what
// azsvc owns for every Service not in the input, and a read of one
// namespace (-n, or the context's) or of a selector (-l) cannot tell a
// Service outside it from a deleted one: other namespaces' load balancer
// rules, NSG rules and public IPs would go.
func (o kubeOptions) checkPrune(prune bool) error {
	if !prune || !o.FromCluster || (o.AllNamespaces && o.Selector == "") {
		return nil
	}
	return usageErrorf("%s", partialPrune(o.AllNamespaces, o.Namespace, o.Selector))
}

// partialPrune says why --prune needs the whole cluster read.
func partialPrune(all bool, ns, selector string) string {
	read := "one namespace (-n, or the context's)"
	switch {
	case selector != "" && all:
		read = fmt.Sprintf("the Services matching -l %q", selector)
	case selector != "":
		read = fmt.Sprintf("the Services matching -l %q in one namespace", selector)
	case ns != "":
		read = fmt.Sprintf("namespace %q (-n)", ns)
	}
	return "--prune deletes the Azure resources of every Service not in the input, and --from-cluster reads only " + read +
		": azsvc cannot tell a Service outside that from a deleted one, and would delete the load balancer rules, " +
		"NSG rules and public IPs of Services that still exist. Prune with --from-cluster -A (--all-namespaces) and no -l, or drop --prune"
}

// connect opens the cluster client, or returns nil when none is configured.
func (o kubeOptions) connect() (*kube.Client, error) {
	if !o.configured() {
		return nil, nil
	}
	return kube.Connect(kube.Options{
		Kubeconfig:    o.Kubeconfig,
		Context:       o.Context,
		Namespace:     o.Namespace,
		AllNamespaces: o.AllNamespaces,
		Selector:      o.Selector,
	})
}

// readCluster lists what the commands plan from, as the engine's input.
func readCluster(ctx context.Context, io *IOStreams, c *kube.Client, kinds kube.Kinds, verbose bool) (*engine.Cluster, error) {
	snap, err := c.Read(ctx, kinds)
	if err != nil {
		return nil, err
	}
	where := fmt.Sprintf("cluster %s, %s", c.Where(), c.Scope())
	if verbose {
		fmt.Fprintf(io.ErrOut, "azsvc: read %s from %s\n", snap, where)
	}
	return &engine.Cluster{
		Snapshot: snap,
		Where:    where,
		Selector: c.Selector(),
		Context:  c.Context(),
		Server:   c.Server(),
		Scope:    service.ClusterScope{Namespace: c.Namespace(), AllNamespaces: c.AllNamespaces(), Selects: c.Selects},
	}, nil
}

// clusterInput connects and reads when --from-cluster is given; the client
// is returned whenever a cluster is configured (apply needs it for the
// lease and status).
func clusterInput(ctx context.Context, io *IOStreams, o kubeOptions, kinds kube.Kinds, verbose bool) (*kube.Client, *engine.Cluster, error) {
	c, err := o.connect()
	if err != nil || c == nil || !o.FromCluster {
		return c, nil, err
	}
	cl, err := readCluster(ctx, io, c, kinds, verbose)
	return c, cl, err
}

// allKinds is what plan, render and apply read: Nodes and EndpointSlices
// feed backend pool membership and node-IP NSG rules.
var allKinds = kube.Kinds{Nodes: true, EndpointSlices: true}

const rbacHelp = `azsvc needs, on a cluster:

  verb                 resource (API group)                      for
  list                 services, nodes (core)                    --from-cluster
  list                 endpointslices (discovery.k8s.io)         --from-cluster
  get, create, update  leases (coordination.k8s.io), in          apply, unless --no-lock
                       kube-system: aks-managed-resource-locker
  update               services/status (core)                    apply --update-status

Before its first Azure write, apply --update-status asks the API server
whether the status update is allowed (a SelfSubjectAccessReview, which every
authenticated user may create by default, through system:basic-user).

It never gets single objects, watches, or writes anything else. The
ClusterRole, Role and bindings below (also examples/rbac/clusterrole.yaml)
grant exactly that; replace the subject "azsvc" with the user, group or
service account that runs azsvc, then kubectl apply -f the file.

`
