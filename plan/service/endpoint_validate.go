package service

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/quote"
)

// ValidateEndpoints checks PrivateEndpoint objects offline, with the
// quality of annotation checks: Azure names and IDs, DNS zone and record
// names, and against the Services of the input: the service exists and has
// a Private Link Service whose visibility and auto-approval admit the
// endpoint's subscription. clusterSub is the subscription of the cluster's
// PLSs; "" when unknown (azsvc validate reads no configuration).
func ValidateEndpoints(eps []*PrivateEndpoint, svcs []*Service, clusterSub string) []Diagnostic {
	byKey := make(map[string]*Service, len(svcs))
	for _, s := range svcs {
		byKey[s.Key()] = s
	}
	v := &endpointChecker{svcs: byKey, clusterSub: clusterSub,
		records: map[string]recordUse{}, ids: map[plan.Key]*PrivateEndpoint{}, links: map[string]zoneLink{}}
	for _, ep := range eps {
		v.ep = ep
		v.names()
		v.target()
		v.dns()
		v.unique()
	}
	SortDiagnostics(v.out)
	return v.out
}

type endpointChecker struct {
	svcs       map[string]*Service
	clusterSub string
	ep         *PrivateEndpoint
	out        []Diagnostic
	// records maps a record (zone ID and name) to its first writer.
	records map[string]recordUse
	ids     map[plan.Key]*PrivateEndpoint
	// links maps a virtual network and a zone name to the first zone of
	// that name linked to it.
	links map[string]zoneLink
}

type zoneLink struct {
	group string // subscription/resourceGroup of the zone
	ep    *PrivateEndpoint
	path  string
}

type recordUse struct {
	ep   *PrivateEndpoint
	path string
}

func (v *endpointChecker) add(code, path, msg, hint string) {
	v.out = append(v.out, v.ep.diag(code, path, msg, hint))
}

func (v *endpointChecker) names() {
	s := v.ep.Spec
	name, path := s.Name, "spec.name"
	if name == "" {
		name, path = v.ep.Name, "metadata.name"
	}
	if p := resourceNameProblem(name); p != "" {
		v.add(CodeInvalidResourceName, path, fmt.Sprintf("private endpoint name %s %s", quote.Value(name), p), "choose another name, or set spec.name")
	}
	if s.ResourceGroup != "" {
		if p := groupNameProblem(s.ResourceGroup); p != "" {
			v.add(CodeInvalidResourceName, "spec.resourceGroup", fmt.Sprintf("resource group %s %s", quote.Value(s.ResourceGroup), p), "fix the resource group name")
		}
	}
	const subnetShape = "/subscriptions/<subscription>/resourceGroups/<group>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>"
	if _, ok := v.ep.subnetShape(); !ok {
		v.add(CodeInvalidARMID, "spec.subnetID", fmt.Sprintf("spec.subnetID %s is not a subnet ID", quote.Value(s.SubnetID)), "write "+subnetShape)
	} else if p := armPathProblem(s.SubnetID); p != "" {
		v.add(CodeInvalidARMID, "spec.subnetID", fmt.Sprintf("spec.subnetID %s %s; the endpoint's ID and URL are made from it", quote.Value(s.SubnetID), p), "write "+subnetShape)
	}
	if n := utf8.RuneCountInString(s.RequestMessage); n > maxRequestMessage {
		v.add(CodeRequestMessage, "spec.requestMessage", fmt.Sprintf("spec.requestMessage has %d characters; ARM allows %d", n, maxRequestMessage),
			"shorten the message")
	}
}

// target checks what the endpoint connects to.
func (v *endpointChecker) target() {
	s := v.ep.Spec
	switch {
	case s.Service == "" && s.PrivateLinkServiceID == "", s.Service != "" && s.PrivateLinkServiceID != "":
		v.add(CodeEndpointTarget, "spec", "PrivateEndpoint "+quote.Text(v.ep.Key())+" must set exactly one of spec.service and spec.privateLinkServiceID",
			"name a Service of the input with spec.service, or a private link service outside it with spec.privateLinkServiceID")
	case s.PrivateLinkServiceID != "":
		id, err := plan.ParseID(s.PrivateLinkServiceID)
		const plsShape = "write /subscriptions/<sub>/resourceGroups/<group>/providers/Microsoft.Network/privateLinkServices/<name>, or the alias <name>.<guid>.<region>.azure.privatelinkservice"
		if (err != nil || id.Kind != plan.KindPrivateLinkService) && !IsPLSAlias(s.PrivateLinkServiceID) {
			v.add(CodeInvalidARMID, "spec.privateLinkServiceID",
				fmt.Sprintf("spec.privateLinkServiceID %s is neither a private link service ID nor an alias", quote.Value(s.PrivateLinkServiceID)), plsShape)
		} else if p := armPathProblem(s.PrivateLinkServiceID); err == nil && p != "" {
			v.add(CodeInvalidARMID, "spec.privateLinkServiceID", fmt.Sprintf("spec.privateLinkServiceID %s %s", quote.Value(s.PrivateLinkServiceID), p), plsShape)
		} else if s.Approve && IsPLSAlias(s.PrivateLinkServiceID) {
			v.add(CodeApproveByAlias, "spec.approve",
				"approve: true has no effect here: azsvc approves a connection through the private link service it manages, and an alias does not say which one that is",
				"name the private link service by its ARM ID, or approve the connection where the service is managed")
		}
	default:
		v.service()
	}
}

