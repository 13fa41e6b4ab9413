package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// exampleConfig writes examples/azure.json, changed by edit, to dir/name
// and returns its path.
func exampleConfig(t *testing.T, dir, name string, edit func(cfg map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/azure.json")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	edit(cfg)
	if data, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	writeFile(t, path, string(data))
	return path
}
