package plan

import (
	"reflect"
	"testing"
)

// TestOverlayLists: lists of named objects are laid over by name, so a
// member keeps its own observed fields and never takes another's; other
// lists go by position when the lengths match and are replaced otherwise.
func TestOverlayLists(t *testing.T) {
	member := func(name, ip string, extra ...string) map[string]any {
		p := map[string]any{"ipAddress": ip}
		for i := 0; i+1 < len(extra); i += 2 {
			p[extra[i]] = extra[i+1]
		}
		return map[string]any{"name": name, "properties": p}
	}
	tests := []struct {
		name             string
		base, want, good any
	}{
		{"a member replaces another at its index",
			[]any{member("n1", "10.0.0.4", "adminState", "None"), member("n2", "10.0.0.5", "adminState", "Down")},
			[]any{member("n1", "10.0.0.4"), member("n3", "10.0.0.6")},
			[]any{member("n1", "10.0.0.4", "adminState", "None"), member("n3", "10.0.0.6")}},
		{"named members move",
			[]any{member("n1", "10.0.0.4", "adminState", "None"), member("n2", "10.0.0.5", "adminState", "Down")},
			[]any{member("N2", "10.0.0.5"), member("n1", "10.0.0.4")},
			[]any{map[string]any{"name": "N2", "properties": map[string]any{"ipAddress": "10.0.0.5", "adminState": "Down"}},
				member("n1", "10.0.0.4", "adminState", "None")}},
		{"scalars by position", []any{"a", "b"}, []any{"c", "d"}, []any{"c", "d"}},
		{"unnamed objects by position", []any{map[string]any{"x": 1, "y": 2}}, []any{map[string]any{"x": 3}},
			[]any{map[string]any{"x": 3, "y": 2}}},
		{"unnamed objects of another length are replaced", []any{map[string]any{"x": 1, "y": 2}},
			[]any{map[string]any{"x": 3}, map[string]any{"x": 4}}, []any{map[string]any{"x": 3}, map[string]any{"x": 4}}},
	}
	for _, tc := range tests {
		if got := Overlay(tc.base, tc.want); !reflect.DeepEqual(got, tc.good) {
			t.Errorf("%s:\n got %v\nwant %v", tc.name, got, tc.good)
		}
	}
}
