package emulator

import (
	"net/http"
	"net/netip"

	"github.com/azsvc/azsvc/plan"
)

// allocator hands out private IPs of subnets to one resource (owner) the way
// NRP does: the first four addresses and the last are reserved, dynamic
// addresses are the lowest free ones.
type allocator struct {
	t     *tx
	owner string
	taken map[string]map[string]string // subnet key → ip → child ID claiming it in this request
	next  map[string]netip.Addr
}

func (t *tx) allocator(owner string) *allocator {
	return &allocator{t: t, owner: owner, taken: map[string]map[string]string{}, next: map[string]netip.Addr{}}
}

func subnetPrefix(sn obj) (netip.Prefix, bool) {
	p := getObj(sn, "properties")
	s := getStr(p, "addressPrefix")
	if s == "" {
		if l := strList(p, "addressPrefixes"); len(l) > 0 {
			s = l[0]
		}
	}
	pfx, err := netip.ParsePrefix(s)
	return pfx.Masked(), err == nil
}

func (a *allocator) usedElsewhere(subnetKey, ip string) string {
	o := a.t.s.ips[subnetKey][ip]
	if o == "" || o == a.owner || a.t.dels[o] {
		return ""
	}
	return o
}

// static claims ip in the subnet for child.
func (a *allocator) static(subnetID, ipStr, child string) *armError {
	sn := a.t.subnet(subnetID)
	pfx, ok := subnetPrefix(sn)
	ip, err := netip.ParseAddr(ipStr)
	if !ok || err != nil || !pfx.Contains(ip) {
		return badRequest("PrivateIPAddressNotInSubnet",
			"Private static IP address %s does not belong to the range of subnet prefix %s of %s.", ipStr, pfx, child)
	}
	if plan.SubnetReserved(pfx, ip) {
		return badRequest("PrivateIPAddressIsReserved", "IP address %s is reserved in subnet %s (used by %s).", ipStr, subnetID, child)
	}
	return a.claim(key(subnetID), ip.String(), child)
}

func (a *allocator) claim(sk, ip, child string) *armError {
	if other := a.taken[sk][ip]; other != "" {
		return badRequest("MultipleIpConfigsRequestSamePrivateIpAddress",
			"IP configurations %s and %s request the same private IP address %s.", other, child, ip)
	}
	if o := a.usedElsewhere(sk, ip); o != "" {
		return badRequest("PrivateIPAddressInUse", "IP address %s requested by %s is already in use by %s.", ip, child, a.t.get(o).id)
	}
	if a.taken[sk] == nil {
		a.taken[sk] = map[string]string{}
	}
	a.taken[sk][ip] = child
	return nil
}

// dynamic allocates the lowest free address of the subnet for child.
func (a *allocator) dynamic(subnetID, child string) (string, *armError) {
	sk := key(subnetID)
	pfx, ok := subnetPrefix(a.t.subnet(subnetID))
	if !ok {
		return "", badRequest("InvalidAddressPrefix", "subnet %s has no valid address prefix", subnetID)
	}
	ip, started := a.next[sk]
	if !started {
		ip = pfx.Addr()
	}
	for ; pfx.Contains(ip); ip = ip.Next() {
		s := ip.String()
		if plan.SubnetReserved(pfx, ip) || a.taken[sk][s] != "" || a.usedElsewhere(sk, s) != "" {
			continue
		}
		a.next[sk] = ip.Next()
		return s, a.claim(sk, s, child)
	}
	return "", newErr(http.StatusBadRequest, "SubnetIsFull", "Subnet %s has no free address for %s.", subnetID, child)
}

// publicAddress allocates the lowest free public IP (pubpool.go).
func (t *tx) publicAddress(v6 bool) string {
	pool := t.s.publicV4
	if v6 {
		pool = t.s.publicV6
	}
	return pool.next(func(ip string) bool { _, used := t.s.public[ip]; return used })
}
