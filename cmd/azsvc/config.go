package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cast"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
)

// defaultConfigName is looked up in the working directory when --config is
// not given.
const defaultConfigName = "azsvc.yaml"

// envPrefix starts every azsvc environment variable.
const envPrefix = "AZSVC"

// configurable reports whether a flag can be set from the environment or
// the settings file: --settings is resolved before the file is read, and help
// and version are not settings.
func configurable(flag string) bool {
	return flag != "settings" && flag != "help" && flag != "version"
}

// configSource says where a flag's value came from, for -v and tests.
type configSource struct {
	Flag     string
	Origin   string // "env AZSVC_OUTPUT", "azsvc.yaml (validate.output)"
	FromFile bool   // the settings file, not the environment
}

// resolvedConfig is what applyConfig did.
type resolvedConfig struct {
	File     string // the config file read; "" for none
	Sources  []configSource
	Warnings []string // unknown keys in the file
}

// applyConfig is the one place configuration is bound. For every flag of
// cmd not given on the command line it takes, in order (ux-anchors §8.8):
//
//  1. the environment, AZSVC_<COMMAND>_<FLAG> then AZSVC_<FLAG>;
//  2. the config file (--settings, AZSVC_SETTINGS, or ./azsvc.yaml), key
//     <command>.<flag> then <flag>;
//
// and leaves the flag's default otherwise. Dashes in flag names become
// underscores in variable names: --cluster-name is AZSVC_CLUSTER_NAME.
// Writing the resolved value back into the flag means options structs see
// one value and never ask viper.
func applyConfig(cmd *cobra.Command, configFlag, dir string) (resolvedConfig, error) {
	var res resolvedConfig
	env := viper.New()
	env.SetEnvPrefix(envPrefix)
	env.SetEnvKeyReplacer(strings.NewReplacer("-", "_", ".", "_"))
	env.AutomaticEnv()

	file, err := configFile(configFlag, env.GetString("settings"), dir)
	if err != nil {
		return res, err
	}
	res.File = file
	cfg := viper.New()
	if file != "" {
		cfg.SetConfigFile(file)
		cfg.SetConfigType("yaml")
		if err := cfg.ReadInConfig(); err != nil {
			return res, fmt.Errorf("read config file %s: %w", file, err)
		}
		if looksLikeAzureJSON(cfg.AllKeys()) {
			return res, usageErrorf("%s looks like the cloud provider's azure.json, not an azsvc settings file: pass it with --config", file)
		}
		res.Warnings = unknownKeys(cmd.Root(), cfg.AllKeys(), file)
	}

	var setErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if setErr != nil || f.Changed || !configurable(f.Name) {
			return
		}
		for _, c := range lookups(env, cfg, filepath.Base(file), cmd.Name(), f.Name) {
			if !c.v.IsSet(c.key) {
				continue
			}
			value := c.v.Get(c.key)
			if c.v == cfg {
				value = relativeToFile(f, value, file)
			}
			if err := setFlag(f, value); err != nil {
				setErr = usageErrorf("invalid value for --%s from %s: %w", f.Name, c.origin, flagValueError(f, fmt.Sprint(value), err))
				return
			}
			res.Sources = append(res.Sources, configSource{Flag: f.Name, Origin: c.origin, FromFile: c.v == cfg})
			return
		}
	})
	return res, setErr
}

type lookup struct {
	v      *viper.Viper
	key    string
	origin string
}

// origins says where each flag of cmd that has a value came from, for the
// target rule (engine.ChooseTarget): the command line, the environment or
// the settings file.
func (res resolvedConfig) origins(cmd *cobra.Command) map[string]engine.Origin {
	out := map[string]engine.Origin{}
	cmd.Flags().Visit(func(f *pflag.Flag) { out[f.Name] = engine.Origin{Rank: engine.RankFlag} })
	for _, s := range res.Sources {
		rank := engine.RankEnv
		if s.FromFile {
			rank = engine.RankFile
		}
		out[s.Flag] = engine.Origin{Rank: rank, Where: s.Origin}
	}
	return out
}

