package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// Target is where ARM state is read from and written to.
type Target struct {
	Provider *azure.Provider
	// Emulator is the in-process emulator, nil when the target is Azure.
	Emulator *emulator.Emulator
	Read     azure.ReadScope
	// shared: the emulator belongs to the caller (Settings.Emulator).
	shared bool
}

// Describe names the target for the plan header.
func (t *Target) Describe() string { return t.Provider.Target() }

// Close saves and releases the emulator's state.
func (t *Target) Close() error {
	if t.Emulator == nil || t.shared {
		return nil
	}
	return t.Emulator.Close()
}

// OpenTarget connects to Azure when a subscription is configured, otherwise
// to the local emulator (persisted at s.StatePath), seeding the cluster's
// resource group, VNet, subnets and NSG when they are missing.
func OpenTarget(ctx context.Context, s Settings, in *Inputs) (*Target, error) {
	read := readScope(in)
	if s.Subscription != "" {
		p, err := azure.NewAzure(ctx, s.Subscription)
		if err != nil {
			return nil, err
		}
		return &Target{Provider: p, Read: read}, nil
	}
	if s.Emulator != nil {
		t, err := EmulatorTarget(s.Emulator, in, "in-process emulator")
		if t != nil {
			t.shared = true
		}
		return t, err
	}
	path := s.StatePath
	if path == "" {
		path = DefaultStatePath
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create emulator state directory: %w", err)
	}
	emu, err := emulator.Open(emulator.Options{StatePath: path})
	if err != nil {
		return nil, err
	}
	t, err := EmulatorTarget(emu, in, "state "+path)
	if err != nil {
		emu.Close()
		return nil, err
	}
	return t, nil
}

// EmulatorTarget wraps an open emulator (tests pass their own), ensuring the
// cluster baseline exists in it.
func EmulatorTarget(emu *emulator.Emulator, in *Inputs, description string) (*Target, error) {
	cfg := in.Config
	sub := cfg.SubscriptionForIDs()
	if err := emu.EnsureBaseline(sub, cfg.ResourceGroup, cfg.Location, cfg.VnetName, baselineVNetCIDR,
		baselineSubnets(cfg, in.Service.Services), cfg.SecurityGroupName); err != nil {
		return nil, fmt.Errorf("seed the local emulator: %w", err)
	}
	// The resource groups Services name (PIP and PLS groups) exist in any
	// real subscription they work in; create the missing ones here.
	read := readScope(in)
	for _, rg := range allGroups(read) {
		if err := emu.EnsureBaseline(sub, rg, cfg.Location, "", "", nil, ""); err != nil {
			return nil, fmt.Errorf("seed the local emulator: %w", err)
		}
	}
	p, err := azure.NewEmulator(azure.EmulatorOptions{
		Subscription: sub,
		Endpoint:     emulator.Endpoint,
		Transport:    emu.Transport(),
		Description:  description,
	})
	if err != nil {
		return nil, err
	}
	return &Target{Provider: p, Emulator: emu, Read: read}, nil
}

// The emulator's VNet: the cluster subnet takes the first /16, every other
// subnet a Service names gets the next /24 of 10.225.0.0/16 in name order.
// Matches AKS's default node subnet layout closely enough for planning.
const (
	baselineVNetCIDR   = "10.224.0.0/12"
	baselineNodeSubnet = "10.224.0.0/16"
)

func baselineSubnets(cfg *cluster.Config, svcs []*service.Service) map[string]string {
	names := map[string]bool{}
	for _, s := range svcs {
		for _, key := range []string{service.AnnInternalSubnet, service.AnnPLSIPConfigurationSubnet} {
			if v, ok := s.Annotation(key); ok && v != "" && v != cfg.SubnetName {
				names[v] = true
			}
		}
	}
	others := make([]string, 0, len(names))
	for n := range names {
		others = append(others, n)
	}
	sort.Strings(others)
	subnets := map[string]string{}
	if cfg.SubnetName != "" {
		subnets[cfg.SubnetName] = baselineNodeSubnet
	}
	for i, n := range others {
		if i > 255 {
			break
		}
		subnets[n] = fmt.Sprintf("10.225.%d.0/24", i)
	}
	return subnets
}

// readScope lists the resource groups a plan must read: every group the
// configuration or a Service's annotations can place a resource in. Reads
// are list calls per type and group, so their number does not grow with
// the number of Services.
func readScope(in *Inputs) azure.ReadScope {
	cfg := in.Config
	pip := []string{cfg.ResourceGroup}
	pls := []string{cfg.PLSResourceGroup()}
	for _, s := range in.Service.Services {
		if v := s.PIPResourceGroup(); v != "" {
			pip = append(pip, v)
		}
		if v := s.PLSResourceGroup(); v != "" {
			pls = append(pls, v)
		}
	}
	return azure.ReadScope{
		LoadBalancerGroups:    []string{cfg.LBResourceGroup()},
		PublicIPGroups:        pip,
		SecurityGroupGroups:   []string{cfg.NSGResourceGroup()},
		PrivateLinkGroups:     pls,
		PrivateEndpointGroups: []string{cfg.ResourceGroup},
		DNSZoneGroups:         []string{cfg.ResourceGroup},
		// The cluster VNet's subnets: a PLS NAT subnet's network policy is
		// planned like any resource (ccm-semantics §8 "Subnet policy").
		VirtualNetworks: []azure.VNetRef{{ResourceGroup: cfg.VnetRG(), Name: cfg.VnetName}},
	}
}

func allGroups(r azure.ReadScope) []string {
	seen := map[string]bool{}
	var out []string
	for _, groups := range [][]string{r.LoadBalancerGroups, r.PublicIPGroups, r.SecurityGroupGroups,
		r.PrivateLinkGroups, r.PrivateEndpointGroups, r.DNSZoneGroups} {
		for _, g := range groups {
			if k := strings.ToLower(g); g != "" && !seen[k] {
				seen[k] = true
				out = append(out, g)
			}
		}
	}
	return out
}
