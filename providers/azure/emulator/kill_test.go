//go:build unix

package emulator

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The kill tests run a child process (this test binary, TestKillChild)
// that writes to an emulator with a state file and prints each write it got
// an answer for, then kill it: at random moments, and at exact points (half
// a journal line written; a compaction's snapshot synced but not renamed,
// or renamed with the old journal still there). Whatever the moment, the
// state must load and hold every acknowledged write, and the emulator must
// go on writing and reloading from there.

const (
	killChildEnv = "AZSVC_EMULATOR_KILL_CHILD" // the state path
	killPointEnv = "AZSVC_EMULATOR_KILL_POINT" // "", "append:N", "before-rename:N", "after-rename:N"
	// killNoCompact keeps the child from compacting before Close, so what
	// it appends lands right after whatever the last kill left.
	killNoCompact = "AZSVC_EMULATOR_KILL_NO_COMPACT"
)

// TestKillChild is the child's workload; it does nothing in a normal run.
func TestKillChild(t *testing.T) {
	path := os.Getenv(killChildEnv)
	if path == "" {
		t.Skip("the kill tests' child process")
	}
	e, err := Open(Options{StatePath: path, InstantOperations: true})
	if err != nil {
		fmt.Printf("open-error %v\n", err)
		os.Exit(3)
	}
	e.compactMin = 16 << 10 // compact often, so kills land in compactions
	if os.Getenv(killNoCompact) != "" {
		e.compactMin = 1 << 40
	}
	e.hooks = killHooks(os.Getenv(killPointEnv))
	if err := e.EnsureBaseline(testSub, testRG, testLocation, "vnet", "10.0.0.0/16", map[string]string{"nodes": "10.0.0.0/22"}, "nsg"); err != nil {
		fmt.Printf("baseline-error %v\n", err)
		os.Exit(3)
	}
	for i := 0; i < 400; i++ {
		method, path, body := killWorkload(i)
		fmt.Printf("begin %s %s\n", method, key(path))
		w := do(t, e, method, path+apiVersion, body)
		if w.Code >= 300 {
			fmt.Printf("refused %d %s\n", w.Code, w.Body.String())
			os.Exit(3)
		}
		etag := ""
		if method == http.MethodPut {
			etag = etagOf(e, path)
		}
		fmt.Printf("ack %s %s %s\n", method, key(path), etag)
	}
	if err := e.Close(); err != nil {
		fmt.Printf("close-error %v\n", err)
		os.Exit(3)
	}
	fmt.Println("closed")
}

// killWorkload is write i: public IPs created, retagged and deleted, and an
// internal LB whose frontends (and IP allocations) grow, so journal records
// range from a few hundred bytes to tens of kilobytes.
func killWorkload(i int) (method, path, body string) {
	switch i % 10 {
	case 6, 7:
		return http.MethodPut, id("publicIPAddresses", fmt.Sprintf("p%d", i-3)),
			fmt.Sprintf(`{"location":"eastus","sku":{"name":"Standard"},"tags":{"v":"%d"}}`, i)
	case 8:
		return http.MethodDelete, id("publicIPAddresses", fmt.Sprintf("p%d", i-5)), ""
	case 9:
		return http.MethodPut, id("loadBalancers", "lb"), killLB(i/10 + 1)
	}
	return http.MethodPut, id("publicIPAddresses", fmt.Sprintf("p%d", i)), `{"location":"eastus","sku":{"name":"Standard"}}`
}

func killLB(frontends int) string {
	fes := make([]string, frontends)
	for i := range fes {
		fes[i] = fmt.Sprintf(`{"name":"fe%d","properties":{"subnet":{"id":%q}}}`, i, subnetID("nodes"))
	}
	return `{"location":"eastus","sku":{"name":"Standard"},"properties":{"frontendIPConfigurations":[` + strings.Join(fes, ",") + `]}}`
}

func etagOf(e *Emulator, path string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if en := e.store.get(key(path)); en != nil {
		return getStr(en.body(), "etag")
	}
	return ""
}

