package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Parse reads CCM's azure.json. It applies CCM's defaults (§10; the default
// SKU is standard, not basic as CCM's docs claim), returns a note for every
// key CCM does not know (kept in Config.Unknown, never echoing values, since
// azure.json may hold secrets), and fails on a missing required key, a value
// of the wrong type or an out-of-range enum, naming the key. The cluster name
// defaults to "kubernetes"; the caller sets ClusterName and Subscription from
// azsvc's own settings and then calls Validate.
func Parse(data []byte) (*Config, []string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, nil, jsonError(data, err)
	}
	cfg := &Config{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(cfg); err != nil {
		return nil, nil, jsonError(data, err)
	}
	notes := cfg.collectUnknown(raw)
	notes = append(notes, cfg.Auth.notes()...)
	cfg.applyDefaults()
	if err := cfg.check(); err != nil {
		return nil, notes, err
	}
	return cfg, notes, nil
}

// Validate checks what only the complete configuration can tell: after the
// caller filled in azsvc's settings.
func (c *Config) Validate() error {
	if strings.TrimSpace(c.ClusterName) == "" {
		return errors.New("cluster name is empty")
	}
	if c.SubscriptionForIDs() == "" {
		return errors.New(`no subscription: set "subscriptionId" in azure.json or azsvc's subscription setting`)
	}
	if c.MultiSLB() {
		for _, m := range c.MultipleStandardLoadBalancerConfigurations {
			if strings.EqualFold(m.Name, c.ClusterName) {
				return nil
			}
		}
		return fmt.Errorf("multipleStandardLoadBalancerConfigurations: no configuration is named after the cluster %q (ccm-semantics §2.2)", c.ClusterName)
	}
	return nil
}

func (c *Config) applyDefaults() {
	if c.ClusterName == "" {
		c.ClusterName = DefaultClusterName
	}
	if c.LoadBalancerSKU == "" { // only empty: CCM takes "  " as a SKU (normalizeSKU)
		c.LoadBalancerSKU = SKUStandard
	}
	c.BackendPoolType = orDefault(c.BackendPoolType, PoolNodeIPConfiguration)
	c.HealthProbeMode = strings.ToLower(orDefault(c.HealthProbeMode, ProbeModeServiceNodePort))
	if c.SharedHealthProbePort == 0 {
		c.SharedHealthProbePort = 10256
	}
	c.SharedHealthProbePath = orDefault(c.SharedHealthProbePath, "/healthz")
	if c.MaximumLoadBalancerRuleCount == 0 {
		c.MaximumLoadBalancerRuleCount = 250
	}
	if c.LoadBalancerBackendPoolUpdateInterval == 0 {
		c.LoadBalancerBackendPoolUpdateInterval = 30
	}
	c.VMType = orDefault(c.VMType, "vmss")
	if c.ExcludeMasterFromStandardLB == nil {
		t := true
		c.ExcludeMasterFromStandardLB = &t
	}
	for i := range c.MultipleStandardLoadBalancerConfigurations {
		m := &c.MultipleStandardLoadBalancerConfigurations[i]
		if m.AllowServicePlacement == nil {
			t := true
			m.AllowServicePlacement = &t
		}
	}
}

func (c *Config) check() error {
	for _, req := range []struct{ key, val string }{
		{"resourceGroup", c.ResourceGroup},
		{"location", c.Location},
		{"securityGroupName", c.SecurityGroupName},
	} {
		if strings.TrimSpace(req.val) == "" {
			return fmt.Errorf("missing required key %q", req.key)
		}
	}
	if err := c.Auth.check(); err != nil {
		return err
	}
	if err := c.normalizeSKU(); err != nil {
		return err
	}
	if err := oneOf("loadBalancerBackendPoolConfigurationType", c.BackendPoolType, PoolNodeIPConfiguration, PoolNodeIP, PoolPodIP); err != nil {
		return err
	}
	if err := oneOf("clusterServiceLoadBalancerHealthProbeMode", c.HealthProbeMode, ProbeModeServiceNodePort, ProbeModeShared); err != nil {
		return err
	}
	if c.DisableOutboundSNAT && !c.Standard() {
		return errors.New(`"disableOutboundSNAT" needs loadBalancerSku standard`)
	}
	if err := c.checkServiceGateway(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, m := range c.MultipleStandardLoadBalancerConfigurations {
		key := fmt.Sprintf("multipleStandardLoadBalancerConfigurations[%d]", i)
		if strings.TrimSpace(m.Name) == "" {
			return fmt.Errorf("%s: missing required key \"name\"", key)
		}
		if strings.TrimSpace(m.PrimaryVMSet) == "" {
			return fmt.Errorf("%s: missing required key \"primaryVMSet\"", key)
		}
		if seen[strings.ToLower(m.Name)] {
			return fmt.Errorf("%s: duplicate name %q", key, m.Name)
		}
		if err := m.NodeSelector.check(); err != nil {
			return fmt.Errorf("%s.nodeSelector: %w (CCM fails every reconcile on it)", key, err)
		}
		seen[strings.ToLower(m.Name)] = true
	}
	return nil
}

func oneOf(key, val string, allowed ...string) error {
	for _, a := range allowed {
		if strings.EqualFold(val, a) {
			return nil
		}
	}
	return fmt.Errorf("%q: invalid value %q (want one of %s)", key, val, strings.Join(allowed, ", "))
}

// collectUnknown records keys that are neither modelled nor known CCM keys.
// encoding/json matches keys case-insensitively, so the check does too.
func (c *Config) collectUnknown(raw map[string]json.RawMessage) []string {
	known, ignored := modelledKeys(), ignoredKeys()
	var notes []string
	for k, v := range raw {
		lk := strings.ToLower(k)
		if known[lk] || ignored[lk] {
			continue
		}
		if c.Unknown == nil {
			c.Unknown = map[string]any{}
		}
		var val any
		_ = json.Unmarshal(v, &val) // already valid JSON
		c.Unknown[k] = val
		notes = append(notes, fmt.Sprintf("azure.json: unknown key %q ignored", k))
	}
	sort.Strings(notes)
	return notes
}

func modelledKeys() map[string]bool {
	out := map[string]bool{}
	addJSONKeys(out, reflect.TypeOf(Config{}))
	return out
}

// addJSONKeys adds the JSON keys of t's fields, descending into embedded
// structs as encoding/json does.
func addJSONKeys(out map[string]bool, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			addJSONKeys(out, f.Type)
		case name != "" && name != "-":
			out[strings.ToLower(name)] = true
		}
	}
}

