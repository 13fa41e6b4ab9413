package main

import (
	"strings"
	"testing"
)

// AZSVC_PRUNE and AZSVC_AUTO_APPROVE change what plan and apply do and
// appear nowhere on the command line: the plan header names them when
// they take effect (issue 22 item 6), and says nothing of flags given.
func TestHeaderNamesSettingsFromTheEnvironment(t *testing.T) {
	c := newCLI(t)
	t.Setenv("AZSVC_PRUNE", "true")
	res := c.run(exampleArgs(c, "public-basic", "plan")...)
	if want := "Settings:       --prune from env AZSVC_PRUNE: Services absent from the input are deleted\n"; !strings.Contains(res.stdout, want) {
		t.Errorf("plan under AZSVC_PRUNE lacks %q:\n%s", want, res.stdout)
	}
	t.Setenv("AZSVC_PRUNE", "")
	t.Setenv("AZSVC_AUTO_APPROVE", "true")
	res = c.run(exampleArgs(c, "public-basic", "apply")...)
	if want := "Settings:       --auto-approve from env AZSVC_AUTO_APPROVE: apply does not ask before it writes\n"; res.code != exitOK || !strings.Contains(res.stdout, want) {
		t.Errorf("apply under AZSVC_AUTO_APPROVE: exit %d, lacks %q:\n%s\n%s", res.code, want, res.stdout, res.stderr)
	}
	t.Setenv("AZSVC_AUTO_APPROVE", "")
	res = c.run(exampleArgs(c, "public-basic", "plan", "--prune")...)
	if strings.Contains(res.stdout, "Settings:") {
		t.Errorf("--prune on the command line is named in the header:\n%s", res.stdout)
	}
}
