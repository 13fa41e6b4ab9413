package emulator

import "strings"

// tx stages the writes of one request so that a rejected request changes
// nothing: every write validates first against the staged view, then commits.
type tx struct {
	s     *store
	etag  string // the new weak etag shared by every resource this request writes
	puts  map[string]*entry
	dels  map[string]bool
	order []string
}

func (s *store) begin() *tx {
	return &tx{s: s, etag: weakETag(), puts: map[string]*entry{}, dels: map[string]bool{}}
}

func (t *tx) get(k string) *entry {
	if t.dels[k] {
		return nil
	}
	if e := t.puts[k]; e != nil {
		return e
	}
	return t.s.get(k)
}

func (t *tx) getID(id string) obj {
	if e := t.get(key(id)); e != nil {
		return e.body()
	}
	return nil
}

func (t *tx) stage(armType string, body obj) {
	k := key(getStr(body, "id"))
	delete(t.dels, k)
	if _, ok := t.puts[k]; !ok {
		t.order = append(t.order, k)
	}
	t.puts[k] = &entry{armType: armType, id: getStr(body, "id"), decoded: body}
}

func (t *tx) remove(k string) {
	delete(t.puts, k)
	t.dels[k] = true
	t.order = append(t.order, k)
}

// commit applies the staged writes in order and returns the keys written.
func (t *tx) commit() []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range t.order {
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, k)
		if t.dels[k] {
			t.s.remove(k)
			continue
		}
		if e := t.puts[k]; e != nil {
			t.s.put(k, newEntry(e.armType, e.decoded))
		}
	}
	return out
}

// subnet resolves a subnet ID against the staged view; nil when missing.
func (t *tx) subnet(id string) obj {
	a, ok := parseAddress(id)
	if !ok || len(a.segs) != 4 || a.segs[0] != "virtualNetworks" || a.segs[2] != "subnets" {
		return nil
	}
	vnet := t.get(key(a.topID()))
	if vnet == nil {
		return nil
	}
	for _, sn := range getObjs(getObj(vnet.body(), "properties"), "subnets") {
		if strings.EqualFold(getStr(sn, "name"), a.segs[3]) {
			return sn
		}
	}
	return nil
}
