package plan

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// AttributeChange is one field an update or replace changes. Path is the
// JSON path inside the ARM body, e.g. ["properties", "frontendPort"].
type AttributeChange struct {
	Path              []string `json:"path"`
	Before            any      `json:"before"`
	After             any      `json:"after"`
	ForcesReplacement bool     `json:"forces_replacement,omitempty"`
}

// caseInsensitive reports the fields ARM compares without regard to case:
// enum-like strings and resource IDs (arm-rules §1.2 "Compare IDs
// case-insensitively"). A switch, not a map: it runs for every compared
// field.
func caseInsensitive(field string) bool {
	switch field {
	case "id", "protocol", "access", "direction",
		"privateIPAllocationMethod", "publicIPAllocationMethod",
		"privateIPAddressVersion", "publicIPAddressVersion",
		"loadDistribution", "privateLinkServiceId", "location",
		"name", "tier":
		return true
	}
	return false
}

// compareValue appends to out every difference between want (desired) and
// got (observed) at path. Only what want sets is compared; Unknown in want
// matches anything (ux-anchors §8.2 "(known after apply)" is not a change
// by itself).
func compareValue(path []string, key string, want, got any, out *[]AttributeChange) {
	if IsUnknown(want) {
		if _, _, ok := UnknownSource(want); ok && got == nil {
			*out = append(*out, AttributeChange{Path: clonePath(path), Before: nil, After: want})
		}
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, AttributeChange{Path: clonePath(path), Before: got, After: want})
			return
		}
		// Visiting keys in map order and sorting only the differences found
		// (stably, by the key at this depth) gives the sorted-key order
		// without sorting the keys of every equal map.
		start := len(*out)
		for k, x := range w {
			compareValue(append(path, k), k, x, g[k], out)
		}
		if found := (*out)[start:]; len(found) > 1 {
			depth := len(path)
			sort.SliceStable(found, func(i, j int) bool { return found[i].Path[depth] < found[j].Path[depth] })
		}
	case []any:
		if !equalList(key, w, got) {
			*out = append(*out, AttributeChange{Path: clonePath(path), Before: got, After: want})
		}
	default:
		if !equalScalar(key, want, got) {
			*out = append(*out, AttributeChange{Path: clonePath(path), Before: got, After: want})
		}
	}
}

func equalList(key string, want []any, got any) bool {
	g, ok := got.([]any)
	if !ok {
		return len(want) == 0 && got == nil
	}
	if len(want) != len(g) {
		return false
	}
	if allScalars(want) && allScalars(g) {
		// Lists of strings (ports, prefixes, zones) are sets to ARM.
		ws, gs := scalarStrings(key, want), scalarStrings(key, g)
		for i := range ws {
			if ws[i] != gs[i] && ws[i] != "\x00unknown" {
				return false
			}
		}
		return true
	}
	for i := range want {
		var diffs []AttributeChange
		compareValue(nil, key, want[i], g[i], &diffs)
		if len(diffs) > 0 {
			return false
		}
	}
	return true
}

