// Package engine wires azsvc's pieces together for the commands: Service
// input, cluster configuration, desired state, the ARM target (Azure or the
// local emulator), the planner and the executor. It is the one place that
// knows concrete providers; the commands above it only parse flags and
// render.
package engine

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
)

// Settings are what the user configured, after flags > AZSVC_* > azsvc.yaml
// precedence was applied by the command layer.
type Settings struct {
	Files []string
	Stdin io.Reader
	// AzureConfig is the path of CCM's azure.json.
	AzureConfig string
	// ClusterName is CCM's --cluster-name ("kubernetes" when empty).
	ClusterName string
	// Subscription, when set, selects real Azure as the target.
	Subscription string
	// StatePath is the local emulator's state file.
	StatePath string
	Prune     bool
	// EmulatorWriteBudget > 0 limits the local emulator to that many
	// writes per EmulatorWriteWindow, as ARM limits a subscription.
	EmulatorWriteBudget int
	EmulatorWriteWindow time.Duration
}

// DefaultStatePath is where the local emulator keeps its state.
const DefaultStatePath = ".azsvc/state.json"

// emulatorSubscription names resource IDs on the emulator when azure.json
// has no subscriptionId.
const emulatorSubscription = "00000000-0000-0000-0000-000000000000"

// Inputs are the offline half of a plan: Services, configuration and the
// desired state built from them.
type Inputs struct {
	Service *service.Input
	Config  *cluster.Config
	// Notes are remarks about the configuration (ignored keys).
	Notes []string
	// Diagnostics are every finding: input, validation and CCM refusals.
	Diagnostics []service.Diagnostic
	Desired     *plan.State
	Scope       plan.Scope
}

// HasErrors reports whether any diagnostic is an error.
func (in *Inputs) HasErrors() bool {
	for _, d := range in.Diagnostics {
		if d.Severity == service.SeverityError {
			return true
		}
	}
	return false
}

// LoadInputs reads manifests and configuration and builds the desired state.
// Only I/O and configuration problems are errors; problems in the Services
// are Diagnostics.
func LoadInputs(s Settings) (*Inputs, error) {
	cfg, notes, err := loadConfig(s)
	if err != nil {
		return nil, err
	}
	svc, err := service.Load(s.Files, s.Stdin)
	if err != nil {
		return nil, err
	}
	in := &Inputs{Service: svc, Config: cfg, Notes: notes}
	in.Diagnostics = append(in.Diagnostics, svc.Diagnostics...)
	in.Diagnostics = append(in.Diagnostics, service.Validate(svc.Services)...)
	state, scope, refusals := desired.Build(svc.Services, cfg)
	in.Diagnostics = append(in.Diagnostics, refusals...)
	service.SortDiagnostics(in.Diagnostics)
	in.Desired, in.Scope = state, scope
	in.Scope.Prune = s.Prune
	return in, nil
}

// LoadConfigOnly reads the configuration without manifests: what applying a
// saved plan needs to reach its target.
func LoadConfigOnly(s Settings) (*Inputs, error) {
	cfg, notes, err := loadConfig(s)
	if err != nil {
		return nil, err
	}
	return &Inputs{Service: &service.Input{}, Config: cfg, Notes: notes, Desired: plan.NewState()}, nil
}

func loadConfig(s Settings) (*cluster.Config, []string, error) {
	if s.AzureConfig == "" {
		return nil, nil, fmt.Errorf("no cluster configuration: pass --config azure.json (the cloud provider's config file)")
	}
	data, err := os.ReadFile(s.AzureConfig)
	if err != nil {
		return nil, nil, fmt.Errorf("read cluster configuration: %w", err)
	}
	cfg, notes, err := cluster.Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", s.AzureConfig, err)
	}
	if s.ClusterName != "" {
		cfg.ClusterName = s.ClusterName
	}
	cfg.Subscription = s.Subscription
	if cfg.SubscriptionForIDs() == "" {
		// The emulator needs some subscription to name resources with.
		cfg.SubscriptionID = emulatorSubscription
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", s.AzureConfig, err)
	}
	for i, n := range notes {
		notes[i] = s.AzureConfig + ": " + n
	}
	return cfg, notes, nil
}
