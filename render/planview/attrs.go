package planview

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// attrLine is one attribute shown under a change.
type attrLine struct {
	path    string
	before  string // empty for creates
	after   string
	changed bool // before -> after
	forces  bool
}

func (a attrLine) String() string {
	s := a.path + " = " + a.after
	if a.changed {
		s = a.path + ": " + a.before + " -> " + a.after
	}
	if a.forces {
		s += " # forces replacement"
	}
	return s
}

// attributes lists what to show for a change and how many unchanged
// attributes are hidden (ux-anchors §8.2 item 5). Creates show every field
// set; updates and replaces the changed fields; deletes nothing.
func attributes(c *plan.Change) ([]attrLine, int) {
	switch {
	case len(c.Attributes) > 0:
		var out []attrLine
		for _, a := range c.Attributes {
			out = append(out, attrLine{path: displayPath(a.Path), before: formatValue(a.Before), after: formatValue(a.After), changed: true, forces: a.ForcesReplacement})
		}
		hidden := len(leaves(c.After)) - len(out)
		if hidden < 0 {
			hidden = 0
		}
		return out, hidden
	case c.Before == nil && c.After != nil:
		var out []attrLine
		for _, l := range leaves(c.After) {
			out = append(out, attrLine{path: l.path, after: formatValue(l.value)})
		}
		return out, 0
	}
	return nil, 0
}

type leaf struct {
	path  string
	value any
}

// leaves flattens a resource's body into display paths, sorted, with
// "properties." left out and references kept whole.
func leaves(r *plan.Resource) []leaf {
	if r == nil {
		return nil
	}
	var out []leaf
	if r.Location != "" {
		out = append(out, leaf{"location", r.Location})
	}
	if r.Zones != nil {
		out = append(out, leaf{"zones", toAny(r.Zones)})
	}
	for k, v := range r.SKU {
		out = append(out, leaf{"sku." + k, v})
	}
	for k, v := range r.Tags {
		out = append(out, leaf{"tags." + k, v})
	}
	flatten("", r.Properties, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func flatten(prefix string, v any, out *[]leaf) {
	switch t := v.(type) {
	case map[string]any:
		if _, isRef := t["id"]; isRef && len(t) == 1 {
			*out = append(*out, leaf{prefix, t})
			return
		}
		for k, x := range t {
			flatten(join(prefix, k), x, out)
		}
	case []any:
		if scalars(t) {
			*out = append(*out, leaf{prefix, t})
			return
		}
		for i, x := range t {
			flatten(fmt.Sprintf("%s[%d]", prefix, i), x, out)
		}
	default:
		*out = append(*out, leaf{prefix, v})
	}
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

func scalars(l []any) bool {
	for _, v := range l {
		switch v.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func displayPath(p []string) string {
	if len(p) > 1 && p[0] == "properties" {
		p = p[1:]
	}
	return strings.Join(p, ".")
}

// formatValue renders a value the way plans show it: strings quoted,
// references as addresses, Unknown as "(known after apply)".
func formatValue(v any) string {
	if plan.IsUnknown(v) {
		return "(known after apply)"
	}
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		if pid, err := plan.ParseID(t); err == nil {
			return pid.Address()
		}
		return fmt.Sprintf("%q", t)
	case map[string]any:
		if id, ok := t["id"].(string); ok && len(t) == 1 {
			if pid, err := plan.ParseID(id); err == nil {
				return pid.Address()
			}
			return fmt.Sprintf("%q", id)
		}
		if plan.HasMarker(t) {
			// JSON would print a value known only after apply as null.
			parts := make([]string, 0, len(t))
			for _, k := range slices.Sorted(maps.Keys(t)) {
				parts = append(parts, fmt.Sprintf("%q: %s", k, formatValue(t[k])))
			}
			return "{" + strings.Join(parts, ", ") + "}"
		}
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = formatValue(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
