package emulator

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/azsvc/azsvc/providers/azure/internal/armjson"
)

// stateVersion is written as {"version":1,"resources":[…]}: every resource
// in GET shape, one per line.
const stateVersion = 1

func (e *Emulator) load() error {
	path := e.opts.StatePath
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read emulator state %s: %w", path, err)
	}
	bodies, err := splitBodies(data)
	if err != nil {
		return fmt.Errorf("emulator state %s is corrupt (left untouched): %w", path, err)
	}
	for i, b := range bodies {
		if err := e.seedOne(b); err != nil {
			return fmt.Errorf("emulator state %s: resource %d: %w (file left untouched)", path, i, err)
		}
	}
	return nil
}

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
			if _, ok := t[field]; ok && getStr(t, "id") == "" {
				return objects(field, getArr(t, field))
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

// saveLocked writes the state atomically: a temporary file in the same
// directory renamed over the state file, so a reader or a crash never sees
// half a file. The per-write save skips fsync (it would cost more than the
// write itself at 1,000 writes per apply); Save and Close sync.
func (e *Emulator) saveLocked() error { return e.saveState(false) }

func (e *Emulator) saveState(sync bool) (err error) {
	path := e.opts.StatePath
	if path == "" {
		return nil
	}
	entries := e.store.all()
	size := 64
	for _, en := range entries {
		size += len(en.raw) + 2
	}
	buf := e.saveBuf[:0]
	if cap(buf) < size {
		buf = make([]byte, 0, size+size/4)
	}
	buf = fmt.Appendf(buf, "{\"version\":%d,\"resources\":[", stateVersion)
	for i, en := range entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		buf = append(buf, en.raw...)
	}
	buf = append(buf, "\n]}\n"...)
	e.saveBuf = buf
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("save emulator state %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	_, err = tmp.Write(buf)
	err = errors.Join(err, syncFile(tmp, sync), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("save emulator state %s: %w", path, err)
	}
	return nil
}

func syncFile(f *os.File, sync bool) error {
	if !sync {
		return nil
	}
	return f.Sync()
}
