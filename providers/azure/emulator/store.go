package emulator

import (
	"sort"
	"strings"

	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

// entry is one separately addressable resource, stored in GET shape: its
// JSON, and the decoded body once something needed it. Resources loaded
// from the state file keep only their JSON until a write or a decorated
// GET touches them: a plan over 10,000 Services never decodes the load
// balancers it only lists (issue 15).
type entry struct {
	armType string
	id      string
	raw     []byte // the body as JSON: a GET answer, a journal record, a snapshot line
	decoded obj    // nil until body is called
}

func newEntry(armType string, body obj) *entry {
	raw, _ := armjson.Append(nil, body)
	return &entry{armType: armType, id: getStr(body, "id"), raw: raw, decoded: body}
}

// body returns the decoded body. Callers never modify it: a write stages a
// copy.
func (e *entry) body() obj {
	if e.decoded == nil {
		v, _ := armjson.Decode(e.raw)
		e.decoded, _ = v.(obj)
	}
	return e.decoded
}

// store holds every resource by lower-cased ID plus the indexes that make
// integrity checks O(1): inbound references, IP claims per subnet, public
// addresses, PLS aliases and separately stored children (DNS links and records).
type store struct {
	entries  map[string]*entry
	facts    map[string]facts
	inbound  map[string]map[string][]edge // target top key → source top key → edges
	ips      map[string]map[string]string // subnet key → ip → owner key
	public   map[string]string            // public address → owner key
	publicV4 *addressPool                 // free public addresses (pubpool.go)
	publicV6 *addressPool
	aliases  map[string]string          // lower alias → PLS key
	children map[string]map[string]bool // parent key → child keys
	byType   map[string]map[string]bool // lower ARM type → keys

	// changed lists the keys put or removed since the last journal record
	// (persist.go), once each, when the state is persisted; prior holds
	// their entries before the first of those changes (nil: absent), so a
	// change that cannot be saved is undone.
	changed   []string
	isChanged map[string]bool
	prior     map[string]*entry
	track     bool
}

func newStore() *store {
	v4, v6 := newPublicPools()
	return &store{
		publicV4: v4, publicV6: v6,
		entries: map[string]*entry{}, facts: map[string]facts{},
		inbound: map[string]map[string][]edge{}, ips: map[string]map[string]string{},
		public: map[string]string{}, aliases: map[string]string{},
		children: map[string]map[string]bool{}, byType: map[string]map[string]bool{},
		isChanged: map[string]bool{}, prior: map[string]*entry{},
	}
}

func (s *store) get(k string) *entry { return s.entries[k] }

func (s *store) put(k string, e *entry) {
	oldIP := s.facts[k].publicIP
	s.touch(k)
	s.unindex(k)
	s.entries[k] = e
	addSet(s.byType, strings.ToLower(e.armType), k)
	if p := parentKey(e.armType, k); p != "" {
		addSet(s.children, p, k)
	}
	f := factsOf(e.armType, e.body())
	s.facts[k] = f
	for _, ed := range f.edges {
		t := topKey(ed.target)
		if s.inbound[t] == nil {
			s.inbound[t] = map[string][]edge{}
		}
		s.inbound[t][k] = append(s.inbound[t][k], ed)
	}
	for _, c := range f.ips {
		if s.ips[c.subnet] == nil {
			s.ips[c.subnet] = map[string]string{}
		}
		s.ips[c.subnet][c.ip] = k
	}
	if f.publicIP != "" {
		s.public[f.publicIP] = k
	}
	if f.alias != "" {
		s.aliases[strings.ToLower(f.alias)] = k
	}
	s.releaseIfFree(oldIP)
}

func (s *store) remove(k string) {
	ip := s.facts[k].publicIP
	if _, ok := s.entries[k]; ok {
		s.touch(k)
		s.unindex(k)
		s.releaseIfFree(ip)
	}
}

// releaseIfFree hands a public address no resource holds any more back to
// its pool.
func (s *store) releaseIfFree(ip string) {
	if _, used := s.public[ip]; ip == "" || used {
		return
	}
	s.publicV4.release(ip)
	s.publicV6.release(ip)
}

// unindex drops k and everything the indexes know about it; false when k
// is not stored.
func (s *store) unindex(k string) bool {
	old, ok := s.entries[k]
	if !ok {
		return false
	}
	delete(s.entries, k)
	delete(s.byType[strings.ToLower(old.armType)], k)
	if p := parentKey(old.armType, k); p != "" {
		delete(s.children[p], k)
	}
	f := s.facts[k]
	delete(s.facts, k)
	for _, ed := range f.edges {
		delete(s.inbound[topKey(ed.target)], k)
	}
	for _, c := range f.ips {
		if s.ips[c.subnet][c.ip] == k {
			delete(s.ips[c.subnet], c.ip)
		}
	}
	if f.publicIP != "" && s.public[f.publicIP] == k {
		delete(s.public, f.publicIP)
	}
	if f.alias != "" {
		delete(s.aliases, strings.ToLower(f.alias))
	}
	return true
}

// inboundFrom lists references into the resource with key target from other
// resources, sorted for deterministic error messages.
func (s *store) inboundFrom(target string) []edge {
	var out []edge
	for src, eds := range s.inbound[target] {
		if src != target {
			out = append(out, eds...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].source < out[j].source })
	return out
}

// keysOfType returns the sorted keys of one ARM type under an ID prefix.
func (s *store) keysOfType(armType, prefix string) []string {
	var out []string
	prefix = strings.ToLower(prefix)
	for k := range s.byType[strings.ToLower(armType)] {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// all returns every entry sorted by key (resource groups first, then by ID).
func (s *store) all() []*entry {
	keys := make([]string, 0, len(s.entries))
	for k := range s.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]*entry, len(keys))
	for i, k := range keys {
		out[i] = s.entries[k]
	}
	return out
}

// touch records that k is about to change, before it does.
func (s *store) touch(k string) {
	if s.track && !s.isChanged[k] {
		s.isChanged[k] = true
		s.changed = append(s.changed, k)
		s.prior[k] = s.entries[k]
	}
}

// takeChanged returns the keys changed since the last call and forgets them.
func (s *store) takeChanged() []string {
	out := s.changed
	s.changed, s.isChanged, s.prior = nil, map[string]bool{}, map[string]*entry{}
	return out
}

// rollback undoes every change since the last takeChanged.
func (s *store) rollback() {
	for k, en := range s.prior {
		if en == nil {
			s.remove(k)
		} else {
			s.put(k, en)
		}
	}
	s.takeChanged()
}

func addSet(m map[string]map[string]bool, k, v string) {
	if m[k] == nil {
		m[k] = map[string]bool{}
	}
	m[k][v] = true
}

// parentKey returns the key of the zone that owns a separately stored DNS child.
func parentKey(armType, k string) string {
	if !strings.HasPrefix(strings.ToLower(armType), "microsoft.network/privatednszones/") {
		return ""
	}
	i := strings.LastIndex(k, "/")
	j := strings.LastIndex(k[:i], "/")
	return k[:j]
}
