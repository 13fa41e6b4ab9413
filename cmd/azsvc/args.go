package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/azsvc/azsvc/plan/planfile"
)

// inputArgs is the positional-argument check of the commands that read
// manifests with -f only (validate, render, plan): a bare path is almost
// always a manifest meant for -f, so the error says how to give it.
func inputArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if err := singleDashFlag(cmd, args[0]); err != nil {
		return err
	}
	flags := make([]string, len(args))
	for i, arg := range args {
		flags[i] = "-f " + shellWord(arg)
	}
	return usageErrorf("unexpected argument %q: %s reads manifests with -f: %s %s",
		args[0], cmd.Name(), cmd.CommandPath(), strings.Join(flags, " "))
}

// singleDashFlag catches Terraform's single-dash -out FILE: pflag reads it
// as -o ut and FILE as an argument, so the user would be told about the
// argument, not the flag. arg is the first argument.
func singleDashFlag(cmd *cobra.Command, arg string) error {
	o := cmd.Flag("output")
	if o == nil || !o.Changed || o.Value.String() == "" || cmd.Flags().Lookup("o"+o.Value.String()) == nil {
		return nil
	}
	return usageErrorf("unknown output format %q: use one of %s (did you mean --o%s %s?)",
		o.Value.String(), joinOr(outputFormats(cmd.Name())), o.Value.String(), shellWord(arg))
}

// savedPlanArg is show's positional-argument check: exactly one saved
// plan, worded like the other usage errors.
func savedPlanArg(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usageErrorf("no saved plan: give the file azsvc plan --out wrote (%s plan.json)", cmd.CommandPath())
	}
	return optionalPlanArg(cmd, args)
}

// optionalPlanArg is apply's: at most one saved plan.
func optionalPlanArg(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return usageErrorf("one saved plan at a time: got %q and %q (manifests go with -f: %s -f FILE|DIR)", args[0], args[1], cmd.CommandPath())
	}
	return nil
}

// shellWord quotes s for a POSIX shell when it needs quoting, so a
// suggested command line can be pasted as it is.
func shellWord(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maxSniff bounds what notSavedPlan reads of a file that failed to load.
const maxSniff = 1 << 20

// yamlObjectKey finds a top-level apiVersion or kind key in YAML.
var yamlObjectKey = regexp.MustCompile(`(?m)^(apiVersion|kind)\s*:`)

// notSavedPlan explains why apply FILE (or show FILE) failed when FILE is
// not a saved plan at all but manifests (a directory, YAML, or JSON with
// apiVersion or kind): the user meant "use -f FILE" with the command use
// names. It returns nil when FILE is neither, or when the load failed for
// another reason (an edited plan, a read error).
func notSavedPlan(file, use string, loadErr error) error {
	if errors.Is(loadErr, planfile.ErrModified) {
		return nil
	}
	fi, err := os.Stat(file)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		return usageErrorf("%s is a directory of manifests, not a saved plan: use %s -f %s", file, use, shellWord(file))
	}
	if !fi.Mode().IsRegular() {
		return nil // a FIFO or device could block or never end
	}
	f, err := os.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	head, err := io.ReadAll(io.LimitReader(f, maxSniff))
	if err != nil || planfile.LooksSaved(head) || !looksLikeManifest(file, head) {
		return nil // a damaged plan holds manifests too: ErrNotPlanFile says it
	}
	return usageErrorf("%s is a manifest, not a saved plan: use %s -f %s", file, use, shellWord(file))
}

// looksLikeManifest reports whether data reads as Kubernetes manifests:
// JSON whose object has apiVersion or kind, or (not JSON) YAML with one of
// them at the top level of a document, or a .yaml/.yml file.
func looksLikeManifest(name string, data []byte) bool {
	trimmed := strings.TrimSpace(string(data))
	if strings.HasPrefix(trimmed, "{") {
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			// Cut off at maxSniff, or not JSON at all: look at the keys.
			return strings.Contains(trimmed, `"apiVersion"`) || strings.Contains(trimmed, `"kind"`)
		}
		_, api := obj["apiVersion"]
		_, kind := obj["kind"]
		return api || kind
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml":
		return true
	}
	return yamlObjectKey.MatchString(trimmed)
}
