package planfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/resolve"
)

// Precondition is what apply re-checks about one resource before running a
// saved plan: whether it existed, its etag, and a hash of the content azsvc
// owns in it (for a shared LB or NSG: the parent and its managed children
// only, so an unrelated team's rule does not make the plan stale;
// ux-anchors §8.6).
type Precondition struct {
	Address     string `json:"address"`
	ID          string `json:"id"`
	Exists      bool   `json:"exists"`
	Etag        string `json:"etag,omitempty"`
	ContentHash string `json:"content_hash,omitempty"`
}

// Preconditions lists what the plan read about every resource it writes or
// changes, and the parents of changed children; managed tells which
// observed resources azsvc owns.
func Preconditions(p *plan.Plan, observed *plan.Index, managed func(plan.Key) bool) []Precondition {
	touched := map[plan.Key]plan.ID{}
	for _, st := range p.Steps {
		touched[st.Target.Key()] = st.Target
		for _, c := range st.Changes {
			touched[c.Key()] = c.ID()
		}
	}
	keys := slices.Sorted(maps.Keys(touched))
	isManaged := func(r *plan.Resource) bool { return managed(r.Key()) }
	out := make([]Precondition, 0, len(touched))
	for _, k := range keys {
		id := touched[k]
		pre := Precondition{Address: id.Address(), ID: id.String()}
		if r, ok := observed.Get(k); ok {
			pre.Exists, pre.Etag = true, r.Etag
			pre.ContentHash = contentHash(r, observed.Children(k), isManaged)
		}
		out = append(out, pre)
	}
	return out
}

// contentHash hashes a resource's body and, for a parent, the bodies of its
// managed children, in key order. Etags are left out: they move whenever
// anything in the parent changes.
func contentHash(r *plan.Resource, kids []*plan.Resource, managed func(*plan.Resource) bool) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	_ = enc.Encode(saved(r, false))
	for _, k := range kids {
		if managed(k) {
			_ = enc.Encode(saved(k, false))
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Stale is one resource that changed since a saved plan read it.
type Stale struct {
	Address string
	Change  StaleChange
	// Etag is the etag the plan read, NowEtag the current one (for
	// StaleChanged).
	Etag, NowEtag string
}

// StaleChange says how a resource changed since the plan.
type StaleChange uint8

const (
	StaleCreated StaleChange = iota + 1 // exists now, did not then
	StaleDeleted                        // existed then, not now
	StaleChanged                        // its owned content differs
)

// Check compares a saved plan's preconditions with the state read now and
// lists every resource that changed since the plan; an empty result means
// the plan may be applied (apply refuses otherwise, exit 5). An etag that
// moved while the owned content did not is accepted (ux-anchors §8.6
// step 2).
func Check(saved *Plan, now *plan.State) []Stale {
	parents := plan.NewState()
	for _, pre := range saved.Preconditions {
		if id, err := plan.ParseID(pre.ID); err == nil && (id.Kind == plan.KindLoadBalancer || id.Kind == plan.KindSecurityGroup) {
			parents.Put(&plan.Resource{ID: id})
		}
	}
	own := resolve.NewOwners(saved.Scope, parents, now)
	managed := func(r *plan.Resource) bool { return own.Of(r).Managed }
	var out []Stale
	for _, pre := range saved.Preconditions {
		r, ok := now.Get(plan.KeyOf(pre.ID))
		switch {
		case !pre.Exists && ok:
			out = append(out, Stale{Address: pre.Address, Change: StaleCreated})
		case pre.Exists && !ok:
			out = append(out, Stale{Address: pre.Address, Change: StaleDeleted})
		case ok && contentHash(r, now.Children(r.Key()), managed) != pre.ContentHash:
			out = append(out, Stale{Address: pre.Address, Change: StaleChanged, Etag: pre.Etag, NowEtag: r.Etag})
		}
	}
	return out
}
