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

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/providers/azure/emulator"
	"github.com/azsvc/azsvc/providers/kube"
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
	// Cluster, when set, is what was read from a live cluster: its
	// Services are the input, with Files overriding them by
	// namespace/name (service.Overlay).
	Cluster *Cluster
	// Emulator, when set, is an open emulator to plan and apply against
	// instead of StatePath's; it stays open (tests share one between runs).
	Emulator *emulator.Emulator
}

// Cluster is a live cluster's snapshot and how manifests match it.
type Cluster struct {
	Snapshot *kube.Snapshot
	Scope    service.ClusterScope
	// Where names the cluster and what was read, for the plan header.
	Where string
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
	// Cluster is the live cluster read, nil without one. Its Nodes and
	// EndpointSlices are there for the planner; its Services for status.
	Cluster *Cluster
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
	svc, err := loadServices(s)
	if err != nil {
		return nil, err
	}
	in := &Inputs{Service: svc, Config: cfg, Notes: notes, Cluster: s.Cluster}
	in.Diagnostics = append(in.Diagnostics, svc.Diagnostics...)
	in.Diagnostics = append(in.Diagnostics, service.Validate(svc.Services)...)
	state, scope, refusals := desired.Build(svc.Services, cfg)
	in.Diagnostics = append(in.Diagnostics, refusals...)
	service.SortDiagnostics(in.Diagnostics)
	in.Desired, in.Scope = state, scope
	in.Scope.Prune = s.Prune
	return in, nil
}

// loadServices reads the manifests and, with a cluster, lays them over the
// cluster's Services.
func loadServices(s Settings) (*service.Input, error) {
	svc, err := service.Load(s.Files, s.Stdin)
	if err != nil {
		return nil, err
	}
	Overlay(svc, s.Cluster)
	return svc, nil
}

// Overlay lays the manifests read into svc over the cluster's Services
// (service.Overlay); a nil cluster leaves svc as it is.
func Overlay(svc *service.Input, c *Cluster) {
	if c == nil {
		return
	}
	cluster, skipped := service.FromClusterList(c.Snapshot.Services)
	merged, diags := service.Overlay(cluster, svc, c.Scope)
	svc.Services = merged
	svc.Diagnostics = append(svc.Diagnostics, diags...)
	service.SortDiagnostics(svc.Diagnostics)
	for reason, n := range skipped {
		svc.Skipped[reason] += n
	}
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
