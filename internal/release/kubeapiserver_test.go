package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestKubeAPIServerAssets: hack/kube-apiserver/run.sh takes kube-apiserver
// and etcd from KUBEBUILDER_ASSETS and builds nothing then (PATH has no go
// here, so a build would fail), and names a binary the directory lacks.
func TestKubeAPIServerAssets(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("run.sh runs under bash")
	}
	fake := func(dir, name, version string) {
		script := "#!/bin/sh\necho " + version + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(assets string) (string, error) {
		cache := t.TempDir()
		cmd := exec.Command("bash", "../../hack/kube-apiserver/run.sh", "build")
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "KUBEBUILDER_ASSETS=" + assets, "AZSVC_KUBE_CACHE=" + cache}
		out, err := cmd.CombinedOutput()
		if entries, _ := os.ReadDir(cache); len(entries) > 0 {
			t.Errorf("run.sh build wrote %s into its cache though KUBEBUILDER_ASSETS was set", entries[0].Name())
		}
		return string(out), err
	}

	assets := t.TempDir()
	fake(assets, "kube-apiserver", "Kubernetes v1.36.0")
	fake(assets, "etcd", "etcd Version: 3.5.0")
	out, err := run(assets)
	if err != nil || !strings.Contains(out, "using Kubernetes v1.36.0 from KUBEBUILDER_ASSETS") {
		t.Errorf("run.sh build with both binaries: %v\n%s", err, out)
	}

	partial := t.TempDir()
	fake(partial, "kube-apiserver", "Kubernetes v1.36.0")
	out, err = run(partial)
	if err == nil || !strings.Contains(out, "has no executable etcd") {
		t.Errorf("run.sh build without etcd: %v\n%s; want a failure naming etcd", err, out)
	}
}
