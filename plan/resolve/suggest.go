package resolve

import (
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// Suggest fills in the did-you-mean of the blocked entries that name
// something missing, from what the plan read (issue 22 item 4): the
// subnets of the same virtual network for a missing subnet, the public
// IPs or prefixes of the resource group for a missing one, their
// addresses for a pinned address no public IP has: one typo away
// (nearestTypo).
func Suggest(bs []plan.Blocked, observed *plan.State) []plan.Blocked {
	var cands map[string][]string // lazily: most plans block nothing
	for i, b := range bs {
		kind, key := suggestionSource(b)
		if kind == "" {
			continue
		}
		if cands == nil {
			cands = candidates(observed)
		}
		if s, ok := nearestTypo(b.Value, cands[kind+"|"+key]); ok && s != b.Value {
			bs[i].Suggestion = s
		}
	}
	return bs
}

// suggestionSource is the candidate set a block's Value is looked up in:
// its kind and where ("" when the code names nothing missing).
func suggestionSource(b plan.Blocked) (string, string) {
	group := strings.ToLower(b.Group)
	switch b.Code {
	case plan.BlockSubnetMissing:
		return "subnet", group + "/" + strings.ToLower(b.Other)
	case plan.BlockUserPIPMissing:
		return "pip", group
	case plan.BlockPIPPrefixMissing:
		return "prefix", group
	case plan.BlockPinnedIPNotFound:
		return "address", group
	}
	return "", ""
}

// candidates indexes the names and addresses a suggestion may come from,
// by suggestionSource.
func candidates(observed *plan.State) map[string][]string {
	out := map[string][]string{}
	for _, r := range observed.All() {
		group := strings.ToLower(r.ID.ResourceGroup)
		switch r.Kind() {
		case plan.KindSubnet:
			k := "subnet|" + group + "/" + strings.ToLower(r.ID.Names[0])
			out[k] = append(out[k], r.Name())
		case plan.KindPublicIP:
			out["pip|"+group] = append(out["pip|"+group], r.Name())
			if ip := plan.AsPublicIP(r).Address(); ip != "" {
				out["address|"+group] = append(out["address|"+group], ip)
			}
		case plan.KindPublicIPPrefix:
			out["prefix|"+group] = append(out["prefix|"+group], r.Name())
		}
	}
	for _, l := range out {
		slices.Sort(l) // the nearest of equals is the first in order
	}
	return out
}

// nearestTypo is the candidate one typo away from s: one character
// added, dropped or changed, or two neighbours swapped. Names of one kind
// share most of their text (pls-subnet is two edits from aks-subnet), so
// anything further is another resource, not what s meant.
func nearestTypo(s string, candidates []string) (string, bool) {
	if best, ok := service.Nearest(s, candidates, 1); ok {
		return best, true
	}
	for _, c := range candidates {
		if swapped(s, c) {
			return c, true
		}
	}
	return "", false
}

// swapped reports whether b is a with two neighbouring characters swapped.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}
