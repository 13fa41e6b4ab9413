package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// newHelpTopic is a command that only carries text, shown by
// `azsvc help <topic>` and listed under "Additional help topics", as gh
// does (ux-anchors §8.8).
func newHelpTopic(name, short, text string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   name,
		Short: short,
		Long:  text,
	}
	cmd.SetHelpFunc(func(c *cobra.Command, _ []string) {
		fmt.Fprint(c.OutOrStdout(), c.Long)
	})
	return cmd
}

const environmentHelp = `Every flag can also be set from the environment or the config file. For a
flag not given on the command line azsvc looks, in order, at:

  AZSVC_<COMMAND>_<FLAG>   e.g. AZSVC_PLAN_DETAILED_EXITCODE=true
  AZSVC_<FLAG>             e.g. AZSVC_CLUSTER_NAME=prod, AZSVC_OUTPUT=json
  <command>.<flag>         in the config file, e.g. "plan: {detailed-exitcode: true}"
  <flag>                   in the config file, e.g. "cluster-name: prod"

Dashes in flag names become underscores in variable names. The config file is
--settings FILE, else AZSVC_SETTINGS, else azsvc.yaml in the working directory.
Unknown keys in it are reported as warnings.

Colour:

  NO_COLOR          set and non-empty: never colour (https://no-color.org)
  CLICOLOR_FORCE    set, not "0": colour even when output is not a terminal
  FORCE_COLOR       the same as CLICOLOR_FORCE
  CLICOLOR=0        no colour
  TERM=dumb         no colour

--no-color wins over all of them. Without any, colour is on for terminals only.
Machine formats (-o json, -o sarif) are never coloured.

Kubernetes (--from-cluster, and apply's lease), as kubectl reads them:

  KUBECONFIG                 kubeconfig files when --kubeconfig is not given
                             (default ~/.kube/config)
  KUBERNETES_SERVICE_HOST,   set in a Pod: with no kubeconfig, the Pod's service
  KUBERNETES_SERVICE_PORT    account and namespace are used
  USER                       names the lease holder, azsvc-<user>@<host>, when
                             the user has no passwd entry
`
