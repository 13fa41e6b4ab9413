package plan

import "net/netip"

// SubnetReserved reports the addresses Azure keeps in every subnet: the
// network address, the next three, and the last (arm-rules §2.2). The
// emulator refuses them and preflight predicts that refusal.
func SubnetReserved(pfx netip.Prefix, ip netip.Addr) bool {
	a := pfx.Addr()
	for range 4 {
		if ip == a {
			return true
		}
		a = a.Next()
	}
	return ip == LastAddr(pfx)
}

// LastAddr is the highest address of pfx: every host bit set.
func LastAddr(pfx netip.Prefix) netip.Addr {
	b := pfx.Addr().AsSlice()
	for i := pfx.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	last, _ := netip.AddrFromSlice(b)
	return last
}
