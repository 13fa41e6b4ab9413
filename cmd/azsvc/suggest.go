package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/azsvc/azsvc/plan/service"
)

// unknownFlag matches pflag's errors for a flag it does not know: a long
// one, or a shorthand, such as Terraform's single-dash -out=plan.json.
var unknownFlag = regexp.MustCompile(`^unknown (?:flag: --([^\s=]+)|shorthand flag: '.' in -([^\s=]+))`)

// flagError makes a flag parsing error a usage error and, for a flag the
// command does not know, suggests the one probably meant: cobra suggests
// commands, not flags.
func flagError(cmd *cobra.Command, err error) error {
	if bad := invalidFlagValue(err); bad != nil {
		return bad
	}
	if s := suggestFlag(cmd, err.Error()); s != "" {
		return &usageError{err: fmt.Errorf("%w (did you mean %s?)", err, s)}
	}
	return &usageError{err: err}
}

// suggestFlag is "--name" for the flag of cmd an unknown one most likely
// stands for: the same name given with one dash, a near spelling, or the
// only flag it starts; "" when none is close.
func suggestFlag(cmd *cobra.Command, msg string) string {
	m := unknownFlag.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	typed := m[1] + m[2]
	var names []string
	seen := map[string]bool{}
	add := func(f *pflag.Flag) {
		if !f.Hidden && !seen[f.Name] {
			seen[f.Name] = true
			names = append(names, f.Name)
		}
	}
	cmd.Flags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	sort.Strings(names)
	if m[2] != "" && seen[typed] {
		return "--" + typed // -detailed-exitcode, one dash as Terraform writes it
	}
	if best, ok := service.Closest(typed, names); ok {
		return "--" + best
	}
	var prefixed []string
	for _, n := range names {
		if len(typed) >= 3 && strings.HasPrefix(n, typed) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return "--" + prefixed[0]
	}
	return ""
}
