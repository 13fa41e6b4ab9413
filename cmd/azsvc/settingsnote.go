package main

import (
	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
)

// settingsNotes name, for the plan header, the settings in effect that
// change what plan or apply does and that the command line does not show:
// an AZSVC_PRUNE left in a CI environment, or prune: true in azsvc.yaml,
// deletes what the input lacks; AZSVC_AUTO_APPROVE skips the prompt
// (issue 22 item 6).
func settingsNotes(origins map[string]engine.Origin, prune, autoApprove bool) []string {
	var out []string
	for _, s := range []struct {
		flag, effect string
		on           bool
	}{
		{"prune", "Services absent from the input are deleted", prune},
		{"auto-approve", "apply does not ask before it writes", autoApprove},
	} {
		if o, ok := origins[s.flag]; s.on && ok && o.Rank != engine.RankFlag && o.Where != "" {
			out = append(out, "--"+s.flag+" from "+o.Where+": "+s.effect)
		}
	}
	return out
}
