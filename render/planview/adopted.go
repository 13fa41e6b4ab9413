package planview

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// maxAdoptedLines bounds the text list of Services whose UID came from
// Azure: a GitOps repository without UIDs lists every Service.
const maxAdoptedLines = 20

// AdoptedText says where one Service's names come from.
func AdoptedText(a plan.AdoptedUID) string {
	text := "named " + a.Prefix + " as CCM built it"
	if len(a.Evidence) > 0 {
		text += " (" + a.Evidence[0]
		if n := len(a.Evidence) - 1; n > 0 {
			text += fmt.Sprintf(" and %d more", n)
		}
		text += ")"
	}
	return text
}

// taken is one entry of a "taken from Azure" list: the Service and what
// was taken.
type taken struct{ service, text string }

func writeAdopted(w *bufio.Writer, adopted []plan.AdoptedUID, st style.Style) {
	writeTaken(w, "UID taken from Azure (the manifest has no metadata.uid):", "Services", uidEntries(adopted), st)
}

func adoptedMarkdown(b *strings.Builder, adopted []plan.AdoptedUID) {
	takenMarkdown(b, "UID taken from Azure", "Services", uidEntries(adopted))
}

func uidEntries(adopted []plan.AdoptedUID) []taken {
	out := make([]taken, len(adopted))
	for i, a := range adopted {
		out[i] = taken{a.Service, AdoptedText(a)}
	}
	return out
}

// AdoptedPortText says where one port the input lacks comes from.
func AdoptedPortText(a plan.AdoptedPort) string {
	return fmt.Sprintf("%s is %d as CCM built it (%s)", ServerValueText(plan.ServerValue{Service: a.Service, Field: a.Field}), a.Port, plan.ShownAddress(a.Evidence))
}

func writeAdoptedPorts(w *bufio.Writer, adopted []plan.AdoptedPort, st style.Style) {
	writeTaken(w, "Ports taken from Azure (the manifest has no nodePort or healthCheckNodePort):", "ports", portEntries(adopted), st)
}

func adoptedPortsMarkdown(b *strings.Builder, adopted []plan.AdoptedPort) {
	takenMarkdown(b, "Ports taken from Azure", "ports", portEntries(adopted))
}

func portEntries(adopted []plan.AdoptedPort) []taken {
	out := make([]taken, len(adopted))
	for i, a := range adopted {
		out[i] = taken{a.Service, AdoptedPortText(a)}
	}
	return out
}

// writeTaken writes a list of what was taken from Azure, at most
// maxAdoptedLines entries.
func writeTaken(w *bufio.Writer, heading, what string, entries []taken, st style.Style) {
	if len(entries) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.Bold(heading))
	for i, e := range entries {
		if i == maxAdoptedLines {
			fmt.Fprintf(w, "  … and %d more %s (-o json lists them all)\n", len(entries)-i, what)
			break
		}
		for _, l := range style.Wrap(fmt.Sprintf("  %s: %s", e.service, e.text), style.Width, "      ") {
			fmt.Fprintln(w, l)
		}
	}
}

func takenMarkdown(b *strings.Builder, heading, what string, entries []taken) {
	if len(entries) == 0 {
		return
	}
	fmt.Fprintf(b, "\n#### %s\n\n", heading)
	for i, e := range entries {
		if i == maxAdoptedLines {
			fmt.Fprintf(b, "- … and %d more %s\n", len(entries)-i, what)
			break
		}
		fmt.Fprintf(b, "- `%s`: %s\n", escapeCode(e.service), escapeText(e.text))
	}
}
