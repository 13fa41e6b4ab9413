package plan

// AssignedFields are the top-level properties Azure assigns to a resource
// of kind k when the body written leaves them out (DESIGN.md "Values only
// Azure can assign"): a public IP's address, a dynamic frontend or private
// endpoint IP, a private link service's alias, which consumers need to
// connect to it. Apply reports them once ARM returns them. A PLS's dynamic
// NAT IPs are assigned too, inside its ipConfigurations (NATIPConfigs).
func AssignedFields(k Kind) []string {
	switch k {
	case KindPublicIP:
		return []string{"ipAddress"}
	case KindFrontend, KindPrivateEndpoint:
		return []string{"privateIPAddress"}
	case KindPrivateLinkService:
		return []string{"alias"}
	}
	return nil
}