// killHooks makes the child die at point "NAME:N", the Nth time it is reached.
func killHooks(spec string) *persistHooks {
	name, nth, _ := strings.Cut(spec, ":")
	n, _ := strconv.Atoi(nth)
	die := func() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL); select {} }
	seen := 0
	reached := func() bool { seen++; return seen == n }
	switch name {
	case "append":
		return &persistHooks{write: func(f *os.File, line []byte) (int, error) {
			if reached() {
				_, _ = f.Write(line[:len(line)/2])
				die()
			}
			return f.Write(line)
		}}
	case "before-rename", "after-rename":
		want := map[string]hookPoint{"before-rename": hookBeforeRename, "after-rename": hookAfterRename}[name]
		return &persistHooks{point: func(p hookPoint) {
			if p == want && reached() {
				die()
			}
		}}
	}
	return nil
}

// childRun is what the parent saw of one child.
type childRun struct {
	acked    map[string]string // key → etag of the last acknowledged PUT; "" after a DELETE
	inFlight string            // key of the write begun and never acknowledged
	closed   bool
}

// runChild starts the child on path and kills it once it acknowledged
// killAfter writes (never, when 0), or lets it die at its kill point.
func runChild(t *testing.T, path, point string, killAfter int, rng *rand.Rand, env ...string) childRun {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path, killPointEnv+"="+point)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	run := childRun{acked: map[string]string{}}
	acks := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 3 && f[0] == "begin":
			run.inFlight = f[2]
		case len(f) >= 3 && f[0] == "ack":
			run.acked[f[2]] = strings.Join(f[3:], " ")
			run.inFlight = ""
			acks++
			if acks == killAfter {
				time.Sleep(time.Duration(rng.IntN(500)) * time.Microsecond)
				_ = cmd.Process.Signal(syscall.SIGKILL)
			}
		case len(f) == 1 && f[0] == "closed":
			run.closed = true
		case strings.HasSuffix(f[0], "-error") || f[0] == "refused":
			t.Fatalf("child: %s", sc.Text())
		}
	}
	_ = cmd.Wait()
	return run
}

// checkState opens the state the child left and compares it with its acks.
// It leaves the files as they are (no Close, which would compact), so the
// next child starts from exactly what the kill left.
func checkState(t *testing.T, path string, run childRun) {
	t.Helper()
	e, err := Open(Options{StatePath: path, InstantOperations: true})
	if err != nil {
		t.Fatalf("state after the kill does not load: %v", err)
	}
	defer func() {
		_ = e.closeJournal()
		e.lock.release()
	}()
	for k, etag := range run.acked {
		if k == run.inFlight {
			continue // a later write to it may or may not have landed
		}
		en := e.store.get(k)
		switch {
		case etag == "" && en != nil:
			t.Errorf("%s: deleted (acknowledged), but the state has it", k)
		case etag != "" && en == nil:
			t.Errorf("%s: written (acknowledged, etag %s), but the state lacks it", k, etag)
		case etag != "" && getStr(en.body(), "etag") != etag:
			t.Errorf("%s: acknowledged etag %s, state has %s", k, etag, getStr(en.body(), "etag"))
		}
	}
}

func TestKillAtRandomMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 processes")
	}
	rng := rand.New(rand.NewPCG(15, 20))
	for i := range 20 {
		path := filepath.Join(t.TempDir(), "state.json")
		killAfter := 1 + rng.IntN(380)
		run := runChild(t, path, "", killAfter, rng)
		checkState(t, path, run)
		if t.Failed() {
			t.Fatalf("run %d: killed after %d acknowledged writes", i, killAfter)
		}
		// The state the kill left is a good base for more writes.
		again := runChild(t, path, "", 0, rng)
		if !again.closed {
			t.Fatalf("run %d: the second child did not finish", i)
		}
		checkState(t, path, again)
	}
}

func TestKillAtPersistencePoints(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	rng := rand.New(rand.NewPCG(15, 21))
	for _, point := range []string{"append:1", "append:2", "append:57", "append:390",
		"before-rename:1", "before-rename:4", "after-rename:1", "after-rename:4"} {
		t.Run(point, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			run := runChild(t, path, point, 0, rng)
			if run.closed {
				t.Fatalf("the child never reached %s", point)
			}
			checkState(t, path, run)
			// A torn journal line must be cut off, not written after: a
			// second child's records must still load after its own kill.
			checkState(t, path, runChild(t, path, "", 30, rng, killNoCompact+"=1"))
			again := runChild(t, path, "", 0, rng)
			if !again.closed {
				t.Fatal("the third child did not finish")
			}
			checkState(t, path, again)
			if _, err := os.Stat(path + ".journal"); err == nil {
				t.Error("a closed emulator left its journal behind")
			}
		})
	}
}
