package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"strconv"

	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

// The journal, STATE.journal, is a text file of lines, each the CRC-32C of
// its JSON (8 hex digits), a space, the JSON and a newline. The first line
// names the snapshot the journal extends; every other line is the record of
// one write request, the resources it put (GET-shaped bodies) and the keys
// (lower-cased IDs) it removed:
//
//	1f0c3a9e {"journal":1,"base":"crc32c:5d1e08a2:6198"}
//	8a7b6c5d {"delete":[],"put":[{"id":"/subscriptions/…","etag":"W/\"…\"",…}]}
const journalVersion = 1

type journalHeader struct {
	Journal int    `json:"journal"`
	Base    string `json:"base"`
}

// hookPoint names a point of persistence at which the kill tests stop the
// process.
type hookPoint int

const (
	hookBeforeRename hookPoint = iota + 1 // compaction: new snapshot synced, not yet renamed
	hookAfterRename                       // compaction: renamed, journal not yet removed
)

// persistHooks let the kill tests die at exact points; nil in normal use.
type persistHooks struct {
	// write replaces the append of one journal line: a test writes part of
	// it and kills the process.
	write func(f *os.File, line []byte) (int, error)
	point func(hookPoint)
}

func (h *persistHooks) at(p hookPoint) {
	if h != nil && h.point != nil {
		h.point(p)
	}
}

// writeFile writes b to f, unless Options.WriteFault fails the write.
func (e *Emulator) writeFile(f *os.File, b []byte) (int, error) {
	if e.opts.WriteFault != nil {
		if err := e.opts.WriteFault(f.Name()); err != nil {
			return 0, &fs.PathError{Op: "write", Path: f.Name(), Err: err}
		}
	}
	return f.Write(b)
}

func journalLine(buf, record []byte) []byte {
	buf = fmt.Appendf(buf, "%08x ", crc32.Checksum(record, castagnoli))
	buf = append(buf, record...)
	return append(buf, '\n')
}

// appendRecord writes the record of the changed keys as one line.
func (e *Emulator) appendRecord(keys []string) error {
	if err := e.ensureJournal(); err != nil {
		return err
	}
	rec := []byte(`{"delete":[`)
	n := 0
	for _, k := range keys {
		if e.store.get(k) == nil {
			if n > 0 {
				rec = append(rec, ',')
			}
			rec = armjson.AppendString(rec, k)
			n++
		}
	}
	rec = append(rec, `],"put":[`...)
	n = 0
	for _, k := range keys {
		if en := e.store.get(k); en != nil {
			if n > 0 {
				rec = append(rec, ',')
			}
			rec = append(rec, en.raw...)
			n++
		}
	}
	rec = append(rec, "]}"...)
	line := journalLine(make([]byte, 0, len(rec)+10), rec)
	write := e.writeFile
	if e.hooks != nil && e.hooks.write != nil {
		write = e.hooks.write
	}
	written, err := write(e.journal, line)
	if err == nil {
		e.journalSize += int64(written)
		return nil
	}
	// A failed append (ENOSPC, EIO) may leave part of the line: cut it off,
	// or the next record would follow a torn line and the journal would
	// load as corrupt.
	if written > 0 {
		if terr := e.journal.Truncate(e.journalSize); terr != nil {
			e.broken = fmt.Errorf("emulator journal ends in a torn record that could not be cut off: %w", terr)
			return errors.Join(err, e.broken)
		}
	}
	return err
}

// ensureJournal opens the journal for the first append of this emulator:
// the one load found, cut to its whole lines (a torn last line is a write
// never acknowledged), or else a new one.
func (e *Emulator) ensureJournal() error {
	if e.journal != nil {
		return nil
	}
	if !e.journalFound {
		return e.openJournal()
	}
	f, err := os.OpenFile(e.journalPath(), os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open emulator journal: %w", err)
	}
	if fi, err := f.Stat(); err != nil || fi.Size() > e.journalSize {
		if err := f.Truncate(e.journalSize); err != nil {
			f.Close()
			return fmt.Errorf("cut the torn end of emulator journal %s: %w", e.journalPath(), err)
		}
	}
	e.journal = f
	return nil
}

