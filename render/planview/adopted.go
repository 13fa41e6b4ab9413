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

func writeAdopted(w *bufio.Writer, adopted []plan.AdoptedUID, st style.Style) {
	if len(adopted) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.Bold("UID taken from Azure (the manifest has no metadata.uid):"))
	for i, a := range adopted {
		if i == maxAdoptedLines {
			fmt.Fprintf(w, "  … and %d more Services (-o json lists them all)\n", len(adopted)-i)
			break
		}
		for _, l := range style.Wrap(fmt.Sprintf("  %s: %s", a.Service, AdoptedText(a)), style.Width, "      ") {
			fmt.Fprintln(w, l)
		}
	}
}

func adoptedMarkdown(b *strings.Builder, adopted []plan.AdoptedUID) {
	if len(adopted) == 0 {
		return
	}
	b.WriteString("\n#### UID taken from Azure\n\n")
	for i, a := range adopted {
		if i == maxAdoptedLines {
			fmt.Fprintf(b, "- … and %d more Services\n", len(adopted)-i)
			break
		}
		fmt.Fprintf(b, "- `%s`: %s\n", escapeCode(a.Service), escapeText(AdoptedText(a)))
	}
}

// AdoptedPortText says where one port the input lacks comes from.
func AdoptedPortText(a plan.AdoptedPort) string {
	return fmt.Sprintf("%s is %d as CCM built it (%s)", ServerValueText(plan.ServerValue{Service: a.Service, Field: a.Field}), a.Port, plan.ShownAddress(a.Evidence))
}

func writeAdoptedPorts(w *bufio.Writer, adopted []plan.AdoptedPort, st style.Style) {
	if len(adopted) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.Bold("Ports taken from Azure (the manifest has no nodePort or healthCheckNodePort):"))
	for i, a := range adopted {
		if i == maxAdoptedLines {
			fmt.Fprintf(w, "  … and %d more (-o json lists them all)\n", len(adopted)-i)
			break
		}
		for _, l := range style.Wrap(fmt.Sprintf("  %s: %s", a.Service, AdoptedPortText(a)), style.Width, "      ") {
			fmt.Fprintln(w, l)
		}
	}
}

func adoptedPortsMarkdown(b *strings.Builder, adopted []plan.AdoptedPort) {
	if len(adopted) == 0 {
		return
	}
	b.WriteString("\n#### Ports taken from Azure\n\n")
	for i, a := range adopted {
		if i == maxAdoptedLines {
			fmt.Fprintf(b, "- … and %d more\n", len(adopted)-i)
			break
		}
		fmt.Fprintf(b, "- `%s`: %s\n", a.Service, escapeText(AdoptedPortText(a)))
	}
}
