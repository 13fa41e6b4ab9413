package plan

import "strings"

// Protocol is how CCM carries one Kubernetes Service protocol to Azure:
// the load-balancing rule's protocol (ccm-semantics §3) and the NSG rule's
// (§5.2).
type Protocol struct {
	Kubernetes string // TCP, UDP, SCTP
	LBRule     string // Tcp, Udp, All
	NSG        string // Tcp, Udp, *
}

// Protocols lists the protocols in the order CCM builds NSG rules.
func Protocols() [3]Protocol {
	return [3]Protocol{{"TCP", "Tcp", "Tcp"}, {"UDP", "Udp", "Udp"}, {"SCTP", "All", "*"}}
}

// ProtocolOf finds a protocol by any of its names, case-insensitively: a
// Kubernetes protocol ("" is TCP, the Kubernetes default), an LB rule's or
// an NSG rule's. Anything else is SCTP's row, whose rules (All, *) match
// every protocol.
func ProtocolOf(name string) Protocol {
	all := Protocols()
	if name == "" {
		return all[0]
	}
	for _, p := range all {
		if strings.EqualFold(name, p.Kubernetes) || strings.EqualFold(name, p.LBRule) || strings.EqualFold(name, p.NSG) {
			return p
		}
	}
	return all[2]
}
