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

// TestKubeAPIServerBuildProgress: run.sh build says its two steps, counts
// the packages go build -v names while it runs, and keeps the binary. The
// go on PATH is a stand-in that lists three packages and compiles them in
// 1.5 s; progress is asked for every second.
func TestKubeAPIServerBuildProgress(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("run.sh runs under bash")
	}
	fakeBin := t.TempDir()
	fakeGo := `#!/bin/sh
case "$1" in
mod) exit 0 ;;
list) printf 'k8s.io/a\nk8s.io/b\nk8s.io/c\n' ;;
build)
	while [ "$1" != -o ]; do shift; done
	for p in a b c; do echo "k8s.io/$p" >&2; sleep 0.5; done
	printf '#!/bin/sh\n' >"$2"; chmod +x "$2" ;;
esac
`
	if err := os.WriteFile(filepath.Join(fakeBin, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	cmd := exec.Command("bash", "../../hack/kube-apiserver/run.sh", "build")
	cmd.Env = []string{"PATH=" + fakeBin + ":/usr/bin:/bin", "HOME=" + t.TempDir(), "AZSVC_KUBE_CACHE=" + cache, "AZSVC_KUBE_PROGRESS_SECONDS=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh build: %v\n%s", err, out)
	}
	for _, want := range []string{"step 1/2: downloading", "step 1/2 done in 0m0", "step 2/2: compiling kube-apiserver (3 packages", "of 3 packages compiled, 0m0", "step 2/2 done in 0m0"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("run.sh build says no %q:\n%s", want, out)
		}
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "kube-apiserver-v") {
		t.Errorf("cache holds %v, want the kube-apiserver binary", entries)
	}
}
