package azure

import "fmt"

// Helpers for walking JSON-like values (map[string]any, []any, scalars).

func str(v any) string { s, _ := v.(string); return s }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func list(v any) []any { l, _ := v.([]any); return l }

// stringList reads a JSON array of strings; nil stays nil ("not set").
func stringList(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want an array of strings, got %T", v)
	}
	out := make([]string, len(items))
	for i, x := range items {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("[%d]: want a string, got %T", i, x)
		}
		out[i] = s
	}
	return out, nil
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// cloneMap deep-copies a properties object; nil becomes an empty object.
func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = clone(x)
	}
	return out
}

// clone deep-copies JSON-like values; Unknown markers and scalars are shared.
func clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return cloneMap(t)
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = clone(x)
		}
		return out
	case []string:
		return append([]string(nil), t...)
	}
	return v
}