// lookups lists where a flag's value may come from, most important first.
// The file also accepts the flag name without dashes, so azure.json-style
// camelCase keys (clusterName) work as well as flag-style ones
// (cluster-name); viper lower-cases keys, so either matches.
func lookups(env, cfg *viper.Viper, fileName, command, flag string) []lookup {
	scoped := command + "." + flag
	compact := strings.ReplaceAll(flag, "-", "")
	ls := []lookup{
		{env, scoped, "env " + envName(scoped)},
		{env, flag, "env " + envName(flag)},
	}
	for _, key := range []string{scoped, command + "." + compact, flag, compact} {
		ls = append(ls, lookup{cfg, key, fileName + " (" + key + ")"})
	}
	return ls
}

func envName(key string) string {
	return envPrefix + "_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(key))
}

// configFile picks the file to read: the flag, then AZSVC_SETTINGS (both must
// exist), then azsvc.yaml in dir if there is one.
func configFile(flagValue, envValue, dir string) (string, error) {
	for _, explicit := range []string{flagValue, envValue} {
		if explicit == "" {
			continue
		}
		if _, err := os.Stat(explicit); err != nil {
			return "", fmt.Errorf("config file: %w", err)
		}
		return explicit, nil
	}
	def := filepath.Join(dir, defaultConfigName)
	switch _, err := os.Stat(def); {
	case err == nil:
		return def, nil
	case errors.Is(err, os.ErrNotExist):
		return "", nil
	default:
		return "", fmt.Errorf("config file: %w", err)
	}
}

// setFlag stores a value from viper into a flag. Lists from YAML replace a
// slice flag's value; strings go through the flag's own parser, so an env
// value "a,b" is split as on the command line.
func setFlag(f *pflag.Flag, value any) error {
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		if _, isString := value.(string); !isString {
			list, err := cast.ToStringSliceE(value)
			if err != nil {
				return err
			}
			f.Changed = true
			return sv.Replace(list)
		}
	}
	s, err := cast.ToStringE(value)
	if err != nil {
		return err
	}
	if err := f.Value.Set(s); err != nil {
		return err
	}
	f.Changed = true
	return nil
}

// unknownKeys warns about config keys that name no flag, the same lesson
// as annotation typos (ux-anchors §8.8): a misspelt key must not be
// silently ignored.
func unknownKeys(root *cobra.Command, keys []string, file string) []string {
	known := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !configurable(f.Name) {
				return
			}
			for _, name := range keyForms(f.Name) {
				known[name] = true
				known[c.Name()+"."+name] = true
			}
		})
		for _, sub := range c.Commands() {
			for _, pf := range flagNames(c.PersistentFlags()) {
				if !configurable(pf) {
					continue
				}
				for _, name := range keyForms(pf) {
					known[name] = true
					known[sub.Name()+"."+name] = true
				}
			}
			walk(sub)
		}
	}
	walk(root)
	var warnings []string
	for _, k := range keys {
		switch {
		case known[k]:
		default:
			warnings = append(warnings, fmt.Sprintf("%s: unknown key %q is ignored", file, k))
		}
	}
	sort.Strings(warnings)
	return warnings
}

func keyForms(flag string) []string {
	return []string{flag, strings.ReplaceAll(flag, "-", "")}
}

// looksLikeAzureJSON catches CCM's azure.json passed as azsvc's config file,
// an easy mix-up since both are "the config": two or more of its
// characteristic keys is enough to tell.
func looksLikeAzureJSON(keys []string) bool {
	n := 0
	for _, k := range keys {
		switch k {
		case "tenantid", "subscriptionid", "resourcegroup", "vnetname", "subnetname",
			"securitygroupname", "aadclientid", "useinstancemetadata", "loadbalancersku":
			n++
		}
	}
	return n >= 2
}

func flagNames(fs *pflag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	return names
}

// relativeToFile resolves a relative file path given in the settings file
// against the settings file's directory, as kubeconfig does: "config:
// azure.json" next to azsvc.yaml works from any working directory.
func relativeToFile(f *pflag.Flag, value any, file string) any {
	path, ok := value.(string)
	if _, isFile := f.Annotations[cobra.BashCompFilenameExt]; !ok || !isFile || path == "" || filepath.IsAbs(path) {
		return value
	}
	return filepath.Join(filepath.Dir(file), path)
}
