package service

import (
	"fmt"
	"strings"
)

// PLSCreate is azure-pls-create: trimmed, case-insensitive "true" (§1.3 #28).
func (s *Service) PLSCreate() bool { return s.Bool(AnnPLSCreate) }

// PLSProxyProtocol is azure-pls-proxy-protocol, read like PLSCreate (§1.3 #35).
func (s *Service) PLSProxyProtocol() bool { return s.Bool(AnnPLSProxyProtocol) }

// PLSName is azure-pls-name, trimmed; "" means the existing or generated name.
func (s *Service) PLSName() string { return strings.TrimSpace(s.Annotations[AnnPLSName]) }

// PLSResourceGroup is azure-pls-resource-group, trimmed; "" means the config
// default (§1.3 #29).
func (s *Service) PLSResourceGroup() string {
	return strings.TrimSpace(s.Annotations[AnnPLSResourceGroup])
}

// PLSSubnet is the PLS NAT subnet name (getPLSSubnetName): the non-blank
// azure-pls-ip-configuration-subnet, else the non-blank internal-subnet
// annotation of an internal (exact "true") Service; ok false means the
// config subnetName. Values are returned untrimmed, as CCM uses them.
func (s *Service) PLSSubnet() (string, bool) {
	if v, ok := s.Annotations[AnnPLSIPConfigurationSubnet]; ok && strings.TrimSpace(v) != "" {
		return v, true
	}
	return s.InternalSubnet()
}

// PLSIPConfigCount is azure-pls-ip-configuration-ip-address-count, 1 when
// absent, CCM's error outside 1..8 (getPLSIPConfigCount).
func (s *Service) PLSIPConfigCount() (int32, error) {
	v, set, err := s.Int32(AnnPLSIPConfigurationIPCount)
	switch {
	case err != nil:
		return 0, err
	case !set:
		return 1, nil
	case v < 1:
		return 0, fmt.Errorf("error parsing value: minimum number of private link service ipConfig is 1, %d provided", v)
	case v > 8:
		return 0, fmt.Errorf("error parsing value: maximum number of private link service ipConfig is 8, %d provided", v)
	}
	return v, nil
}

// PLSStaticIPs is azure-pls-ip-configuration-ip-address: space-separated
// IPv4 addresses, de-duplicated in order; the first is primary
// (getPLSStaticIPs). A non-IP or IPv6 item is CCM's error.
func (s *Service) PLSStaticIPs() ([]string, error) {
	ips, errs := s.PLSStaticIPsAndErrors()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return ips, nil
}

// PLSStaticIPsAndErrors reads azure-pls-ip-configuration-ip-address like
// PLSStaticIPs but goes on past a bad item: it returns the valid addresses
// and one error per bad item, so that a report can name them all.
func (s *Service) PLSStaticIPsAndErrors() (ips []string, errs []error) {
	seen := map[string]bool{}
	for _, ip := range SplitSpace(s.Annotations[AnnPLSIPConfigurationIPAddress]) {
		if err := parseStaticIPv4(ip); err != nil {
			errs = append(errs, fmt.Errorf("getPLSStaticIPs: %w", err))
			continue
		}
		if !seen[ip] {
			seen[ip] = true
			ips = append(ips, ip)
		}
	}
	return ips, errs
}

// PLSFQDNs is azure-pls-fqdns, space-separated (§1.3 #34); never nil.
func (s *Service) PLSFQDNs() []string { return nonNil(SplitSpace(s.Annotations[AnnPLSFQDNs])) }

// PLSVisibility is azure-pls-visibility: subscription ids, or ["*"] (all
// true) as soon as any item is "*" (getPLSVisibility); never nil.
func (s *Service) PLSVisibility() (subscriptions []string, all bool) {
	items := SplitSpace(s.Annotations[AnnPLSVisibility])
	for _, v := range items {
		if v == "*" {
			return []string{"*"}, true
		}
	}
	return nonNil(items), false
}

// PLSAutoApproval is azure-pls-auto-approval, space-separated subscription
// ids (§1.3 #37); never nil.
func (s *Service) PLSAutoApproval() []string {
	return nonNil(SplitSpace(s.Annotations[AnnPLSAutoApproval]))
}

// HasPLSConfig reports whether any PLS configuration annotation other than
// azure-pls-create is present; CCM refuses such a Service when another
// Service owns the PLS (serviceHasAdditionalConfigs, §8).
func (s *Service) HasPLSConfig() bool {
	for _, k := range []string{AnnPLSName, AnnPLSIPConfigurationSubnet, AnnPLSIPConfigurationIPCount,
		AnnPLSIPConfigurationIPAddress, AnnPLSFQDNs, AnnPLSProxyProtocol, AnnPLSVisibility, AnnPLSAutoApproval} {
		if _, ok := s.Annotations[k]; ok {
			return true
		}
	}
	return false
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
