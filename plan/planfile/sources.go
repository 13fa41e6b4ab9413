package planfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/azsvc/azsvc/plan/cluster"
)

// Sources are the inputs a plan was made from, recorded so that apply can
// make the plan again and refuse it unless the result is the same: the
// manifests as read, the cluster configuration without its secrets
// (cluster.Redacted), and the settings that shape a plan.
type Sources struct {
	// Files are the manifest arguments as given (-f): how plan and show
	// name the input.
	Files     []string `json:"files,omitempty"`
	Manifests []Source `json:"manifests"`
	Config    Source   `json:"config"`
	// ClusterName is CCM's --cluster-name the plan used.
	ClusterName string `json:"cluster_name"`
	// Subscription is azsvc's subscription setting, "" when only azure.json
	// named one.
	Subscription string `json:"subscription,omitempty"`
	Prune        bool   `json:"prune,omitempty"`
	// Cluster is what --from-cluster read, nil without it.
	Cluster *ClusterSource `json:"cluster,omitempty"`
	// Target is the target the plan was made against; apply opens the
	// same one unless told otherwise.
	Target TargetSource `json:"target"`
}

// TargetSource says how to reach a plan's target again: "azure" (the
// subscription is the recorded configuration's), "endpoint" (an
// ARM-compatible endpoint; its token is never recorded) or "emulator"
// (the local emulator's state file by its absolute path, so the plan
// applies from any directory; plans made before recorded it as given).
type TargetSource struct {
	Kind     string `json:"kind"`
	State    string `json:"state,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
}

// ClusterSource is a live cluster's objects as a plan read them, so that
// apply can make the plan again from exactly them.
type ClusterSource struct {
	// Where names the cluster and what was read (the plan header's Input).
	Where string `json:"where"`
	// Context and Server are the kubeconfig context read ("" for a Pod's
	// service account) and its API server: apply FILE takes the lease
	// there and checks the Services are still the ones read (3.1).
	Context       string `json:"context,omitempty"`
	Server        string `json:"server,omitempty"`
	Namespace     string `json:"namespace"`
	AllNamespaces bool   `json:"all_namespaces,omitempty"`
	Selector      string `json:"selector,omitempty"`
	// Objects is the JSON of the Services, Nodes and EndpointSlices read
	// (without managedFields; with each object's uid and resourceVersion,
	// which apply compares the cluster's Services with).
	Objects string `json:"objects"`
}

// Source is one input file: its name as given and its text.
type Source struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// ErrModified is returned for a plan file whose bytes do not match its
// checksum: someone edited it after `azsvc plan --out` wrote it.
var ErrModified = errors.New("plan file was modified since azsvc wrote it")

// Marshal encodes s with its checksum: the SHA-256 of the encoding with an
// empty checksum, so any edit of the file shows.
func Marshal(s *Plan) ([]byte, error) {
	s.Checksum = ""
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode saved plan: %w", err)
	}
	s.Checksum = "sha256:" + sum(data)
	data, err = json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode saved plan: %w", err)
	}
	return append(data, '\n'), nil
}

// ErrNotPlanFile is returned for a file that is not a plan azsvc wrote, as
// it wrote it: not JSON, cut short, re-encoded with a byte order mark, a
// member of another type, no format_version. Like ErrModified, apply and
// show refuse it (exit 5): plan again.
var ErrNotPlanFile = errors.New("not a plan file azsvc wrote")

// utf8BOM is what an editor saving "UTF-8 with BOM" puts first; JSON
// (RFC 8259 §8.1) and Marshal have none.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// Unmarshal decodes a saved plan and checks its checksum.
func Unmarshal(data []byte) (*Plan, error) {
	if bytes.HasPrefix(data, utf8BOM) {
		return nil, &notPlanFile{msg: "it starts with a byte order mark (an editor saved it again)"}
	}
	var s Plan
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, notAPlan(err)
	}
	if s.FormatVersion == "" {
		return nil, &notPlanFile{msg: "it has no format_version"}
	}
	if s.Checksum == "" {
		return nil, fmt.Errorf("%w: it has no checksum", ErrModified)
	}
	blank, err := withoutChecksum(bytes.TrimSuffix(data, []byte("\n")))
	if err != nil {
		return nil, err
	}
	if "sha256:"+sum(blank) != s.Checksum {
		return nil, ErrModified
	}
	return &s, nil
}

// notAPlan says why data that failed to decode is no saved plan, without
// encoding/json's Go struct and type names.
func notAPlan(err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return &notPlanFile{msg: fmt.Sprintf("%s is a JSON %s where a saved plan has %s",
			fieldOf(typ), typ.Value, cluster.JSONWant(typ.Type)), err: err}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || err.Error() == "unexpected end of JSON input" {
		return &notPlanFile{msg: "it ends early (cut short?)", err: err}
	}
	return &notPlanFile{msg: err.Error(), err: err}
}

// fieldOf is the JSON path of a type error's field, without the Go type
// name encoding/json puts first.
func fieldOf(typ *json.UnmarshalTypeError) string {
	if typ.Field == "" {
		return "the file"
	}
	return fmt.Sprintf("%q", typ.Field)
}

// notPlanFile is ErrNotPlanFile with what gave the file away, keeping the
// decoding error for errors.As.
type notPlanFile struct {
	msg string
	err error
}

func (e *notPlanFile) Error() string { return ErrNotPlanFile.Error() + ": " + e.msg }
func (e *notPlanFile) Unwrap() []error {
	if e.err == nil {
		return []error{ErrNotPlanFile}
	}
	return []error{ErrNotPlanFile, e.err}
}

// LooksSaved reports whether data starts as Marshal's output does, a JSON
// object whose first member is format_version, after whatever blank space
// or byte order mark an editor added: a file that fails to load but looks
// so is a damaged plan, not some other file (a manifest) given by mistake.
func LooksSaved(data []byte) bool {
	data = bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	if !bytes.HasPrefix(data, []byte("{")) {
		return false
	}
	return bytes.HasPrefix(bytes.TrimLeft(data[1:], " \t\r\n"), []byte(`"format_version"`))
}

// withoutChecksum returns data with the value of the top-level checksum
// member emptied, as Marshal hashed it. Only that member is touched: a
// checksum-shaped value deeper in the plan (a public IP tag) is content.
func withoutChecksum(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth, start, end := 0, -1, -1
	name, next := true, false // the next top-level token is a member name; it is the checksum's value
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not a saved azsvc plan: %w", err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			continue
		case json.Delim('}'), json.Delim(']'):
			depth-- // back at depth 1, a member's object or list value ended
		}
		if depth != 1 {
			continue
		}
		switch str, _ := tok.(string); {
		case name && str == "checksum" && start >= 0:
			return nil, fmt.Errorf("%w: it has two checksums", ErrModified)
		case name && str == "checksum":
			next = true
		case next:
			// Token skipped the colon and spaces: the value starts at its quote.
			start, end, next = int(before), int(dec.InputOffset()), false
			start += bytes.IndexByte(data[start:end], '"')
		}
		name = !name
	}
	if start < 0 {
		return nil, fmt.Errorf("%w: it has no checksum", ErrModified)
	}
	return slices.Concat(data[:start], []byte(`""`), data[end:]), nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// SameChanges compares what two saved plans would do: their changes and
// their steps, exactly. It returns "" when they agree, else the address of
// the first step (or change) that differs.
func SameChanges(a, b *Plan) string {
	for i := range max(len(a.Steps), len(b.Steps)) {
		if i >= len(a.Steps) || i >= len(b.Steps) || !sameJSON(a.Steps[i], b.Steps[i]) {
			return stepName(a, b, i)
		}
	}
	for i := range max(len(a.Changes), len(b.Changes)) {
		if i >= len(a.Changes) || i >= len(b.Changes) || !sameJSON(a.Changes[i], b.Changes[i]) {
			if i < len(a.Changes) {
				return a.Changes[i].Address
			}
			return b.Changes[i].Address
		}
	}
	return ""
}

func stepName(a, b *Plan, i int) string {
	if i < len(a.Steps) {
		return fmt.Sprintf("step %d (%s %s)", i+1, a.Steps[i].Op, a.Steps[i].Target)
	}
	return fmt.Sprintf("step %d (%s %s)", i+1, b.Steps[i].Op, b.Steps[i].Target)
}

func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
