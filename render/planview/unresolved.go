package planview

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// UnresolvedHeading introduces the values the API server assigns that the
// plan needs, in text and markdown.
const UnresolvedHeading = "Assigned by the API server (not in the input; apply refuses this plan until they are known)"

// UnresolvedHint says how to provide them.
const UnresolvedHint = "plan with --from-cluster to read them from the cluster, or pin them in the manifest " +
	"(metadata.uid, spec.ports[].nodePort, spec.healthCheckNodePort)"

// maxUnresolvedLines bounds the text list: a chart without UIDs lists
// every Service.
const maxUnresolvedLines = 20

// ServerValueText words one value the API server assigns.
func ServerValueText(v plan.ServerValue) string {
	if rest, ok := strings.CutPrefix(v.Field, "spec.ports["); ok {
		port, _, _ := strings.Cut(rest, "]")
		return "the nodePort of port " + port
	}
	return v.Field
}

// UnresolvedLines are the values, one line per Service (what is unknown
// and how many changes need it), at most maxUnresolvedLines of them and a
// line counting the rest.
func UnresolvedLines(us []plan.Unresolved) []string {
	var out []string
	for i := 0; i < len(us); {
		svc := us[i].Service
		var what []string
		changes := map[string]bool{}
		for ; i < len(us) && us[i].Service == svc; i++ {
			what = append(what, ServerValueText(us[i].ServerValue))
			for _, a := range us[i].Addresses {
				changes[a] = true
			}
		}
		who := svc
		if who == "" {
			who = "the cluster"
		}
		out = append(out, fmt.Sprintf("%s: %s (needed by %s)", who, strings.Join(what, ", "),
			count(len(changes), "change", "changes")))
	}
	if len(out) > maxUnresolvedLines {
		out = append(out[:maxUnresolvedLines], fmt.Sprintf("… and %d more Services (-o json lists them all)", len(out)-maxUnresolvedLines))
	}
	return out
}

func writeUnresolved(w *bufio.Writer, us []plan.Unresolved, st style.Style) {
	if len(us) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.Bold(UnresolvedHeading+":"))
	for _, l := range UnresolvedLines(us) {
		for _, wl := range style.Wrap("  "+l, style.Width, "      ") {
			fmt.Fprintln(w, wl)
		}
	}
	for _, l := range style.Wrap("  To apply: "+UnresolvedHint+".", style.Width, "      ") {
		fmt.Fprintln(w, st.Dim(l))
	}
}

func unresolvedMarkdown(b *strings.Builder, us []plan.Unresolved) {
	if len(us) == 0 {
		return
	}
	fmt.Fprintf(b, "\n#### %s\n\n", UnresolvedHeading)
	for _, l := range UnresolvedLines(us) {
		fmt.Fprintf(b, "- %s\n", escapeText(l))
	}
	fmt.Fprintf(b, "\nTo apply: %s.\n", escapeText(UnresolvedHint))
}
