package desired

import (
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// Tags CCM writes (ccm-semantics §2.3).
const (
	tagService      = "k8s-azure-service"
	tagClusterName  = "k8s-azure-cluster-name"
	tagDNSLabel     = "k8s-azure-dns-label-service"
	tagOwnerService = "k8s-azure-owner-service"
)

// managedPIP is the public IP CCM creates for an external Service that
// names no PIP and pins no address (§2.2, §2.3, §6).
func (b *builder) managedPIP(info *svcInfo, f family) *plan.Resource {
	s := info.svc
	v6 := info.isV6(f)
	name := PublicIPName(b.cfg.ClusterName, info.prefix, info.pipPrefixID.of(f), info.dualStack, v6)
	alloc := "Static"
	if v6 && !b.cfg.Standard() {
		alloc = "Dynamic" // reconcileIPSettings: IPv6 on basic
	}
	props := map[string]any{
		"publicIPAllocationMethod": alloc,
		"publicIPAddressVersion":   string(f),
		"ipAddress":                plan.Unknown,
	}
	tags := pipTags(b.cfg, s)
	tags[tagService] = info.key
	tags[tagClusterName] = b.cfg.ClusterName
	if label, set := s.DNSLabelName(); set && label != "" {
		props["dnsSettings"] = map[string]any{"domainNameLabel": label}
		tags[tagDNSLabel] = info.key
	} else if set {
		// "" removes the label (§1.3 #4). CCM's reconcileDNSSettings clears
		// dnsSettings and leaves the k8s-azure-dns-label-service tag, which
		// only unbinding the Service removes (§2.3); so does azsvc, whose
		// diff never drops tags the desired body leaves out.
		props["dnsSettings"] = nil
	}
	if tags, ok := s.PIPIPTags(); ok {
		props["ipTags"] = ipTagList(tags)
	}
	if id := info.pipPrefixID.of(f); id != "" {
		props["publicIPPrefix"] = map[string]any{"id": id}
	}
	var sku map[string]any
	if b.cfg.Standard() {
		sku = map[string]any{"name": "Standard", "tier": "Regional"}
	}
	return &plan.Resource{
		ID:         plan.NewID(b.sub, info.pipRG, plan.KindPublicIP, name),
		Location:   b.cfg.Location,
		SKU:        sku,
		Zones:      b.zones(),
		Tags:       tags,
		Properties: props,
		Services:   []string{info.key},
		Owned:      true,
	}
}

// userPIPDNS is what CCM writes on a user-assigned public IP named by
// azure-pip-name: only its DNS label, without the DNS tag (§6 "DNS label",
// reconcileDNSSettings with isUserAssignedPIP). azsvc owns that one field,
// as it owns one field of a PLS subnet: the desired public IP carries no
// k8s-azure-service tag, which tells the diff never to create it, and the
// diff never deletes a user-assigned public IP (§6 release criteria).
// Services sharing the PIP by name: the first (in namespace/name order)
// decides the label, where CCM would flip between them on every resync.
func (b *builder) userPIPDNS(info *svcInfo, f family) {
	label, set := info.svc.DNSLabelName()
	name := info.pipName.of(f)
	if !set || name == "" {
		return
	}
	id := plan.NewID(b.sub, info.pipRG, plan.KindPublicIP, name)
	if r, ok := b.state.Get(id.Key()); ok {
		if _, managed := r.Tags[tagService]; !managed {
			r.AddService(info.key)
		}
		return // a managed PIP of another Service keeps its own DNS wants
	}
	var dns any // nil: the label must go
	if label != "" {
		dns = map[string]any{"domainNameLabel": label}
	}
	r := &plan.Resource{ID: id, Properties: map[string]any{"dnsSettings": dns}, Owned: true}
	r.AddService(info.key)
	b.state.Put(r)
}

// bindPIP adds svc to a managed PIP's k8s-azure-service tag
// (bindServicesToPIP): comma-separated, kept sorted here.
func bindPIP(pip *plan.Resource, svc string) {
	pip.AddService(svc)
	if pip.Tags != nil {
		pip.Tags[tagService] = strings.Join(pip.Services, ",")
	}
}

// pipTags are config tags merged with azure-pip-tags, the annotation
// winning on a case-insensitive key clash (ensurePIPTagged). It reads the
// annotation with cluster.ParseTags rather than Service.PIPTags because that
// one also folds keys that differ only in case inside the annotation, which
// keeps this merge independent of map order.
func pipTags(cfg *cluster.Config, s *service.Service) map[string]string {
	tags := cfg.ConfigTags()
	for k, v := range cluster.ParseTags(s.Annotations[service.AnnPIPTags]) {
		for old := range tags {
			if strings.EqualFold(old, k) {
				delete(tags, old)
			}
		}
		tags[k] = v
	}
	return tags
}

// ipTagList is Service.PIPIPTags as ARM's ipTags list, sorted by type for a
// stable body.
func ipTagList(m map[string]string) []any {
	types := make([]string, 0, len(m))
	for t := range m {
		types = append(types, t)
	}
	sort.Strings(types)
	out := make([]any, 0, len(types))
	for _, t := range types {
		out = append(out, map[string]any{"ipTagType": t, "tag": m[t]})
	}
	return out
}

// RegionZones returns the availability zones of an Azure region, nil for a
// region without zones. CCM asks ARM; azsvc keeps this table of the regions
// with three zones (Azure docs "Azure regions with availability zone
// support"). Names compare case- and space-insensitively.
func RegionZones(location string) []string {
	switch strings.ToLower(strings.ReplaceAll(location, " ", "")) {
	case "eastus", "eastus2", "centralus", "southcentralus", "westus2", "westus3", "canadacentral",
		"brazilsouth", "mexicocentral", "northeurope", "westeurope", "uksouth", "francecentral",
		"germanywestcentral", "italynorth", "norwayeast", "polandcentral", "spaincentral", "swedencentral",
		"switzerlandnorth", "austriaeast", "israelcentral", "qatarcentral", "uaenorth", "southafricanorth",
		"australiaeast", "centralindia", "eastasia", "japaneast", "japanwest", "koreacentral",
		"southeastasia", "newzealandnorth", "indonesiacentral", "malaysiawest", "chinanorth3",
		"usgovvirginia":
		return []string{"1", "2", "3"}
	}
	return nil
}
