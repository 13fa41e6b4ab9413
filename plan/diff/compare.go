package diff

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

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

// compareResource compares the fields want sets with got. An NSG rule's
// destinations are compared as one set, whichever field holds them
// (ccm-semantics §5.3), and its priority is CCM's to keep (§5.4).
func compareResource(want, got *plan.Resource) []plan.AttributeChange {
	if want.Kind() != plan.KindSecurityRule {
		return compareFields(want, got)
	}
	body := want.Clone()
	plan.WithoutDestinations(body.Properties)
	return append(compareFields(body, got), destAttr(got, want)...)
}

// compareFields compares location, SKU, zones, tags and properties: only
// what want sets.
func compareFields(want, got *plan.Resource) []plan.AttributeChange {
	var out []plan.AttributeChange
	if want.Location != "" && !strings.EqualFold(strings.ReplaceAll(want.Location, " ", ""), strings.ReplaceAll(got.Location, " ", "")) {
		out = append(out, plan.AttributeChange{Path: []string{"location"}, Before: got.Location, After: want.Location})
	}
	if want.SKU != nil {
		compareValue([]string{"sku"}, "sku", want.SKU, anyMap(withDefaultTier(got.SKU)), &out)
	}
	if want.Zones != nil && !equalList("zones", stringsToAny(want.Zones), stringsToAny(got.Zones)) {
		out = append(out, plan.AttributeChange{Path: []string{"zones"}, Before: stringsToAny(got.Zones), After: stringsToAny(want.Zones)})
	}
	for _, k := range slices.Sorted(maps.Keys(want.Tags)) {
		if v, ok := got.Tags[k]; !ok || v != want.Tags[k] {
			var before any
			if ok {
				before = v
			}
			out = append(out, plan.AttributeChange{Path: []string{"tags", k}, Before: before, After: want.Tags[k]})
		}
	}
	path := make([]string, 1, 8) // room for nested keys: compareValue appends to it
	path[0] = "properties"
	compareValue(path, "properties", orEmpty(want.Properties), orEmpty(got.Properties), &out)
	return out
}

// destAttr reports a change of an NSG rule's destination set.
func destAttr(got, want *plan.Resource) []plan.AttributeChange {
	b, a := plan.AsSecurityRule(got).Destinations(), plan.AsSecurityRule(want).Destinations()
	if sameStringSet(b, a) {
		return nil
	}
	return []plan.AttributeChange{{Path: []string{"properties", plan.DestinationField}, Before: b, After: a}}
}

func sameStringSet(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	as, bs := scalarStrings("", a), scalarStrings("", b)
	for i := range as {
		if as[i] != bs[i] || as[i] == unknownScalar {
			return false
		}
	}
	return true
}

// compareValue appends to out every difference between want (desired) and
// got (observed) at path. Only what want sets is compared; Unknown in want
// matches anything (ux-anchors §8.2 "(known after apply)" is not a change
// by itself).
func compareValue(path []string, key string, want, got any, out *[]plan.AttributeChange) {
	if plan.IsUnknown(want) {
		if _, _, ok := plan.UnknownSource(want); ok && got == nil {
			*out = append(*out, plan.AttributeChange{Path: clonePath(path), Before: nil, After: want})
		}
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			if got == nil && onlyEmptyLists(w) {
				return // absent is empty, as for a list (equalList)
			}
			*out = append(*out, plan.AttributeChange{Path: clonePath(path), Before: got, After: want})
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
			*out = append(*out, plan.AttributeChange{Path: clonePath(path), Before: got, After: want})
		}
	default:
		if !equalScalar(key, want, got) {
			*out = append(*out, plan.AttributeChange{Path: clonePath(path), Before: got, After: want})
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
	if plan.AllScalars(want) && plan.AllScalars(g) {
		// Lists of strings (ports, prefixes, zones) are sets to ARM.
		ws, gs := scalarStrings(key, want), scalarStrings(key, g)
		for i := range ws {
			if ws[i] != gs[i] && ws[i] != unknownScalar {
				return false
			}
		}
		return true
	}
	for i := range want {
		var diffs []plan.AttributeChange
		compareValue(nil, key, want[i], g[i], &diffs)
		if len(diffs) > 0 {
			return false
		}
	}
	return true
}

// unknownScalar stands for a value known only after apply in a sorted list.
const unknownScalar = "\x00unknown"

func scalarStrings(key string, l []any) []string {
	out := make([]string, len(l))
	for i, v := range l {
		if plan.IsUnknown(v) {
			out[i] = unknownScalar
			continue
		}
		if _, ph, ok := plan.AsServerValue(v); ok {
			// The same unknown on both sides, or its placeholder as a
			// base→head plan's emulator returns it, compares equal.
			out[i] = strconv.Itoa(int(ph))
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
	if _, _, ok := plan.AsServerValue(want); ok {
		return plan.SameServerValue(want, got)
	}
	if wn, ok := plan.Number(want); ok {
		gn, ok := plan.Number(got)
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

// onlyEmptyLists reports whether every value of m is an empty list or such
// a map: an object ARM may leave out. CCM treats a PLS without visibility
// or autoApproval as one with empty subscription lists
// (azure_privatelinkservice.go:561,571 reconcilePLSVisibility), and sends
// neither when both are empty, so a PLS it built has none.
func onlyEmptyLists(m map[string]any) bool {
	for _, v := range m {
		switch x := v.(type) {
		case []any:
			if len(x) > 0 {
				return false
			}
		case map[string]any:
			if !onlyEmptyLists(x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// defaultSKUTier is the tier ARM gives a load balancer or public IP whose
// body names none: CCM sends only the SKU name (azure_loadbalancer.go:987,
// :1346), and ARM answers with this tier.
const defaultSKUTier = "Regional"

// withDefaultTier is an observed SKU with ARM's default tier filled in when
// it has none, so a missing tier never reads as a change (nor, for a load
// balancer, a replacement).
func withDefaultTier(sku map[string]any) map[string]any {
	if tier, _ := sku["tier"].(string); sku == nil || tier != "" {
		return sku
	}
	out := maps.Clone(sku)
	out["tier"] = defaultSKUTier
	return out
}

func anyMap(m map[string]any) any {
	if m == nil {
		return nil
	}
	return m
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func stringsToAny(ss []string) []any {
	if ss == nil {
		return nil
	}
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func clonePath(p []string) []string { return append([]string(nil), p...) }

func onlyAddsTags(attrs []plan.AttributeChange) bool {
	for _, a := range attrs {
		if a.Path[0] != "tags" || a.Before != nil {
			return false
		}
	}
	return true
}
