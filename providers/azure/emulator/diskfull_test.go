package emulator

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// diskFull fails every write to a file whose path contains one of parts
// (all files when none is given), as ENOSPC would.
func diskFull(parts ...string) func(string) error {
	return func(path string) error {
		if len(parts) == 0 {
			return syscall.ENOSPC
		}
		for _, p := range parts {
			if strings.Contains(filepath.Base(path), p) {
				return syscall.ENOSPC
			}
		}
		return nil
	}
}

// stateFiles returns the state file and the journal as they are on disk.
func stateFiles(t *testing.T, path string) (snapshot, journal []byte) {
	t.Helper()
	snapshot, _ = os.ReadFile(path)
	journal, _ = os.ReadFile(path + ".journal")
	return snapshot, journal
}

const pipBody = `{"location":"` + testLocation + `","sku":{"name":"Standard"},"properties":{"publicIPAllocationMethod":"Static"}}`

func putPIPRaw(t *testing.T, e *Emulator, name string) int {
	t.Helper()
	return do(t, e, "PUT", id("publicIPAddresses", name)+apiVersion, pipBody).Code
}

// Issue 21 item 12: on a full disk, a read-only session reads a state whose
// journal was never folded, and closes without error, leaving both files
// as they were; before, Close folded the journal and failed (a read-only
// plan exited 1).
func TestDiskFullReadsWithoutFolding(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := openWithGroup(t, path)
	if code := putPIPRaw(t, e, "journaled"); code != http.StatusCreated {
		t.Fatalf("PUT: %d", code)
	}
	abandon(e) // the journal stays, unfolded, as after a fold that failed
	snapBefore, journalBefore := stateFiles(t, path)
	if len(journalBefore) == 0 {
		t.Fatal("no journal to read")
	}

	e, err := Open(Options{StatePath: path, WriteFault: diskFull()})
	if err != nil {
		t.Fatalf("open on a full disk: %v", err)
	}
	if w := do(t, e, "GET", id("publicIPAddresses", "journaled")+apiVersion, ""); w.Code != http.StatusOK {
		t.Fatalf("GET of the journaled write: %d", w.Code)
	}
	if err := e.Close(); err != nil {
		t.Fatalf("close after reads on a full disk: %v", err)
	}
	snapAfter, journalAfter := stateFiles(t, path)
	if !bytes.Equal(snapBefore, snapAfter) || !bytes.Equal(journalBefore, journalAfter) {
		t.Fatal("a session that only read changed the state files")
	}
}

// A session whose writes were journaled but whose fold at Close fails
// reports no error (every acknowledged write is in the journal) and the
// next session finds them all.
func TestDiskFullFoldFailsJournalKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := openWithGroup(t, path)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := Open(Options{StatePath: path, WriteFault: diskFull(".tmp")}) // room for journal lines, not a snapshot
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "b"} {
		if code := putPIPRaw(t, e, name); code != http.StatusCreated {
			t.Fatalf("PUT %s: %d", name, code)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatalf("close whose fold failed: %v", err)
	}
	if _, journal := stateFiles(t, path); len(journal) == 0 {
		t.Fatal("the journal holding the writes is gone")
	}
	e, err = Open(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, name := range []string{"a", "b"} {
		if w := do(t, e, "GET", id("publicIPAddresses", name)+apiVersion, ""); w.Code != http.StatusOK {
			t.Errorf("GET %s after reopening: %d", name, w.Code)
		}
	}
}

// A write that cannot be journaled fails its request with ARM's
// InternalServerError and is undone, and so is a seed or a baseline that
// cannot be saved: the emulator never holds what its files do not.
func TestDiskFullWriteFailsAndIsUndone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	e := openWithGroup(t, path)
	defer e.Close()
	e.opts.WriteFault = diskFull()
	w := do(t, e, "PUT", id("publicIPAddresses", "lost")+apiVersion, pipBody)
	if w.Code != http.StatusInternalServerError || errorCode(t, w) != "InternalServerError" {
		t.Fatalf("PUT on a full disk: %d %s", w.Code, w.Body.String())
	}
	if code := do(t, e, "GET", id("publicIPAddresses", "lost")+apiVersion, "").Code; code != http.StatusNotFound {
		t.Fatalf("GET of the failed write: %d, want 404", code)
	}
	seed := `{"id":"` + id("publicIPAddresses", "seeded") + `","location":"eastus"}`
	if err := e.Seed([]byte(seed)); err == nil {
		t.Fatal("a seed that could not be saved succeeded")
	}
	if err := e.EnsureBaseline(testSub, "rg-new", testLocation, "", "", nil, ""); err == nil {
		t.Fatal("a baseline that could not be saved succeeded")
	}
	for _, p := range []string{id("publicIPAddresses", "seeded"), "/subscriptions/" + testSub + "/resourceGroups/rg-new"} {
		if code := do(t, e, "GET", p+versionOf(p), "").Code; code != http.StatusNotFound {
			t.Errorf("GET %s after its save failed: %d, want 404", p, code)
		}
	}
	e.opts.WriteFault = nil
	if code := putPIPRaw(t, e, "later"); code != http.StatusCreated {
		t.Fatalf("PUT once there is room again: %d", code)
	}
}
