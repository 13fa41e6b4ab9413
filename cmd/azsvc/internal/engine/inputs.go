// Package engine wires azsvc's pieces together for the commands: Service
// input, cluster configuration, desired state, the ARM target (Azure or the
// local emulator), the planner and the executor. It is the one place that
// knows concrete providers; the commands above it only parse flags and
// render.
package engine

import (
	"fmt"
	"io"
	"time"

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
	// MaxInputSize bounds each manifest file and stdin, in bytes; 0 means
	// service.DefaultMaxInputSize.
	MaxInputSize int64
	// AzureConfig is the path of CCM's azure.json.
	AzureConfig string
	// ClusterName is CCM's --cluster-name ("kubernetes" when empty).
	ClusterName string
	// Subscription overrides azure.json's subscriptionId; a subscription
	// from either selects Azure (TargetRule).
	Subscription string
	// StatePath is the local emulator's state file; set, it selects the
	// emulator.
	StatePath string
	Prune     bool
	// AllowEmptyPrune lets Prune run on an input without any Service of
	// type LoadBalancer or PrivateEndpoint, which deletes everything azsvc
	// owns in scope; without it such a plan is refused (EmptyPruneError).
	AllowEmptyPrune bool
	// Target is "" or "auto" (TargetRule decides), "azure" or "emulator".
	Target string
	// ARMEndpoint and ARMToken target an ARM-compatible endpoint.
	ARMEndpoint string
	ARMToken    string
	// Origins says where target, state, arm-endpoint and arm-token came
	// from; a setting missing here counts as given on the command line.
	Origins map[string]Origin
	// EmulatorWriteBudget > 0 limits the local emulator to that many
	// writes per EmulatorWriteWindow, as ARM limits a subscription.
	EmulatorWriteBudget int
	EmulatorWriteWindow time.Duration
	// Focus narrows the plan to some Services of the input.
	Focus Focus
	// Cluster, when set, is what was read from a live cluster: its
	// Services are the input, with Files overriding them by
	// namespace/name (service.Overlay).
	Cluster *Cluster
	// Emulator, when set, is an open emulator to plan and apply against
	// instead of StatePath's; it stays open (tests share one between runs).
	Emulator *emulator.Emulator
	// Seeds are files of ARM resource bodies the local emulator gets when
	// it lacks them (--seed); any other target refuses them.
	Seeds []string
}

// Cluster is a live cluster's snapshot and how manifests match it.
type Cluster struct {
	Snapshot *kube.Snapshot
	Scope    service.ClusterScope
	// Selector is -l as given: a saved plan records it (Scope.Selects is
	// its compiled form).
	Selector string
	// Where names the cluster and what was read, for the plan header.
	Where string
	// Context and Server say where it was read (kube.Client's): a saved
	// plan records them, and apply FILE takes the lease there.
	Context, Server string
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
	// SubscriptionKnown says whether the settings or azure.json name a
	// subscription (TargetRule); without one, resources are named with
	// the emulator's placeholder subscription.
	SubscriptionKnown bool
	// Diagnostics are every finding: input, validation and CCM refusals.
	Diagnostics []service.Diagnostic
	Desired     *plan.State
	Scope       plan.Scope
	// Focus is what the plan was narrowed with (Scope.Focus holds the
	// Services it selected).
	Focus Focus
	// Adopted are the Services without metadata.uid planned under the
	// names CCM used for them, found in ARM by Plan.
	Adopted []plan.AdoptedUID
	// AdoptedPorts are the node ports the input lacks, found in ARM.
	AdoptedPorts []plan.AdoptedPort
	// ConfigName and ConfigData are azure.json's path and bytes as read;
	// Subscription is azsvc's subscription setting. A saved plan records
	// them (without the configuration's secrets).
	ConfigName, Subscription string
	ConfigData               []byte
	// Files are the manifest arguments as given (Settings.Files).
	Files []string
	// Cluster is the live cluster read, nil without one. Its Nodes and
	// EndpointSlices are there for the planner; its Services for status.
	Cluster *Cluster
}

// HasErrors reports whether any diagnostic is an error.
func (in *Inputs) HasErrors() bool { return service.HasErrors(in.Diagnostics) }

// LoadInputs reads manifests and configuration and builds the desired state.
// Only I/O and configuration problems are errors; problems in the Services
// are Diagnostics.
func LoadInputs(s Settings) (*Inputs, error) {
	data, err := readConfig(s)
	if err != nil {
		return nil, err
	}
	svc, err := service.LoadWith(s.Files, s.Stdin, service.Options{MaxInputSize: s.MaxInputSize})
	if err != nil {
		return nil, err
	}
	Overlay(svc, s.Cluster)
	return inputsOf(s, svc, data)
}

// inputsOf validates svc and builds its desired state under the
// configuration in data.
func inputsOf(s Settings, svc *service.Input, data []byte) (*Inputs, error) {
	cfg, notes, known, err := parseConfig(s, data)
	if err != nil {
		return nil, err
	}
	if s.Prune && !s.AllowEmptyPrune && len(svc.Services) == 0 && len(svc.Endpoints) == 0 && !service.HasErrors(svc.Diagnostics) {
		skipped := 0
		for _, n := range svc.Skipped {
			skipped += n
		}
		return nil, &EmptyPruneError{skipped: skipped}
	}
	in := Build(svc, cfg, s.Prune)
	in.Notes, in.SubscriptionKnown = notes, known
	in.ConfigName, in.ConfigData, in.Subscription, in.Files = s.AzureConfig, data, s.Subscription, s.Files
	in.Cluster = s.Cluster
	if in.Scope.Focus, err = focusOf(svc, s.Focus); err != nil {
		return nil, err
	}
	in.Focus = s.Focus
	return in, nil
}

