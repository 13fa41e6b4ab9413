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
	// members replaces before and after for a list too long for one line
	// (ux-anchors §8.2): the members it gains and loses.
	members *memberDiff
}

// memberDiff is a long list shown member by member.
type memberDiff struct {
	before, after  int // list lengths; before is -1 on create
	added, removed []string
	unchanged      int
}

// colon ends the attribute's line when member lines follow it.
func (m *memberDiff) colon() string {
	if len(m.added)+len(m.removed)+m.unchanged == 0 {
		return ""
	}
	return ":"
}

// oneLineWidth is how long an attribute may get on one line before a list
// is shown member by member: a screen's width.
const oneLineWidth = 120

func (a attrLine) String() string {
	var s string
	switch {
	case a.members != nil && a.members.before < 0:
		s = fmt.Sprintf("%s = %s%s", a.path, count(a.members.after, "member", "members"), a.members.colon())
	case a.members != nil:
		s = fmt.Sprintf("%s: %s -> %s%s", a.path, thousands(a.members.before), count(a.members.after, "member", "members"), a.members.colon())
	case a.changed:
		s = a.path + ": " + a.before + " -> " + a.after
	default:
		s = a.path + " = " + a.after
	}
	if a.forces {
		s += " # forces replacement"
	}
	return s
}

// mark says how a display line reads in a diff: as its change, as a
// member added or removed, or as a note.
type mark byte

const (
	markChange  mark = 0
	markAdded   mark = '+'
	markRemoved mark = '-'
	markNote    mark = '#'
)

// displayLine is one line of an attribute as shown.
type displayLine struct {
	mark mark
	text string
}

// maxLineWidth is the widest line a plan prints (DESIGN.md "Quality bar";
// issue 16): longer values are folded onto continuation lines.
const maxLineWidth = 160

// lines are the attribute's display lines: the attribute, then for a long
// list its members (added, removed, and how many are unchanged). No line
// is wider than maxLineWidth.
func (a attrLine) lines() []displayLine {
	out := foldLine(markChange, a.String(), "")
	if a.members == nil {
		return out
	}
	for _, m := range a.members.added {
		out = append(out, foldLine(markAdded, "    + "+m, "      ")...)
	}
	for _, m := range a.members.removed {
		out = append(out, foldLine(markRemoved, "    - "+m, "      ")...)
	}
	if n := a.members.unchanged; n > 0 {
		out = append(out, displayLine{markNote, "    … " + thousands(n) + " unchanged"})
	}
	return out
}

// foldLine cuts text into lines of at most maxLineWidth characters, the
// continuation lines indented by indent: between words where the line has
// a space in its second half, else (a long address, a JSON value) inside
// one.
func foldLine(m mark, text, indent string) []displayLine {
	var out []displayLine
	runes, prefix := []rune(text), ""
	for {
		width := maxLineWidth - len([]rune(prefix))
		if len(runes) <= width {
			return append(out, displayLine{m, prefix + string(runes)})
		}
		cut, next := width, width
		if i := lastSpace(runes[:width+1]); i > width/2 {
			cut, next = i, i+1
		}
		out = append(out, displayLine{m, prefix + string(runes[:cut])})
		runes, prefix = runes[next:], indent
	}
}

func lastSpace(runes []rune) int {
	for i := len(runes) - 1; i >= 0; i-- {
		if runes[i] == ' ' {
			return i
		}
	}
	return -1
}

// attributes lists what to show for a change and how many unchanged
// attributes are hidden (ux-anchors §8.2 item 5). Creates show every field
// set; updates and replaces the changed fields; deletes nothing.
func attributes(c *plan.Change) ([]attrLine, int) {
	switch {
	case len(c.Attributes) > 0:
		var out []attrLine
		for _, a := range c.Attributes {
			out = append(out, changedAttr(displayPath(a.Path), a.Before, a.After, a.ForcesReplacement))
		}
		hidden := len(leaves(c.After)) - len(out)
		if hidden < 0 {
			hidden = 0
		}
		return out, hidden
	case c.Before == nil && c.After != nil:
		var out []attrLine
		for _, l := range leaves(c.After) {
			out = append(out, createdAttr(l.path, l.value))
		}
		return out, 0
	}
	return nil, 0
}

func changedAttr(path string, before, after any, forces bool) attrLine {
	a := attrLine{path: path, before: formatValue(before), after: formatValue(after), changed: true, forces: forces}
	switch {
	case isMemberList(path):
		// Pool members read member by member whatever their length.
		a.members = listDiff(before, after, poolMemberTexts)
	case isIPConfigList(path):
		a.members = listDiff(before, after, ipConfigTexts)
	case len(a.String()) > oneLineWidth:
		a.members = listDiff(before, after, memberTexts)
	}
	return a
}

func createdAttr(path string, value any) attrLine {
	a := attrLine{path: path, after: formatValue(value)}
	switch l, ok := value.([]any); {
	case ok && isMemberList(path):
		a.members = &memberDiff{before: -1, after: len(l), added: poolMemberTexts(l)}
	case ok && len(a.String()) > oneLineWidth:
		a.members = &memberDiff{before: -1, after: len(l), added: memberTexts(l)}
	}
	return a
}

// listDiff is the member diff of two lists, nil when either value is not
// a list. Members are compared as texts shows them; a member listed twice
// counts twice.
func listDiff(before, after any, texts func([]any) []string) *memberDiff {
	b, bok := before.([]any)
	a, aok := after.([]any)
	if !aok || !bok && before != nil {
		return nil
	}
	d := &memberDiff{before: len(b), after: len(a)}
	left := map[string]int{}
	for _, m := range texts(b) {
		left[m]++
	}
	for _, m := range texts(a) {
		if left[m] > 0 {
			left[m]--
			d.unchanged++
			continue
		}
		d.added = append(d.added, m)
	}
	for _, m := range texts(b) {
		if left[m] > 0 {
			left[m]--
			d.removed = append(d.removed, m)
		}
	}
	return d
}

// poolMemberTexts renders pool members as memberText does, anything else
// as memberTexts.
func poolMemberTexts(l []any) []string {
	out := memberTexts(l)
	for i, v := range l {
		if t, ok := memberText(v); ok {
			out[i] = t
		}
	}
	return out
}

// memberTexts renders list members: plain words and addresses bare
// (10.0.0.5/32), anything else as formatValue does.
func memberTexts(l []any) []string {
	out := make([]string, len(l))
	for i, v := range l {
		if s, ok := v.(string); ok && bare(s) {
			out[i] = s
			continue
		}
		out[i] = formatValue(v)
	}
	return out
}

// bare reports whether s reads unambiguously without quotes: no spaces,
// quotes, control characters or resource IDs.
func bare(s string) bool {
	if s == "" || strings.HasPrefix(s, "/") {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r == '"' || r == '\\' || r == 0x7f {
			return false
		}
	}
	return true
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
		if plan.AllScalars(t) || isMemberList(prefix) {
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
	if _, _, ok := plan.AsServerValue(v); ok {
		return plan.ServerAssignedText
	}
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		if pid, err := plan.ParseID(t); err == nil {
			return pid.Shown()
		}
		return fmt.Sprintf("%q", t)
	case map[string]any:
		if id, ok := t["id"].(string); ok && len(t) == 1 {
			if pid, err := plan.ParseID(id); err == nil {
				return pid.Shown()
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
