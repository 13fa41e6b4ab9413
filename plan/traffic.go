package plan

import "strings"

// MovesTraffic reports whether an update changes a frontend's address or a
// health probe's protocol: the updates that interrupt traffic (ux-anchors
// §8.2 item 6).
func MovesTraffic(c *Change) bool {
	for _, a := range c.Attributes {
		if TrafficAttribute(c.Before.Kind(), a.Path) {
			return true
		}
	}
	return false
}

// TrafficAttribute reports whether a change of path on a resource of kind k
// moves traffic: a frontend's private IP or public IP, a probe's protocol.
func TrafficAttribute(k Kind, path []string) bool {
	last := path[len(path)-1]
	switch k {
	case KindFrontend:
		return last == "privateIPAddress" || PathHasPrefix(path, []string{"properties", "publicIPAddress"})
	case KindProbe:
		return last == "protocol"
	}
	return false
}

// PathHasPrefix reports whether an attribute path starts with prefix,
// comparing segments case-insensitively as ARM does.
func PathHasPrefix(path, prefix []string) bool {
	if len(prefix) > len(path) {
		return false
	}
	for i := range prefix {
		if !strings.EqualFold(path[i], prefix[i]) {
			return false
		}
	}
	return true
}
