package emulator

import "strings"

// edge is a reference from a child of one resource (source) to another
// resource or child (target). Inbound edges block deletes (arm-rules §7.1).
type edge struct {
	target, source string
}

type ipClaim struct {
	subnet, ip string // subnet key, address
}

// facts are what a resource contributes to the store's indexes.
type facts struct {
	edges    []edge
	ips      []ipClaim
	publicIP string
	alias    string
}

func (f *facts) ref(target, source string) {
	if target != "" {
		f.edges = append(f.edges, edge{target: target, source: source})
	}
}

func (f *facts) claim(subnet, ip string) {
	if subnet != "" && ip != "" {
		f.ips = append(f.ips, ipClaim{subnet: key(subnet), ip: ip})
	}
}

func factsOf(armType string, body obj) facts {
	var f facts
	p := getObj(body, "properties")
	switch strings.ToLower(armType) {
	case "microsoft.network/loadbalancers":
		for _, fe := range getObjs(p, "frontendIPConfigurations") {
			fp := getObj(fe, "properties")
			f.ref(refID(fp, "subnet"), getStr(fe, "id"))
			f.ref(refID(fp, "publicIPAddress"), getStr(fe, "id"))
			f.claim(refID(fp, "subnet"), getStr(fp, "privateIPAddress"))
		}
	case "microsoft.network/privatelinkservices":
		for _, fe := range getObjs(p, "loadBalancerFrontendIpConfigurations") {
			f.ref(getStr(fe, "id"), getStr(body, "id"))
		}
		ipConfigFacts(&f, p)
		f.alias = getStr(p, "alias")
	case "microsoft.network/networkinterfaces":
		ipConfigFacts(&f, p)
	case "microsoft.network/privateendpoints":
		f.ref(refID(p, "subnet"), getStr(body, "id"))
	case "microsoft.network/virtualnetworks":
		for _, sn := range getObjs(p, "subnets") {
			f.ref(refID(getObj(sn, "properties"), "networkSecurityGroup"), getStr(sn, "id"))
		}
	case "microsoft.network/publicipaddresses":
		f.publicIP = getStr(p, "ipAddress")
	}
	return f
}

func ipConfigFacts(f *facts, p obj) {
	for _, ic := range getObjs(p, "ipConfigurations") {
		ip := getObj(ic, "properties")
		f.ref(refID(ip, "subnet"), getStr(ic, "id"))
		f.claim(refID(ip, "subnet"), getStr(ip, "privateIPAddress"))
	}
}