// openJournal starts a journal extending the current snapshot. A kill
// before its header is whole leaves a journal load ignores: it holds no
// record yet.
func (e *Emulator) openJournal() error {
	f, err := os.OpenFile(e.journalPath(), os.O_CREATE|os.O_TRUNC|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open emulator journal: %w", err)
	}
	header := fmt.Appendf(nil, `{"base":%s,"journal":%d}`, strconv.Quote(e.base), journalVersion)
	line := journalLine(nil, header)
	if _, err := e.writeFile(f, line); err != nil {
		f.Close()
		return fmt.Errorf("write emulator journal: %w", err)
	}
	e.journal, e.journalSize = f, int64(len(line))
	return nil
}

func (e *Emulator) closeJournal() error {
	if e.journal == nil {
		return nil
	}
	err := e.journal.Close()
	e.journal = nil
	if err != nil {
		return fmt.Errorf("close emulator journal: %w", err)
	}
	return nil
}

// replayJournal applies the journal when it extends the loaded snapshot. A
// torn last line (a write that was never acknowledged) is ignored, and cut
// off before the next append; a bad line followed by good ones is
// corruption, reported with the files left untouched. A journal of another
// snapshot is stale and removed.
func (e *Emulator) replayJournal() error {
	path := e.journalPath()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read emulator journal %s: %w", path, err)
	}
	lines := splitLines(data)
	if len(lines) == 0 || !e.journalExtendsSnapshot(lines[0]) {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("remove stale emulator journal %s: %w", path, err)
		}
		return nil
	}
	good := lines[0].end
	for i, l := range lines[1:] {
		rec, ok := l.record()
		if !ok {
			if i+2 < len(lines) {
				return fmt.Errorf("emulator journal %s is corrupt at byte %d (left untouched)", path, l.start)
			}
			break
		}
		if err := e.replay(rec); err != nil {
			return fmt.Errorf("emulator journal %s at byte %d: %w (left untouched)", path, l.start, err)
		}
		good = l.end
	}
	e.journalFound, e.journalSize = true, int64(good)
	return nil
}

func (e *Emulator) journalExtendsSnapshot(first journalLineAt) bool {
	rec, ok := first.record()
	if !ok {
		return false
	}
	var h journalHeader
	return json.Unmarshal(rec, &h) == nil && h.Journal == journalVersion && h.Base == e.base
}

// replay applies one record: removals first (appendRecord writes them
// first; a request never both puts and removes one key), then puts.
func (e *Emulator) replay(rec []byte) error {
	i := 0
	_, err := armjson.Walk(rec, "put", false, func(v any, raw []byte) error {
		body, ok := v.(obj)
		if !ok {
			return fmt.Errorf("put[%d] is not a JSON object", i)
		}
		if err := e.seedOne(body, raw); err != nil {
			return fmt.Errorf("put[%d]: %w", i, err)
		}
		i++
		return nil
	}, func(key string, v any) error {
		keys, _ := v.([]any)
		for _, k := range keys {
			if k, ok := k.(string); ok && key == "delete" {
				e.store.remove(k)
			}
		}
		return nil
	})
	return err
}

// journalLineAt is one line of the journal: data[start:end] including its
// newline, or up to the end of the file for a torn last line.
type journalLineAt struct {
	data       []byte
	start, end int
}

func splitLines(data []byte) []journalLineAt {
	var out []journalLineAt
	for start := 0; start < len(data); {
		end := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		out = append(out, journalLineAt{data: data, start: start, end: end})
		start = end
	}
	return out
}

// record returns the line's JSON when the line is whole and its checksum
// matches.
func (l journalLineAt) record() ([]byte, bool) {
	line := l.data[l.start:l.end]
	if len(line) < 10 || line[len(line)-1] != '\n' || line[8] != ' ' {
		return nil, false
	}
	sum, err := strconv.ParseUint(string(line[:8]), 16, 32)
	rec := line[9 : len(line)-1]
	if err != nil || uint32(sum) != crc32.Checksum(rec, castagnoli) {
		return nil, false
	}
	return rec, true
}