func (v *endpointChecker) service() {
	key := v.ep.ServiceKey()
	svc := v.svcs[key]
	if svc == nil {
		hint := "add the Service to the input, or name a private link service outside it with spec.privateLinkServiceID"
		msg := fmt.Sprintf("spec.service %s is not a Service of the input", quote.Value(key))
		var keys []string
		for k := range v.svcs {
			keys = append(keys, k)
		}
		if best, ok := closest(key, keys); ok {
			if ns, name, _ := strings.Cut(best, "/"); ns == strings.Split(key, "/")[0] {
				best = name // spec.service names Services of the endpoint's namespace by name
			}
			msg += "; did you mean " + quote.Text(best) + "?"
			hint = "set spec.service to " + quote.Text(best)
		}
		v.add(CodeServiceNotInInput, "spec.service", msg, hint)
		return
	}
	if !svc.PLSCreate() {
		v.add(CodeServiceWithoutPLS, "spec.service", fmt.Sprintf("Service %s has no Private Link Service (%s is not \"true\")", quote.Text(key), AnnPLSCreate),
			fmt.Sprintf("annotate the Service %s: \"true\"", AnnPLSCreate))
		return
	}
	sn, ok := v.ep.Subnet()
	if !ok {
		return
	}
	v.admits(svc, sn.Subscription)
}

