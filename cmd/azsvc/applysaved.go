package main

import (
	"fmt"

	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/providers/kube"
)

// savedPrune refuses a saved plan made with --prune over part of a cluster
// (kubeOptions.checkPrune), which plan now refuses too: the file may come
// from an azsvc that made it.
func savedPrune(file string, src planfile.Sources) error {
	c := src.Cluster
	if !src.Prune || c == nil || (c.AllNamespaces && c.Selector == "") {
		return nil
	}
	return usageErrorf("%s was made with --prune over part of the cluster: %s", file, partialPrune(c.AllNamespaces, c.Namespace, c.Selector))
}

// savedCluster is the cluster apply FILE takes turns with. A plan made
// --from-cluster goes back to the cluster it read, whatever the command
// line: its recorded context (--context overrides it) in the kubeconfig
// kubectl's rules find (--kubeconfig, KUBECONFIG, ~/.kube/config, a Pod's
// service account), which must reach the recorded API server. There it
// takes the lease and reads the Services again (applyWork.clusterFresh).
// Under --no-lock (without --update-status) a cluster that cannot be
// configured is a warning.
// Other saved plans use the cluster the flags configure, if any.
func (o *applyOptions) savedCluster(src *planfile.ClusterSource) (*kube.Client, error) {
	if src == nil {
		if o.UpdateStatus && !o.Kube.configured() {
			return nil, usageErrorf("--update-status writes the status of a cluster's Services, and %s was not made --from-cluster", o.PlanFile)
		}
		return o.Kube.connect()
	}
	name := o.Kube.Context
	if name == "" {
		name = src.Context
	}
	c, err := kube.Connect(kube.Options{Kubeconfig: o.Kube.Kubeconfig, Context: name,
		Namespace: src.Namespace, AllNamespaces: src.AllNamespaces, Selector: src.Selector})
	if err == nil && src.Server != "" && c.Server() != src.Server {
		err = fmt.Errorf("%s reaches %s, not %s where the plan read its Services: pass --kubeconfig and --context for that cluster", c.Where(), c.Server(), src.Server)
	}
	if err == nil {
		return c, nil
	}
	err = fmt.Errorf("%s was made from the cluster (%s), where apply takes the lease: %w", o.PlanFile, src.Where, err)
	if o.NoLock && !o.UpdateStatus {
		st := o.IO.ErrStyle()
		fmt.Fprintf(o.IO.ErrOut, "%s --no-lock: %v; applying without comparing the cluster's Services\n", st.BoldYellow("warning:"), err)
		return nil, nil
	}
	return nil, err
}