// Build validates decoded input against cfg and builds its desired state:
// Services first, then the PrivateEndpoints that connect to their private
// link services.
func Build(svc *service.Input, cfg *cluster.Config, prune bool) *Inputs {
	in := &Inputs{Service: svc, Config: cfg}
	in.Diagnostics = append(in.Diagnostics, svc.Diagnostics...)
	in.Diagnostics = append(in.Diagnostics, service.Validate(svc.Services)...)
	in.Diagnostics = append(in.Diagnostics, service.ValidateEndpoints(svc.Endpoints, svc.Services, cfg.SubscriptionForIDs())...)
	in.Diagnostics = append(in.Diagnostics, in.buildDesired()...)
	service.SortDiagnostics(in.Diagnostics)
	in.Scope.Prune = prune
	return in
}

// buildDesired builds the desired state and scope of in's Services and
// PrivateEndpoints, and returns CCM's refusals.
func (in *Inputs) buildDesired() []service.Diagnostic {
	svc := in.Service
	state, scope, refusals := desired.BuildWith(svc.Services, in.Config, desired.Options{Topology: &svc.Topology})
	desired.Endpoints(state, &scope, svc.Endpoints, in.Config)
	in.Desired, in.Scope = state, scope
	in.Scope.NodeIPs = nodeIPs(svc.Topology.Nodes)
	return refusals
}

// nodeIPs maps the InternalIPs of nodes to their names: addresses their
// NICs hold, which a static frontend IP cannot take.
func nodeIPs(nodes []*service.Node) map[string]string {
	if len(nodes) == 0 {
		return nil
	}
	out := make(map[string]string, len(nodes))
	for _, n := range nodes {
		for _, a := range n.Status.Addresses {
			if a.Type == "InternalIP" {
				out[plan.CanonicalIP(a.Address)] = n.Name
			}
		}
	}
	return out
}

// Overlay lays the manifests read into svc over the cluster's Services,
// Nodes and EndpointSlices (service.Overlay, service.OverlayTopology); a
// nil cluster leaves svc as it is.
func Overlay(svc *service.Input, c *Cluster) {
	if c == nil {
		return
	}
	service.OverlayTopology(svc, c.Snapshot.Nodes, c.Snapshot.EndpointSlices)
	cluster, skipped := service.FromClusterList(c.Snapshot.Services)
	merged, diags := service.Overlay(cluster, svc, c.Scope)
	svc.Services = merged
	svc.Diagnostics = append(svc.Diagnostics, diags...)
	service.SortDiagnostics(svc.Diagnostics)
	for reason, n := range skipped {
		svc.Skipped[reason] += n
	}
}

func readConfig(s Settings) ([]byte, error) {
	if s.AzureConfig == "" {
		return nil, fmt.Errorf("no cluster configuration: pass --config azure.json (the cloud provider's config file)")
	}
	return readBounded(s.AzureConfig, MaxConfigSize, "cluster configuration")
}

// CheckConfig reads and parses the azure.json at path on its own, for
// validate: the configuration errors and refusals plan would stop on
// (cluster.ErrNotModelled among them), and the notes it would print.
func CheckConfig(path string) ([]string, error) {
	data, err := readConfig(Settings{AzureConfig: path})
	if err != nil {
		return nil, err
	}
	_, notes, err := cluster.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, n := range notes {
		notes[i] = path + ": " + n
	}
	return notes, nil
}

func parseConfig(s Settings, data []byte) (*cluster.Config, []string, bool, error) {
	cfg, notes, err := cluster.Parse(data)
	if err != nil {
		return nil, nil, false, fmt.Errorf("%s: %w", s.AzureConfig, err)
	}
	if s.ClusterName != "" {
		cfg.ClusterName = s.ClusterName
	}
	if s.Subscription != "" && !service.IsSubscriptionID(s.Subscription) {
		return nil, nil, false, targetErrorf("--subscription %q%s is not a subscription ID (a GUID such as 00000000-0000-0000-0000-000000000000)",
			s.Subscription, s.where("subscription"))
	}
	cfg.Subscription = s.Subscription
	known := cfg.SubscriptionForIDs() != ""
	if !known {
		// The emulator needs some subscription to name resources with.
		cfg.SubscriptionID = emulatorSubscription
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, false, fmt.Errorf("%s: %w", s.AzureConfig, err)
	}
	for i, n := range notes {
		notes[i] = s.AzureConfig + ": " + n
	}
	return cfg, notes, known, nil
}

// EmptyPruneError refuses --prune over an input that holds nothing azsvc
// plans: a generator that failed quietly (helm template piped into -f -)
// would otherwise delete every resource azsvc owns, as kubectl apply
// refuses an empty input.
type EmptyPruneError struct{ skipped int }

func (e *EmptyPruneError) Error() string {
	what := "the input holds no Service of type LoadBalancer and no PrivateEndpoint"
	if e.skipped > 0 {
		what += fmt.Sprintf(" (%d other documents skipped)", e.skipped)
	}
	return what + ": with --prune that deletes everything azsvc owns in scope. " +
		"If that is what you want, add --allow-empty-input"
}
