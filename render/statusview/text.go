package statusview

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/conditions"
	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/render/planview"
	"github.com/azsvc/azsvc/render/style"
)

// Options choose what the text shows.
type Options struct {
	// Wide shows every detail (-o wide): ARM IDs, rule and probe
	// settings, every NSG prefix and pool member, the private link
	// service's settings, record TTLs.
	Wide bool
}

// Text writes the report as a tree per Service, then per PrivateEndpoint,
// each opening with its conditions, and a summary line.
func Text(w io.Writer, in Input, st style.Style, opts Options) error {
	t := &textWriter{st: st, wide: opts.Wide}
	if err := planview.WriteHeader(&t.b, in.Header); err != nil {
		return err
	}
	svcs, eps := sorted(in.Report)
	for _, s := range svcs {
		t.service(s, in.Sources[s.Name])
	}
	for _, e := range eps {
		t.endpoint(e, in.Sources[plan.EndpointOwner(e.Name)])
	}
	t.line(0, "")
	t.line(0, st.Bold(summaryLine(in.Report)))
	// Values are quoted where they are written; escaping the whole text
	// as well means none can reach the terminal raw, whatever a later
	// edit forgets.
	_, err := io.WriteString(w, planview.TerminalSafe(t.b.String(), st))
	return err
}

// textWriter accumulates the text.
type textWriter struct {
	b    bytes.Buffer
	st   style.Style
	wide bool
}

// line writes text indented by depth steps of two spaces. Lines hold
// names, IDs and addresses, which read best whole: only one wider than
// style.MaxColumns is wrapped.
func (t *textWriter) line(depth int, text string) {
	indent := strings.Repeat("  ", depth)
	for _, l := range style.Wrap(indent+text, style.MaxColumns, indent+"    ") {
		t.b.WriteString(l)
		t.b.WriteByte('\n')
	}
}

// q quotes a value read from the input or from Azure for the terminal.
func q(s string) string { return quote.Text(s) }

// name words the placeholders of values the API server assigns in a name.
func name(s string) string { return q(plan.ShowName(s)) }

// header opens an object's block: its kind and name, then where it came
// from.
func (t *textWriter) header(kind, objName, source string) {
	h := kind + " " + q(objName)
	if source != "" {
		h += " (" + q(source) + ")"
	}
	t.line(0, "")
	t.line(0, t.st.Bold(h))
}

// conditions writes a kubectl describe style table of cs; ip is the
// endpoint's address the DNS messages name.
func (t *textWriter) conditions(cs []conditions.Condition, ip string) {
	rows := [][]string{{"Type", "Status", "Reason", "Message"}, {"----", "------", "------", "-------"}}
	for _, c := range cs {
		rows = append(rows, []string{string(c.Type), string(c.Status), string(c.Reason), message(c, ip)})
	}
	width := [3]int{}
	for _, r := range rows {
		for i := range width {
			width[i] = max(width[i], len(r[i]))
		}
	}
	t.line(1, "Conditions:")
	for i, r := range rows {
		// The message wraps under its own column; the status is coloured
		// once the plain line is laid out.
		prefix := fmt.Sprintf("    %-*s  %-*s  %-*s  ", width[0], r[0], width[1], r[1], width[2], r[2])
		lines := style.Wrap(prefix+q(r[3]), style.Width, strings.Repeat(" ", len(prefix)))
		if i >= 2 {
			at := 4 + width[0] + 2
			lines[0] = lines[0][:at] + t.colour(conditions.Status(r[1]), lines[0][at:at+width[1]]) + lines[0][at+width[1]:]
		}
		for _, l := range lines {
			t.b.WriteString(strings.TrimRight(l, " ") + "\n")
		}
	}
}

func (t *textWriter) colour(s conditions.Status, text string) string {
	switch s {
	case conditions.True:
		return t.st.Green(text)
	case conditions.False:
		return t.st.Red(text)
	}
	return t.st.Yellow(text)
}

// summaryLine says whether every condition is True, and otherwise which
// Services and endpoints have one that is not.
func summaryLine(r *conditions.Report) string {
	sum := Summarize(r)
	var what []string
	if sum.Services > 0 || sum.Endpoints == 0 {
		what = append(what, planview.Count(sum.Services, "Service", "Services"))
	}
	if sum.Endpoints > 0 {
		what = append(what, planview.Count(sum.Endpoints, "PrivateEndpoint", "PrivateEndpoints"))
	}
	if sum.Ready {
		return "Ready: every condition of " + strings.Join(what, " and ") + " is True."
	}
	svcs, eps := sorted(r)
	var names []string
	for _, s := range svcs {
		if !conditions.AllTrue(s.Conditions) {
			names = append(names, q(s.Name))
		}
	}
	for _, e := range eps {
		if !conditions.AllTrue(e.Conditions) {
			names = append(names, "PrivateEndpoint "+q(e.Name))
		}
	}
	if len(names) > maxNamed {
		names = append(names[:maxNamed], fmt.Sprintf("and %d more", len(names)-maxNamed))
	}
	return "Not ready: " + strings.Join(names, ", ") + "."
}

// maxNamed is how many not ready Services and endpoints the summary names.
const maxNamed = 5

// missing is what a resource Azure does not hold shows.
const missing = "not in Azure"

// more lists at most maxListed values, unless wide, counting the rest.
func (t *textWriter) more(values []string) string {
	if t.wide || len(values) <= maxListed {
		return q(strings.Join(values, ", "))
	}
	return q(strings.Join(values[:maxListed], ", ")) + fmt.Sprintf(" … %d more", len(values)-maxListed)
}

// id writes a resource's ARM ID, in wide output.
func (t *textWriter) id(depth int, r conditions.Resource) {
	if t.wide && r.ID != "" {
		t.line(depth, t.st.Dim("id: "+q(r.ID)))
	}
}
