package emulator

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"strings"
)

// obj is an ARM JSON object. Bodies stay generic so that any field a real
// Azure GET returns survives a round trip through the emulator.
type obj = map[string]any

func getObj(m obj, key string) obj {
	if m == nil {
		return nil
	}
	v, _ := m[key].(obj)
	return v
}

// props returns m.properties, creating it when absent.
func props(m obj) obj {
	p := getObj(m, "properties")
	if p == nil {
		p = obj{}
		m["properties"] = p
	}
	return p
}

func getArr(m obj, key string) []any {
	if m == nil {
		return nil
	}
	v, _ := m[key].([]any)
	return v
}

// getObjs returns the objects of array m[key], skipping non-objects.
func getObjs(m obj, key string) []obj {
	arr := getArr(m, key)
	out := make([]obj, 0, len(arr))
	for _, v := range arr {
		if o, ok := v.(obj); ok {
			out = append(out, o)
		}
	}
	return out
}

func setObjs(m obj, key string, items []obj) {
	arr := make([]any, len(items))
	for i, it := range items {
		arr[i] = it
	}
	m[key] = arr
}

func getStr(m obj, key string) string {
	if m == nil {
		return ""
	}
	s, _ := m[key].(string)
	return s
}

func getBool(m obj, key string) bool {
	b, _ := m[key].(bool)
	return b
}

// getInt reads a JSON number; ok is false when the field is absent or not an integer.
func getInt(m obj, key string) (int, bool) {
	if i, ok := m[key].(int); ok {
		return i, true
	}
	f, ok := m[key].(float64)
	if !ok || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

// refID returns m[key].id, the shape of every ARM sub-resource reference.
func refID(m obj, key string) string {
	return getStr(getObj(m, key), "id")
}

func ref(id string) obj { return obj{"id": id} }

// keepOnlyIDs reduces the references m holds under keys to their IDs: ARM
// stores and returns a reference as {"id"}, whatever else the request put
// in it (Azure PowerShell's recorded TestPrivateLinkServiceInEdgeZone sent
// whole frontend and subnet objects in a PLS PUT and got back their IDs).
// CCM sends a frontend's subnet as the whole object it read
// (azure_loadbalancer.go:2944).
func keepOnlyIDs(m obj, keys ...string) {
	for _, k := range keys {
		if r, ok := m[k].(obj); ok {
			m[k] = ref(getStr(r, "id"))
		}
	}
}

func strList(m obj, key string) []string {
	var out []string
	for _, v := range getArr(m, key) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case obj:
		c := make(obj, len(t))
		for k, x := range t {
			c[k] = deepCopy(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = deepCopy(x)
		}
		return c
	default:
		return v
	}
}

func copyObj(m obj) obj {
	if m == nil {
		return nil
	}
	return deepCopy(m).(obj)
}

// newGUID returns a random version-4 GUID (etags must never repeat across runs).
func newGUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatGUID(b[:])
}

// stableGUID derives a GUID from a seed string, so values such as a PLS
// alias or a resourceGuid are the same on every run for the same resource.
func stableGUID(seed string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(seed)))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	return formatGUID(b)
}

func formatGUID(b []byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func weakETag() string { return `W/"` + newGUID() + `"` }
