package emulator

import (
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A journal append that fails half-way (a full disk: ENOSPC, or EIO) fails
// the request, and neither the journal nor the emulator keeps any of it:
// the next write follows the last whole line, the state loads again, and a
// GET does not show the write the client was told failed.
func TestJournalWriteFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	newEnvFor(t, e, e.Transport(), Endpoint) // the baseline: resource group, VNet, NSG
	const pip = `{"location":"` + testLocation + `","sku":{"name":"Standard"},"properties":{"publicIPAllocationMethod":"Static"}}`
	put := func(name string) int {
		return do(t, e, "PUT", id("publicIPAddresses", name)+apiVersion, pip, "Content-Type", "application/json").Code
	}
	if code := put("before"); code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("first PUT: %d", code)
	}
	for _, failure := range []syscall.Errno{syscall.ENOSPC, syscall.EIO} {
		e.hooks = &persistHooks{write: func(f *os.File, line []byte) (int, error) {
			n, _ := f.Write(line[:len(line)/2])
			return n, failure
		}}
		if code := put("torn"); code != http.StatusInternalServerError {
			t.Fatalf("PUT with %v: %d, want 500", failure, code)
		}
		if code := do(t, e, "GET", id("publicIPAddresses", "torn")+apiVersion, "").Code; code != http.StatusNotFound {
			t.Fatalf("after %v: GET of the failed write: %d, want 404", failure, code)
		}
		code := do(t, e, "PUT", "/subscriptions/"+testSub+"/resourceGroups/torn-rg"+rgAPIVersion, `{"location":"`+testLocation+`"}`,
			"Content-Type", "application/json").Code
		if code != http.StatusInternalServerError {
			t.Fatalf("resource group PUT with %v: %d, want 500", failure, code)
		}
		if code := do(t, e, "GET", "/subscriptions/"+testSub+"/resourceGroups/torn-rg"+rgAPIVersion, "").Code; code != http.StatusNotFound {
			t.Fatalf("after %v: GET of the failed resource group: %d, want 404", failure, code)
		}
	}
	e.hooks = nil
	if code := put("after"); code != http.StatusCreated {
		t.Fatalf("PUT once the disk recovered: %d", code)
	}
	// Stop as a kill would: the journal is not folded into the state file.
	e.mu.Lock()
	e.journal.Close()
	e.journal = nil
	e.lock.release()
	e.lock = nil
	e.mu.Unlock()

	e2, err := Open(Options{StatePath: path})
	if err != nil {
		t.Fatalf("reload after the failed writes: %v", err)
	}
	defer e2.Close()
	for name, want := range map[string]int{"before": http.StatusOK, "after": http.StatusOK, "torn": http.StatusNotFound} {
		if code := do(t, e2, "GET", id("publicIPAddresses", name)+apiVersion, "").Code; code != want {
			t.Errorf("reloaded: GET %s: %d, want %d", name, code, want)
		}
	}
}
