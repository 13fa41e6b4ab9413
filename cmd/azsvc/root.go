package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/kube"
)

func newRootCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "azsvc",
		Short: "Plan and apply the Azure networking behind Kubernetes Services",
		Long: `azsvc plans and applies the Azure networking behind Kubernetes Services of
type LoadBalancer: load balancer frontends, rules and health probes, public IPs,
NSG rules, Private Link Services, Private Endpoints and their private DNS records.

It builds exactly what the Azure cloud controller manager would build for the
same Services, shows the difference against Azure as an ordered plan, and
applies it one write at a time.`,
		Example: `  # Check the Azure annotations of every manifest under deploy/, offline
  azsvc validate -f deploy/

  # Show the Azure resources the Services imply
  azsvc render -f deploy/ --config azure.json

  # Preview the changes, failing CI when there are any
  azsvc plan -f deploy/ --detailed-exitcode`,
		Version:           a.build.String(), // --version prints what azsvc version prints
		SilenceErrors:     true,
		SilenceUsage:      true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return a.setup(cmd) },
	}
	cmd.SetIn(a.io.In)
	cmd.SetOut(a.io.Out)
	cmd.SetErr(a.io.ErrOut)
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.SetFlagErrorFunc(flagError)

	f := cmd.PersistentFlags()
	f.StringVar(&a.global.SettingsFile, "settings", "", "azsvc settings file (default: ./"+defaultConfigName+" when present; env AZSVC_SETTINGS)")
	f.BoolVar(&a.global.NoColor, "no-color", false, "disable colour (also NO_COLOR=1)")
	f.StringVarP(&a.global.Output, "output", "o", "", "output format; each command lists its formats")
	f.CountVarP(&a.global.Verbose, "verbose", "v", "print where settings came from and other detail on stderr")
	_ = cmd.RegisterFlagCompletionFunc("output", func(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return outputFormats(c.Name()), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.MarkPersistentFlagFilename("settings", "yaml", "yml")

	cmd.AddCommand(
		newValidateCmd(a, nil),
		newRenderCmd(a, nil),
		newPlanCmd(a, nil),
		newApplyCmd(a, nil),
		newShowCmd(a, nil),
		newStatusCmd(a, nil),
		newVersionCmd(a, nil),
		newEmulatorCmd(a),
		newBenchFixtureCmd(a),
		newHelpTopic("exit-codes", "Exit codes of every azsvc command", exitCodesHelp()),
		newHelpTopic("environment", "Environment variables azsvc reads", environmentHelp),
		newHelpTopic("private-endpoints", "PrivateEndpoint objects: the consumer side of Private Link", privateEndpointsHelp),
		newHelpTopic("nodes", "Nodes and EndpointSlices: backend pool members and node-IP NSG rules", nodesHelp),
		newHelpTopic("rbac", "The Kubernetes permissions azsvc needs on a cluster", rbacHelp+kube.RBAC),
		newHelpTopic("config", "azure.json as azsvc reads it, and the CCM settings it does not plan", configHelp()),
		newHelpTopicFunc("annotations", "Every Service annotation CCM reads; azsvc help annotations KEY for one", annotationsHelp),
	)
	cmd.InitDefaultHelpCmd()
	strictHelp(cmd, map[string]topicArgs{"annotations": annotationsTopic()})
	cmd.InitDefaultCompletionCmd()
	for _, sub := range cmd.Commands() {
		if !sub.Runnable() && sub.HasSubCommands() {
			sub.RunE = unknownSubcommand
		}
	}
	wrapArgsAsUsage(cmd)
	return cmd
}

// unknownSubcommand makes a command group such as "completion" reject an
// unknown subcommand; cobra would show help and exit 0.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return cmd.Help()
}

// wrapArgsAsUsage makes every positional-argument error a usage error
// (exit 64), including those of cobra's own help and completion commands.
func wrapArgsAsUsage(cmd *cobra.Command) {
	if args := cmd.Args; args != nil {
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return &usageError{err: err}
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		wrapArgsAsUsage(sub)
	}
}

// strictHelp makes "azsvc help NOSUCH" a usage error (exit 64) like an
// unknown command; cobra's own help prints a notice and exits 0. It hands
// the arguments after a topic that takes some to it, and completes topics
// as well as commands (cobra's completes commands only).
func strictHelp(root *cobra.Command, withArgs map[string]topicArgs) {
	for _, c := range root.Commands() {
		if c.Name() != "help" {
			continue
		}
		run := c.Run
		c.Run = nil
		c.RunE = func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if len(args) > 0 && (err != nil || target == root) {
				return unknownHelpTopic(root, args)
			}
			if t, ok := withArgs[target.Name()]; ok && target.Parent() == root && len(rest) > 0 {
				return t.run(cmd.OutOrStdout(), rest)
			}
			run(cmd, args)
			return nil
		}
		c.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return completeHelp(root, withArgs, args, toComplete), cobra.ShellCompDirectiveNoFileComp
		}
	}
}

// completeHelp completes `azsvc help [TOPIC [ARG]]`: the commands and
// topics, then the arguments of a topic that takes one.
func completeHelp(root *cobra.Command, withArgs map[string]topicArgs, args []string, toComplete string) []cobra.Completion {
	var out []cobra.Completion
	switch {
	case len(args) == 0:
		for _, c := range root.Commands() {
			if (c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand()) && strings.HasPrefix(c.Name(), toComplete) {
				out = append(out, cobra.CompletionWithDesc(c.Name(), c.Short))
			}
		}
	case len(args) == 1:
		if t, ok := withArgs[args[0]]; ok {
			for _, name := range t.complete() {
				if strings.HasPrefix(name, toComplete) {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// helpTopics are the names `azsvc help` accepts: commands, then topics.
func helpTopics(root *cobra.Command) (commands, topics []string) {
	for _, c := range root.Commands() {
		switch {
		case c.IsAvailableCommand():
			commands = append(commands, c.Name())
		case c.IsAdditionalHelpTopicCommand():
			topics = append(topics, c.Name())
		}
	}
	return commands, topics
}

// unknownHelpTopic is the usage error for "azsvc help TOPIC" with no such
// topic or command, naming the one probably meant ("exit codes" and
// "exitcodes" both mean exit-codes) and the topics there are.
func unknownHelpTopic(root *cobra.Command, args []string) error {
	commands, topics := helpTopics(root)
	typed := strings.Join(args, " ")
	exist := fmt.Sprintf("help topics: %s; commands: %s", strings.Join(topics, ", "), strings.Join(commands, ", "))
	if best, ok := service.Closest(strings.ToLower(strings.Join(args, "-")), append(commands, topics...)); ok {
		return usageErrorf("unknown help topic %q (did you mean azsvc help %s?); %s", typed, best, exist)
	}
	return usageErrorf("unknown help topic %q; %s", typed, exist)
}
