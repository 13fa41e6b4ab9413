package emulator

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

// The state is a snapshot, STATE ({"version":1,"resources":[…]}: every
// resource in GET shape, one per line, the shape users seed from `az …
// show -o json`), plus a journal, STATE.journal, of the writes made since
// the snapshot (journal.go). A write appends one journal record before its
// response is sent; the snapshot is rewritten only when the journal grows
// past a threshold and on Close, so an apply costs O(1) per write instead of
// a rewrite of the whole state (issue 15).
//
// Crash safety (a kill at any point leaves a loadable state holding every
// acknowledged write): the snapshot is only ever replaced by rename; a
// journal record is one write(2) of a checksummed line, and a torn last line
// is a write that was never acknowledged, dropped on load; the journal names
// the snapshot it extends (a checksum of its bytes), so a journal left
// behind by a compaction that died after its rename, or a snapshot replaced
// by hand, is recognised and ignored. Like the per-write rewrite before it,
// appends are not fsynced (the kernel keeps them through a process kill);
// compaction and Close sync.
const stateVersion = 1

// compactAt is the smallest journal that is folded into the snapshot before
// Close (Emulator.compactMin, smaller in the kill tests); past it, the journal is compacted once it outgrows compactRatio
// times the snapshot, which keeps the cost of compaction O(1) per write
// amortised.
const (
	compactAt    = 8 << 20
	compactRatio = 2
)

func (e *Emulator) journalPath() string { return e.opts.StatePath + ".journal" }

// load reads the snapshot, then replays the journal that extends it.
func (e *Emulator) load() error {
	path := e.opts.StatePath
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return fmt.Errorf("read emulator state %s: %w", path, err)
	}
	if data != nil && !e.loadSnapshot(data) {
		e.store = newStore()
		bodies, err := splitBodies(data)
		if err != nil {
			return fmt.Errorf("emulator state %s is corrupt (left untouched): %w", path, err)
		}
		for i, b := range bodies {
			if err := e.seedOne(b, nil); err != nil {
				return fmt.Errorf("emulator state %s: resource %d: %w (file left untouched)", path, i, err)
			}
		}
	}
	e.base = snapshotID(data)
	e.snapshotSize = int64(len(data))
	if err := e.replayJournal(); err != nil {
		return err
	}
	e.store.takeChanged()
	e.store.track = true
	return nil
}

// loadSnapshot loads a state file written by compact, {"resources":[…]},
// one resource at a time, keeping each resource's JSON as read. It returns
// false for anything else (the other shapes seeds come in, or an error),
// which load then reads the general way, from an empty store, for the
// general error messages.
func (e *Emulator) loadSnapshot(data []byte) bool {
	isBody := false
	found, err := armjson.Walk(data, "resources", false, func(v any, raw []byte) error {
		b, ok := v.(obj)
		if !ok {
			return errors.New("not a JSON object")
		}
		return e.seedOne(b, raw)
	}, func(key string, _ any) error {
		isBody = isBody || key == "id"
		return nil
	})
	return err == nil && found && !isBody
}

// snapshotID names a snapshot's exact bytes; a journal records the one it
// extends.
func snapshotID(data []byte) string {
	if data == nil {
		return "none"
	}
	return fmt.Sprintf("crc32c:%08x:%d", crc32.Checksum(data, castagnoli), len(data))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// splitBodies accepts a state file, a JSON array of bodies, an ARM list
// ({"value":[…]}) or a single body, the shapes `az … show/list -o json` print.
func splitBodies(data []byte) ([]obj, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty JSON document")
	}
	v, err := armjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	switch t := v.(type) {
	case []any:
		return objects("array", t)
	case obj:
		for _, field := range []string{"resources", "value"} {
			if v, ok := t[field]; ok && getStr(t, "id") == "" {
				items, isList := v.([]any)
				if !isList {
					return nil, fmt.Errorf("%q is not a JSON array", field)
				}
				return objects(field, items)
			}
		}
		return []obj{t}, nil
	}
	return nil, errors.New("JSON document is not an object or an array")
}

func objects(field string, items []any) ([]obj, error) {
	out := make([]obj, 0, len(items))
	for i, it := range items {
		o, ok := it.(obj)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is not a JSON object", field, i)
		}
		out = append(out, o)
	}
	return out, nil
}

// saveLocked persists what changed since the last call: one journal record,
// and a compaction when the journal has grown past its threshold. When the
// record cannot be written the change is undone, so the emulator holds what
// its files hold and what the client of the failed request is told:
// nothing changed. A failed compaction is no error: the record is in the
// journal, and Close compacts again.
func (e *Emulator) saveLocked() error {
	if e.opts.StatePath == "" || len(e.store.changed) == 0 {
		e.store.takeChanged()
		return nil
	}
	err := e.broken
	if err == nil {
		err = e.appendRecord(e.store.changed)
	}
	if err != nil {
		e.store.rollback()
		return fmt.Errorf("save emulator state %s: %w", e.opts.StatePath, err)
	}
	e.store.takeChanged()
	if e.journalSize > max(e.compactMin, compactRatio*e.snapshotSize) {
		_ = e.compact()
	}
	return nil
}

// persist saves the change the store just made; a change that cannot be
// saved is undone and fails the request (ARM's InternalServerError).
func (e *Emulator) persist() *armError {
	if err := e.saveLocked(); err != nil {
		return newErr(http.StatusInternalServerError, "InternalServerError", "%v", err)
	}
	return nil
}

// compact writes the whole state as a new snapshot and drops the journal.
// The snapshot goes to a temporary file in the same directory, synced, then
// renamed over the old one: a reader or a crash never sees half a file.
func (e *Emulator) compact() (err error) {
	path := e.opts.StatePath
	if path == "" {
		return nil
	}
	data := e.snapshot()
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("save emulator state %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	_, err = e.writeFile(tmp, data)
	err = errors.Join(err, tmp.Sync(), tmp.Close())
	if err == nil {
		e.hooks.at(hookBeforeRename)
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("save emulator state %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	e.hooks.at(hookAfterRename)
	e.base, e.snapshotSize = snapshotID(data), int64(len(data))
	// The journal now extends an older snapshot: were it left behind, load
	// would see its base differ and ignore it.
	e.journalFound, e.journalSize = false, 0
	if err := e.closeJournal(); err != nil {
		return err
	}
	if err := os.Remove(e.journalPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove emulator journal: %w", err)
	}
	return nil
}

// snapshot renders every resource, sorted by key (resource groups first,
// then by ID), one per line.
func (e *Emulator) snapshot() []byte {
	entries := e.store.all()
	size := 64
	for _, en := range entries {
		size += len(en.raw) + 2
	}
	buf := make([]byte, 0, size)
	buf = fmt.Appendf(buf, "{\"version\":%d,\"resources\":[", stateVersion)
	for i, en := range entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		buf = append(buf, en.raw...)
	}
	return append(buf, "\n]}\n"...)
}

// syncDir makes a rename durable; a failure only weakens power-loss safety.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
