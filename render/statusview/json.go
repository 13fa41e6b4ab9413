package statusview

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/planview"
)

// FormatVersion is the status JSON's format_version (SCHEMA.md).
const FormatVersion = "1.0"

type jsonStatus struct {
	FormatVersion string               `json:"format_version"`
	Context       planview.Header      `json:"context"`
	Ready         bool                 `json:"ready"`
	Summary       Summary              `json:"summary"`
	Services      []jsonService        `json:"services"`
	Endpoints     []jsonEndpoint       `json:"private_endpoints"`
	Diagnostics   []service.Diagnostic `json:"diagnostics"`
}

// jsonService is a Service's report with its namespace and name apart,
// where it came from, and each condition worded.
type jsonService struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Source    string `json:"source,omitempty"`
	conditions.Service
	Conditions []jsonCondition `json:"conditions"`
}

type jsonEndpoint struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Source    string `json:"source,omitempty"`
	conditions.Endpoint
	Conditions []jsonCondition `json:"conditions"`
}

type jsonCondition struct {
	conditions.Condition
	Message string `json:"message"`
}

// JSON writes the report as one versioned document (SCHEMA.md).
func JSON(w io.Writer, in Input) error {
	svcs, eps := sorted(in.Report)
	doc := jsonStatus{FormatVersion: FormatVersion, Context: in.Header, Summary: Summarize(in.Report),
		Services: make([]jsonService, 0, len(svcs)), Endpoints: make([]jsonEndpoint, 0, len(eps)),
		Diagnostics: in.Diagnostics}
	doc.Ready = doc.Summary.Ready
	if doc.Diagnostics == nil {
		doc.Diagnostics = []service.Diagnostic{}
	}
	for _, s := range svcs {
		ns, n, _ := strings.Cut(s.Name, "/")
		doc.Services = append(doc.Services, jsonService{Namespace: ns, Name: n, Source: in.Sources[s.Name],
			Service: s, Conditions: worded(s.Conditions, "")})
	}
	for _, e := range eps {
		ns, n, _ := strings.Cut(e.Name, "/")
		doc.Endpoints = append(doc.Endpoints, jsonEndpoint{Namespace: ns, Name: n, Source: in.Sources[plan.EndpointOwner(e.Name)],
			Endpoint: e, Conditions: worded(e.Conditions, e.IPAddress)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func worded(cs []conditions.Condition, ip string) []jsonCondition {
	out := make([]jsonCondition, len(cs))
	for i, c := range cs {
		out[i] = jsonCondition{Condition: c, Message: message(c, ip)}
	}
	return out
}
