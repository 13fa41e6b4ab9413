package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/planfile"
	"github.com/azsvc/azsvc/plan/resolve"
	"github.com/azsvc/azsvc/providers/azure"
	"github.com/azsvc/azsvc/providers/azure/emulator"
)

// Target is where ARM state is read from and written to.
type Target struct {
	Provider *azure.Provider
	// Emulator is the in-process emulator, nil for Azure and ARM endpoints.
	Emulator *emulator.Emulator
	Read     plan.ReadScope
	// Chosen is how the target was chosen, as a saved plan records it.
	Chosen planfile.TargetSource
	// shared: the emulator belongs to the caller (Settings.Emulator).
	shared bool
	// restore turns the placeholders a base→head plan's emulator holds
	// back into markers when ARM is read (PlanBase).
	restore plan.Placeholders
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

// OpenTarget opens the target TargetRule picks (ChooseTarget): Azure, an
// ARM endpoint, or the embedded emulator persisted at s.StatePath, seeded
// with the cluster's resource group, VNet, subnet and NSG when they are
// missing. Only the embedded emulator opens the state file.
func OpenTarget(ctx context.Context, s Settings, in *Inputs) (*Target, error) {
	if s.Emulator != nil { // tests only: one in-process ARM for several runs
		return openEmulator(s, in)
	}
	choice, err := ChooseTarget(s, in.SubscriptionKnown)
	if err != nil {
		return nil, err
	}
	if len(s.Seeds) > 0 && choice.Kind != KindEmulator {
		return nil, targetErrorf("--seed adds resources to the local emulator, and the target is not the emulator (%s): drop --seed, or choose the emulator (--target emulator)", choice.Why)
	}
	var t *Target
	switch choice.Kind {
	case KindAzure:
		t, err = openAzure(ctx, in)
	case KindEndpoint:
		t, err = openEndpoint(s, in)
	default:
		t, err = openEmulator(s, in)
	}
	if t != nil {
		t.Chosen = chosen(choice.Kind, s)
	}
	return t, err
}

// chosen is what a saved plan records of the target: enough to open the
// same one again, no secret.
func chosen(kind TargetKind, s Settings) planfile.TargetSource {
	switch kind {
	case KindAzure:
		return planfile.TargetSource{Kind: "azure"}
	case KindEndpoint:
		return planfile.TargetSource{Kind: "endpoint", Endpoint: s.ARMEndpoint}
	}
	state := s.StatePath
	if state == "" {
		state = DefaultStatePath
	}
	return planfile.TargetSource{Kind: "emulator", State: absPath(state)}
}

// absPath is path made absolute against the working directory, so that a
// saved plan applied from another directory opens the same state file;
// path itself if the working directory is unknown.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

func openAzure(ctx context.Context, in *Inputs) (*Target, error) {
	cfg := in.Config
	p, err := azure.NewAzure(ctx, azure.AzureOptions{
		Subscription:            cfg.SubscriptionForIDs(),
		Cloud:                   cfg.CloudName(),
		ResourceManagerEndpoint: cfg.ResourceManagerEndpoint,
		Credentials:             credentials(cfg.Auth),
	})
	if err != nil {
		return nil, err
	}
	return &Target{Provider: p, Read: ReadScopeOf(in)}, nil
}

// credentials hands azure.json's credential keys to the provider.
func credentials(a cluster.Auth) azure.Credentials {
	return azure.Credentials{
		TenantID:               a.TenantID,
		ClientID:               a.ClientID,
		ClientSecret:           a.ClientSecret.Reveal(),
		ClientCertPath:         a.ClientCertPath,
		ClientCertPassword:     a.ClientCertPassword.Reveal(),
		UseManagedIdentity:     a.UseManagedIdentity,
		UserAssignedIdentityID: a.UserAssignedIdentityID,
		FederatedTokenFile:     a.FederatedTokenFile,
		UseWorkloadIdentity:    a.UseWorkloadIdentity,
	}
}

// openEndpoint targets an ARM-compatible endpoint with a static token. It
// seeds nothing: the endpoint's state is its own.
func openEndpoint(s Settings, in *Inputs) (*Target, error) {
	p, err := azure.NewEmulator(azure.EmulatorOptions{
		Subscription: in.Config.SubscriptionForIDs(),
		Endpoint:     s.ARMEndpoint,
		Token:        s.ARMToken,
	})
	if err != nil {
		return nil, &TargetError{msg: "--arm-endpoint: " + err.Error()}
	}
	return &Target{Provider: p, Read: ReadScopeOf(in)}, nil
}

func openEmulator(s Settings, in *Inputs) (*Target, error) {
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
	// The emulator has nothing to wait for: its writes end within their
	// request, as NRP's often do, so a write is one request (issue 15).
	emu, err := emulator.Open(emulator.Options{StatePath: path, InstantOperations: true,
		WriteBudget: s.EmulatorWriteBudget, WriteWindow: s.EmulatorWriteWindow})
	if err != nil {
		return nil, err
	}
	if err := seedMissing(emu, s.Seeds); err != nil {
		emu.Close()
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
	return emulatorTarget(emu, in, description, false)
}

// emulatorTarget is EmulatorTarget; with placeholders, writes may carry
// the placeholders of values the API server assigns (PlanBase).
func emulatorTarget(emu *emulator.Emulator, in *Inputs, description string, placeholders bool) (*Target, error) {
	if err := SeedBaseline(emu, in); err != nil {
		return nil, err
	}
	p, err := azure.NewEmulator(azure.EmulatorOptions{
		Subscription: in.Config.SubscriptionForIDs(),
		Endpoint:     emulator.Endpoint,
		Transport:    emu.Transport(),
		Description:  description,
		Placeholders: placeholders,
	})
	if err != nil {
		return nil, err
	}
	return &Target{Provider: p, Emulator: emu, Read: ReadScopeOf(in)}, nil
}

// SeedBaseline creates what an AKS cluster already has, when missing: the
// resource group, the VNet with the cluster's subnet (azure.json
// subnetName) and the NSG, and the resource groups the Services name (PIP
// and PLS groups exist in any real subscription they work in). It never
// creates a subnet because a Service names it: like CCM, azsvc blocks a
// Service whose subnet does not exist (a typo must not apply on the
// emulator and fail on Azure), so scenarios that need more subnets seed
// them (examples/emulator-seed.json). `azsvc emulator serve --config`
// seeds the same.
func SeedBaseline(emu *emulator.Emulator, in *Inputs) error {
	cfg := in.Config
	sub := cfg.SubscriptionForIDs()
	var subnets map[string]string
	if cfg.SubnetName != "" {
		subnets = map[string]string{cfg.SubnetName: baselineNodeSubnet}
	}
	if err := emu.EnsureBaseline(sub, cfg.ResourceGroup, cfg.Location, cfg.VnetName, baselineVNetCIDR,
		subnets, cfg.SecurityGroupName); err != nil {
		return fmt.Errorf("seed the local emulator: %w", err)
	}
	read := ReadScopeOf(in)
	for _, g := range read.AllGroups(sub) {
		if err := emu.EnsureBaseline(g.Subscription, g.Name, cfg.Location, "", "", nil, ""); err != nil {
			return fmt.Errorf("seed the local emulator: %w", err)
		}
	}
	return nil
}

// The emulator's VNet, and the cluster subnet in its first /16 (a /24 the
// VNet's other subnets leave free when they overlap it). Matches AKS's
// default node subnet layout closely enough for planning.
const (
	baselineVNetCIDR   = "10.224.0.0/12"
	baselineNodeSubnet = "10.224.0.0/16"
)

// ReadScopeOf is what a plan of in reads: a function of the inputs,
// derived in the core (resolve.ReadScope).
func ReadScopeOf(in *Inputs) plan.ReadScope { return resolve.ReadScope(in.Desired, in.Scope) }

// seedMissing adds the bodies of the seed files the emulator lacks: a
// persisted emulator keeps what applies changed since.
func seedMissing(emu *emulator.Emulator, paths []string) error {
	bodies, err := ReadSeeds(paths)
	if err != nil {
		return err
	}
	if err := emu.SeedMissing(bodies...); err != nil {
		return fmt.Errorf("--seed: %w", err)
	}
	return nil
}
