package plan

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Values in Resource bodies are JSON-like: string, bool, numbers, []any,
// map[string]any, and the markers of unknown.go. These helpers copy and
// read them the same way everywhere.

// CloneValue deep-copies a JSON-like value so plans never alias their
// inputs.
func CloneValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = CloneValue(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = CloneValue(x)
		}
		return out
	}
	return v
}

// CloneProps deep-copies a properties object; nil stays nil.
func CloneProps(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return CloneValue(m).(map[string]any)
}

// Clone deep-copies r.
func (r *Resource) Clone() *Resource {
	c := *r
	c.Properties = CloneProps(r.Properties)
	if r.SKU != nil {
		c.SKU = CloneProps(r.SKU)
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

// Number reads any JSON-like numeric value as float64.
func Number(v any) (float64, bool) {
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

// SortedUnique returns a sorted copy of in without repeats; nil when empty.
func SortedUnique(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := slices.Clone(in)
	slices.Sort(out)
	return slices.Compact(out)
}

// Dependencies returns every resource r depends on: {"id": ...}
// references, string fields named like "privateLinkServiceId" that hold an
// ARM ID, and the sources of AfterApply markers. Sorted, de-duplicated,
// without r itself. Ordering and reference checks use it.
func Dependencies(r *Resource) []Key {
	var out []Key
	EachReference(r.Properties, func(ref string) { out = append(out, KeyOf(ref)) })
	if len(out) == 0 {
		return nil
	}
	slices.Sort(out)
	out = slices.Compact(out)
	self := r.Key()
	return slices.DeleteFunc(out, func(k Key) bool { return k == self })
}

// EachReference calls f with every reference in v as written: {"id": ...}
// objects, string fields named like "privateLinkServiceId" that hold an
// ARM ID, and the sources of AfterApply markers (as keys).
func EachReference(v any, f func(ref string)) { eachReference(v, "", f) }

func eachReference(v any, key string, f func(string)) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			eachReference(x, k, f)
		}
	case []any:
		for _, x := range t {
			eachReference(x, key, f)
		}
	case string:
		if (key == "id" || strings.HasSuffix(key, "Id")) && strings.HasPrefix(t, "/subscriptions/") {
			f(t)
		}
	default:
		if src, _, ok := UnknownSource(v); ok {
			f(string(src))
		}
	}
}

// MapLeaves returns v with every value that is not an object or a list
// replaced by f's result; objects and lists are modified in place, so v
// should be a fresh copy.
func MapLeaves(v any, f func(any) any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = MapLeaves(x, f)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = MapLeaves(x, f)
		}
		return t
	}
	return f(v)
}

// HasMarker reports whether v holds an AfterApply marker anywhere.
func HasMarker(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if HasMarker(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if HasMarker(x) {
				return true
			}
		}
	default:
		_, _, ok := UnknownSource(v)
		return ok
	}
	return false
}

// AllScalars reports whether no element of l is a map or a list: such a
// list is compared, and shown, as a set of members.
func AllScalars(l []any) bool {
	for _, v := range l {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

// EachLeafPath calls f with every value of v that is not an object or a
// list, and its path below prefix (keys, list indexes as strings), objects
// in key order: where the JSON of a body holds what.
func EachLeafPath(prefix []string, v any, f func(path []string, leaf any)) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			EachLeafPath(append(append([]string(nil), prefix...), k), t[k], f)
		}
	case []any:
		for i, x := range t {
			EachLeafPath(append(append([]string(nil), prefix...), strconv.Itoa(i)), x, f)
		}
	default:
		f(prefix, v)
	}
}

// eachLeaf calls f with every value of v that is not an object or a list.
func eachLeaf(v any, f func(leaf any)) {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			eachLeaf(x, f)
		}
	case []any:
		for _, x := range t {
			eachLeaf(x, f)
		}
	default:
		f(v)
	}
}