// admits checks that the Service's PLS lets the endpoint's subscription
// see it and, for an automatic connection azsvc does not approve, approves
// it (arm-rules §7.3: the same subscription always may).
func (v *endpointChecker) admits(svc *Service, sub string) {
	if v.clusterSub != "" && strings.EqualFold(sub, v.clusterSub) {
		return
	}
	unless := ""
	if v.clusterSub == "" {
		unless = ", unless the endpoint is in the cluster's subscription"
	}
	if vis, all := svc.PLSVisibility(); !all && len(vis) > 0 && !containsFold(vis, sub) {
		code := CodePLSNotVisible
		if v.clusterSub == "" {
			code = CodeMaybeNotVisible
		}
		v.add(code, "spec.service", fmt.Sprintf("the Private Link Service of %s is not visible to subscription %s (%s): ARM refuses the connection%s",
			quote.Text(svc.Key()), quote.Text(sub), AnnPLSVisibility, unless), fmt.Sprintf("add %s to %s on the Service", quote.Text(sub), AnnPLSVisibility))
	}
	if v.ep.Spec.ManualApproval || v.ep.Spec.Approve || containsFold(svc.PLSAutoApproval(), sub) {
		return
	}
	v.add(CodeStaysPending, "spec.service", fmt.Sprintf("the Private Link Service of %s does not auto-approve subscription %s: the connection will stay Pending%s",
		quote.Text(svc.Key()), quote.Text(sub), unless), fmt.Sprintf("add %s to %s on the Service, or set spec.approve: true", quote.Text(sub), AnnPLSAutoApproval))
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// dns checks the zones, records and links.
func (v *endpointChecker) dns() {
	zones := map[string]string{}
	for i, d := range v.ep.Spec.DNS {
		path := "spec.dns[" + strconv.Itoa(i) + "]"
		if d.Zone == "" {
			v.add(CodeMissingField, path, "DNS entry without a zone", "set zone to the private DNS zone's name")
			continue
		}
		if p := zoneNameProblem(d.Zone); p != "" {
			v.add(CodeInvalidZoneName, path+".zone", fmt.Sprintf("zone %s %s", quote.Value(d.Zone), p), "use a DNS name such as example.internal")
			continue
		}
		if first, dup := zones[strings.ToLower(d.Zone)]; dup {
			v.add(CodeListedTwice, path+".zone", fmt.Sprintf("zone %s is listed twice (first at %s)", quote.Text(d.Zone), first),
				"merge the two entries into one")
			continue
		}
		zones[strings.ToLower(d.Zone)] = path
		v.checkRecords(d, path)
		v.checkLinks(d, path)
		linked := map[plan.Key]int{}
		for j, l := range d.VNetLinks {
			const vnetShape = "write /subscriptions/<subscription>/resourceGroups/<group>/providers/Microsoft.Network/virtualNetworks/<vnet>"
			if id, err := plan.ParseID(l); err != nil || id.Kind != plan.KindVirtualNetwork {
				v.add(CodeInvalidARMID, path+".vnetLinks["+strconv.Itoa(j)+"]", fmt.Sprintf("%s is not a virtual network ID", quote.Value(l)), vnetShape)
			} else if p := armPathProblem(l); p != "" {
				v.add(CodeInvalidARMID, path+".vnetLinks["+strconv.Itoa(j)+"]", fmt.Sprintf("%s %s", quote.Value(l), p), vnetShape)
			} else if first, dup := linked[id.Key()]; dup {
				v.add(CodeListedTwice, path+".vnetLinks["+strconv.Itoa(j)+"]", fmt.Sprintf("virtual network %s is linked twice to zone %s (vnetLinks[%d] and [%d])",
					quote.Text(id.Name()), quote.Text(d.Zone), first, j), "remove the repeat")
			} else {
				linked[id.Key()] = j
			}
		}
	}
}

// checkLinks refuses a virtual network linked to two private DNS zones of
// one name (in two resource groups): ARM links a network to one zone of a
// name, and resolution could only ever use one of them.
func (v *endpointChecker) checkLinks(d EndpointDNS, path string) {
	id, ok := v.ep.ID()
	if !ok {
		return
	}
	group := strings.ToLower(id.Subscription + "/" + id.ResourceGroup)
	vnets := d.VNetLinks
	if len(vnets) == 0 {
		if vnet, ok := v.ep.VNet(); ok {
			vnets = []string{vnet.String()}
		}
	}
	for _, vnet := range vnets {
		vid, err := plan.ParseID(vnet)
		if err != nil {
			continue // reported by dns
		}
		k := string(vid.Key()) + "|" + strings.ToLower(d.Zone)
		first, seen := v.links[k]
		if !seen {
			v.links[k] = zoneLink{group: group, ep: v.ep, path: path}
			continue
		}
		if first.group != group {
			v.add(CodeZoneNameLinkedTwice, path+".zone", fmt.Sprintf("virtual network %s would be linked to two private DNS zones named %s: "+
				"this one in resource group %s and the one of PrivateEndpoint %s (%s) in %s; Azure links a network to one zone of a name",
				quote.Text(vid.Name()), quote.Text(d.Zone), quote.Text(id.ResourceGroup), quote.Text(first.ep.Key()), first.ep.Pos(first.path),
				quote.Text(strings.SplitN(first.group, "/", 2)[1])),
				"put both endpoints' zone in one resource group (spec.resourceGroup), or link different networks (vnetLinks)")
		}
	}
}

func (v *endpointChecker) checkRecords(d EndpointDNS, path string) {
	seen := map[string]bool{}
	id, idOK := v.ep.ID()
	for j, r := range d.Records {
		rp := path + ".records[" + strconv.Itoa(j) + "]"
		if p := recordNameProblem(r, d.Zone); p != "" {
			v.add(CodeInvalidRecordName, rp, fmt.Sprintf("record %s %s", quote.Value(r), p), "use a name relative to the zone, e.g. api or *.apps")
			continue
		}
		if seen[strings.ToLower(r)] {
			v.add(CodeListedTwice, rp, fmt.Sprintf("record %s is listed twice in zone %s", quote.Text(r), quote.Text(d.Zone)), "remove the repeat")
			continue
		}
		seen[strings.ToLower(r)] = true
		if !idOK {
			continue
		}
		// The zone lives in the endpoint's resource group: two endpoints
		// there writing one name would point it at two addresses.
		k := strings.ToLower(id.Subscription + "/" + id.ResourceGroup + "/" + d.Zone + "/" + r)
		if first, ok := v.records[k]; ok && first.ep != v.ep {
			v.add(CodeRecordConflict, rp, fmt.Sprintf("record %s.%s is also written by PrivateEndpoint %s (%s): one name cannot point at two endpoints",
				quote.Text(r), quote.Text(d.Zone), quote.Text(first.ep.Key()), first.ep.Pos(first.path)), "let one endpoint own the name, or use another record name")
			continue
		}
		v.records[k] = recordUse{ep: v.ep, path: rp}
	}
}

// unique reports two objects naming one Azure private endpoint.
func (v *endpointChecker) unique() {
	id, ok := v.ep.ID()
	if !ok {
		return
	}
	if first, dup := v.ids[id.Key()]; dup {
		v.add(CodeSameAzureEndpoint, "metadata.name", fmt.Sprintf("PrivateEndpoint %s names the same Azure private endpoint %s as %s (%s)",
			quote.Text(v.ep.Key()), quote.Text(id.Address()), quote.Text(first.Key()), first.Source), "set a different spec.name or spec.resourceGroup")
		return
	}
	v.ids[id.Key()] = v.ep
}

// dropDuplicateEndpoints reports PrivateEndpoint objects defined twice and
// keeps the first.
func (in *Input) dropDuplicateEndpoints() {
	first := map[string]*PrivateEndpoint{}
	kept := in.Endpoints[:0]
	for _, ep := range in.Endpoints {
		if prev, dup := first[ep.Key()]; dup {
			in.Diagnostics = append(in.Diagnostics, ep.diag(CodeDuplicateEndpoint, "metadata.name",
				fmt.Sprintf("PrivateEndpoint %s is defined twice; the first definition is at %s", quote.Text(ep.Key()), prev.Source),
				"rename one of them or remove the duplicate; the second definition is ignored"))
			continue
		}
		first[ep.Key()] = ep
		kept = append(kept, ep)
	}
	in.Endpoints = kept
}