func allScalars(l []any) bool {
	for _, v := range l {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

func scalarStrings(key string, l []any) []string {
	out := make([]string, len(l))
	for i, v := range l {
		if IsUnknown(v) {
			out[i] = "\x00unknown"
			continue
		}
		s := fmt.Sprint(v)
		if caseInsensitive(key) {
			s = strings.ToLower(s)
		}
		out[i] = s
	}
	sort.Strings(out)
	return out
}

func equalScalar(key string, want, got any) bool {
	if wn, ok := number(want); ok {
		gn, ok := number(got)
		return ok && wn == gn
	}
	ws, wok := want.(string)
	gs, gok := got.(string)
	if wok && gok {
		if caseInsensitive(key) {
			return strings.EqualFold(ws, gs)
		}
		return ws == gs
	}
	return want == got
}

// number reads any JSON-like numeric value as float64.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// overlay returns base with want laid over it: the body azsvc sends for an
// update. Fields want does not set keep their observed values (Azure fills
// them, and a PUT without them would reset them); Unknown in want keeps the
// observed value when there is one.
func overlay(base, want any) any {
	if IsUnknown(want) {
		if _, _, ok := UnknownSource(want); !ok && base != nil {
			return cloneValue(base)
		}
		return want
	}
	switch w := want.(type) {
	case map[string]any:
		b, _ := base.(map[string]any)
		out := make(map[string]any, len(b)+len(w))
		for k, v := range b {
			out[k] = cloneValue(v)
		}
		for k, v := range w {
			if v == nil {
				delete(out, k) // a desired null means the field must go
				continue
			}
			out[k] = overlay(b[k], v)
		}
		return out
	case []any:
		b, _ := base.([]any)
		out := make([]any, len(w))
		for i, v := range w {
			if len(b) == len(w) {
				out[i] = overlay(b[i], v)
			} else {
				out[i] = cloneValue(v)
			}
		}
		return out
	}
	return want
}

// withoutAbsent is the body to create: desired properties set to null
// ("this field must be absent", e.g. a removed DNS label) are left out, as
// ARM's SDKs omit unset fields.
func withoutAbsent(r *Resource) *Resource {
	if !hasNull(r.Properties) {
		return r
	}
	c := cloneResource(r)
	c.Properties = overlay(map[string]any{}, c.Properties).(map[string]any)
	return c
}

// hasNull looks through nested objects only: overlay replaces lists whole.
func hasNull(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, x := range t {
			if hasNull(x) {
				return true
			}
		}
	}
	return false
}

// cloneValue deep-copies a JSON-like value so plans never alias their
// inputs.
func cloneValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = cloneValue(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = cloneValue(x)
		}
		return out
	}
	return v
}

func cloneProps(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return cloneValue(m).(map[string]any)
}

func cloneResource(r *Resource) *Resource {
	c := *r
	c.Properties = cloneProps(r.Properties)
	if r.SKU != nil {
		c.SKU = cloneProps(r.SKU)
	}
	if r.Tags != nil {
		c.Tags = make(map[string]string, len(r.Tags))
		for k, v := range r.Tags {
			c.Tags[k] = v
		}
	}
	c.Zones = append([]string(nil), r.Zones...)
	if r.Zones == nil {
		c.Zones = nil
	}
	c.Services = append([]string(nil), r.Services...)
	return &c
}

func clonePath(p []string) []string { return append([]string(nil), p...) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedUnique(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := append([]string(nil), in...)
	sort.Strings(out)
	j := 0
	for i := range out {
		if i == 0 || out[i] != out[j-1] {
			out[j] = out[i]
			j++
		}
	}
	return out[:j]
}

// refID reads the id of an ARM reference object {"id": ...}.
func refID(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	s, _ := m["id"].(string)
	return s
}

// refsOf returns every resource r depends on: {"id": ...} references,
// string fields named like "privateLinkServiceId" that hold an ARM ID, and
// the sources of AfterApply markers. Sorted, de-duplicated.
func refsOf(r *Resource) []Key {
	var out []Key
	collectDeps(r.Properties, "", &out)
	if len(out) == 0 {
		return nil
	}
	sortKeys(out)
	self := r.Key()
	j := 0
	for i, k := range out {
		if k != self && (i == 0 || k != out[i-1]) {
			out[j] = k
			j++
		}
	}
	return out[:j]
}

func collectDeps(v any, key string, out *[]Key) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			collectDeps(x, k, out)
		}
	case []any:
		for _, x := range t {
			collectDeps(x, key, out)
		}
	case string:
		if (key == "id" || strings.HasSuffix(key, "Id")) && strings.HasPrefix(t, "/subscriptions/") {
			*out = append(*out, KeyOf(t))
		}
	default:
		if src, _, ok := UnknownSource(v); ok {
			*out = append(*out, src)
		}
	}
}
