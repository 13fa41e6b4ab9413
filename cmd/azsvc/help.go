package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
)

// newHelpTopic is a command that only carries text, shown by
// `azsvc help <topic>` and listed under "Additional help topics", as gh
// does (ux-anchors §8.8).
func newHelpTopic(name, short, text string) *cobra.Command {
	return newHelpTopicFunc(name, short, func() string { return text })
}

// newHelpTopicFunc is newHelpTopic for a text made only when it is shown.
func newHelpTopicFunc(name, short string, text func() string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   name,
		Short: short,
	}
	cmd.SetHelpFunc(func(c *cobra.Command, _ []string) {
		fmt.Fprint(c.OutOrStdout(), text())
	})
	return cmd
}

// topicArgs is a help topic that takes arguments: `azsvc help annotations
// KEY`. cobra's help command drops them, so strictHelp hands them here.
type topicArgs struct {
	run func(w io.Writer, args []string) error
	// complete lists the arguments the shell may complete.
	complete func() []string
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

Target (plan and apply):

  AZSVC_TARGET        auto (the default), azure or emulator: --target
  AZSVC_SUBSCRIPTION  the subscription: --subscription
  AZSVC_STATE         the local emulator's state file: --state
  AZSVC_ARM_ENDPOINT  an ARM-compatible endpoint's URL: --arm-endpoint
  AZSVC_ARM_TOKEN     its bearer token: --arm-token (the variable keeps the
                      token out of the process list)

` + engine.TargetRule + `

Azure credentials (when the target is Azure) come from azure.json as the
cloud controller manager reads them: workload identity
(useFederatedWorkloadIdentityExtension and aadFederatedTokenFile), else managed
identity (useManagedIdentityExtension, userAssignedIdentityID), else a client
secret (aadClientId, aadClientSecret, tenantId), else a client certificate
(aadClientCertPath); with none of these, the Azure SDK's default chain
(environment, workload identity, managed identity, az, azd, PowerShell). The
cloud is azure.json's cloud (AzurePublicCloud, AzureChinaCloud,
AzureUSGovernmentCloud) or the one its resourceManagerEndpoint describes. As
for the cloud controller manager, these variables override azure.json:

  AZURE_FEDERATED_TOKEN_FILE  turns workload identity on, with this token file
  AZURE_CLIENT_ID             the client (application) ID
  AZURE_TENANT_ID             the tenant
  AZURE_CLIENT_SECRET         the client secret

and the SDK's default chain reads the usual AZURE_* variables, among them
AZURE_TOKEN_CREDENTIALS (dev, prod or one credential's name) to narrow it.

CI (plan and show):

  GITHUB_STEP_SUMMARY   with -o markdown and no --summary-file, the whole
                        plan is appended to this file (GitHub Actions' job
                        summary); the comment points there when it cannot
                        hold every Service
  GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_RUN_ID
                        link the comment to the GitHub Actions run
  SYSTEM_COLLECTIONURI, SYSTEM_TEAMPROJECT, BUILD_BUILDID
                        link the comment to the Azure Pipelines run

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

Go runtime:

  GOGC   the garbage collector's target; when it is not set, validate uses 400
         (less CPU on large inputs for a little more memory)
`
