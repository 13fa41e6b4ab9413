package plan

// The port fields of rules and probes, which hold what the API server
// assigned when CCM built them: a node port as a probe's port, or as a
// rule's backend port with floating IP disabled (ccm-semantics §3, §4).

// BackendPort is the backend port, and whether it is a number.
func (l Rule) BackendPort() (int, bool) {
	n, ok := Number(l.r.Properties["backendPort"])
	return int(n), ok
}

// FloatingIP reports enableFloatingIP.
func (l Rule) FloatingIP() bool {
	b, _ := l.r.Properties["enableFloatingIP"].(bool)
	return b
}

// ProbeID is the key of the probe the rule uses; "" when none.
func (l Rule) ProbeID() Key {
	id := RefID(l.r.Properties["probe"])
	if id == "" {
		return ""
	}
	return KeyOf(id)
}

// Port is the probe's port, and whether it is a number.
func (p Probe) Port() (int, bool) {
	n, ok := Number(p.r.Properties["port"])
	return int(n), ok
}