// jsonError turns a decoding error into one naming the line and column or
// the key at fault.
func jsonError(data []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := lineCol(data, syn.Offset)
		return fmt.Errorf("line %d, column %d: %w", line, col, err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		line, col := lineCol(data, typ.Offset)
		// The embedded Auth struct's Go name is no JSON key.
		field := strings.TrimPrefix(typ.Field, "Auth.")
		return &typeError{msg: fmt.Sprintf("line %d, column %d: key %q: want %s, got %s",
			line, col, field, JSONWant(typ.Type), jsonGot(typ.Value)), err: err}
	}
	return fmt.Errorf("parse azure.json: %w", err)
}

// typeError is a value of the wrong JSON type, in azure.json's words: the
// Go struct and type encoding/json names are no help to its author.
type typeError struct {
	msg string
	err error
}

func (e *typeError) Error() string { return e.msg }
func (e *typeError) Unwrap() error { return e.err }

// JSONWant names the JSON a field of Go type t takes, for messages about
// JSON that encoding/json could not decode into it.
func JSONWant(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return JSONWant(t.Elem())
	}
	return "a " + t.Kind().String()
}

// jsonGot names the JSON value encoding/json found ("number", "number
// 1.5", "array", ...).
func jsonGot(value string) string {
	kind, literal, _ := strings.Cut(value, " ")
	what := map[string]string{"string": "a string", "number": "a number", "bool": "true or false",
		"array": "a list", "object": "an object"}[kind]
	switch {
	case what == "":
		return value
	case literal != "":
		return what + " (" + literal + ")"
	}
	return what
}

func lineCol(data []byte, offset int64) (int, int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	prefix := data[:offset]
	line := bytes.Count(prefix, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(prefix, '\n')
	return line, col
}
