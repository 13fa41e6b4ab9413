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

// savedExamplePlan saves a plan of examples/public-basic to path and
// returns the file's bytes.
func savedExamplePlan(t *testing.T, c *cli, path string) []byte {
	t.Helper()
	if res := c.run(exampleArgs(c, "public-basic", "plan", "--out", path)...); res.code != exitOK {
		t.Fatalf("plan --out: exit %d\n%s", res.code, res.stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
