package release

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan/golden"
)

// apacheLicenseSHA256 is the SHA-256 of the Apache License 2.0 as the
// Apache Software Foundation publishes it (LICENSE-2.0.txt), the same bytes
// as the LICENSE of k8s.io/api, k8s.io/client-go and k8s.io/apimachinery.
const apacheLicenseSHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"

func TestLicenseIsApache2Verbatim(t *testing.T) {
	b, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != apacheLicenseSHA256 {
		t.Errorf("LICENSE has SHA-256 %s, not the Apache License 2.0's %s", got, apacheLicenseSHA256)
	}
}

const noticeHeader = `azsvc
Copyright 2026 The azsvc Authors

Licensed under the Apache License, Version 2.0 (LICENSE).

azsvc's binaries and container image include the Go modules listed in each
release's SBOM (azsvc_VERSION_OS_ARCH.cdx.json), under their own licenses.
The NOTICE files of those modules follow, as section 4(d) of the Apache
License 2.0 asks of a redistribution. TestNotice (internal/release) writes
this file from the module cache: go test ./internal/release -run TestNotice -update
`

// TestNotice: NOTICE carries, verbatim, the NOTICE file of every module
// linked into azsvc that ships one, and nothing else, so that a dependency
// added or bumped cannot leave a notice out.
func TestNotice(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(noticeHeader)
	for _, m := range linkedModules(t) {
		notice, err := os.ReadFile(filepath.Join(m.dir, "NOTICE"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rule := strings.Repeat("=", 78)
		fmt.Fprintf(&b, "\n%s\n%s\n%s\n\n%s\n", rule, m.path, rule, bytes.TrimSpace(notice))
	}
	golden.Check(t, "../../NOTICE", b.Bytes())
}

type module struct{ path, dir string }

// linkedModules lists the modules whose packages azsvc's binary links, in
// import path order, as go list sees them for this platform (the modules
// that ship a NOTICE are the same on every platform azsvc is released for).
func linkedModules(t *testing.T) []module {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Dir}}{{end}}{{end}}", "../../cmd/azsvc")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	seen := map[string]bool{}
	var mods []module
	for _, line := range strings.Split(string(out), "\n") {
		path, dir, ok := strings.Cut(line, " ")
		if !ok || seen[path] {
			continue
		}
		seen[path] = true
		mods = append(mods, module{path, dir})
	}
	if len(mods) == 0 {
		t.Fatal("go list found no module azsvc links")
	}
	slices.SortFunc(mods, func(a, b module) int { return strings.Compare(a.path, b.path) })
	return mods
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
