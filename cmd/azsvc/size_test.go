package main

import (
	"strings"
	"testing"
	"time"

	"github.com/azsvc/azsvc/plan/service"
)

func TestParseSize(t *testing.T) {
	good := map[string]int64{
		"1": 1, "64Mi": 64 << 20, "64MiB": 64 << 20, "64mi": 64 << 20, "200M": 200e6, "200MB": 200e6,
		"1Gi": 1 << 30, "3k": 3000, "3Ki": 3072, " 10 ": 10, "512b": 512,
	}
	for in, want := range good {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "1.5Gi", "64Xi", "Mi", "99999999999Gi", "1e6"} {
		if n, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, n)
		}
	}
	for _, n := range []int64{1, 1000, 64 << 20, 3 << 30, 1<<20 + 1} {
		if got, err := parseSize(strings.TrimSuffix(service.FormatSize(n), " bytes")); err != nil || got != n {
			t.Errorf("round trip of %d: %d, %v", n, got, err)
		}
	}
}

// TestMaxInputSize: every -f command refuses an input over the limit with
// a finding naming the file, quickly, also for an endless device; the
// limit comes from the flag or from the environment.
func TestMaxInputSize(t *testing.T) {
	c := newCLI(t)
	start := time.Now()
	got := c.run("validate", "-f", "/dev/zero")
	if got.code != exitInvalid || !strings.Contains(got.stdout, "/dev/zero: error[AZSVC0007]: /dev/zero is larger than the input size limit of 64Mi: not read") {
		t.Errorf("validate -f /dev/zero: %s", transcript(got))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("validate -f /dev/zero took %v", d)
	}

	manifest := "apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec: {type: LoadBalancer, ports: [{port: 80}]}\n"
	c.stdin = manifest
	if got := c.run("validate", "-f", "-", "--max-input-size", "20"); got.code != exitInvalid || !strings.Contains(got.stdout, "<stdin> is larger than the input size limit of 20 bytes") {
		t.Errorf("--max-input-size 20: %s", transcript(got))
	}
	t.Setenv("AZSVC_MAX_INPUT_SIZE", "1Ki")
	if got := c.run("validate", "-f", "-"); got.code != exitOK {
		t.Errorf("AZSVC_MAX_INPUT_SIZE=1Ki: %s", transcript(got))
	}
	if got := c.run("render", "-f", "-", "--config", "x.json", "--max-input-size", "lots"); got.code != exitUsage || !strings.Contains(got.stderr, "max-input-size") {
		t.Errorf("bad size: %s", transcript(got))
	}
	writeFile(t, c.dir+"/azure.json", `{"resourceGroup": "rg", "location": "eastus", "securityGroupName": "nsg", "vnetName": "v", "subnetName": "s"}`)
	t.Setenv("AZSVC_MAX_INPUT_SIZE", "30")
	for _, args := range [][]string{{"render"}, {"plan", "--state", c.dir + "/state.json"}} {
		got := c.run(append(args, "-f", "-", "--config", c.dir+"/azure.json")...)
		if got.code != exitInvalid || !strings.Contains(got.stderr+got.stdout, "<stdin> is larger than the input size limit of 30 bytes") {
			t.Errorf("%s: %s", args[0], transcript(got))
		}
	}
}

// FuzzParseSize: any text is a positive size within bounds or an error.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"64Mi", "1", "9223372036854775807", "1Gib", "-5k", " 3 KB "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err == nil && (n <= 0 || n > maxSize) {
			t.Fatalf("parseSize(%q) = %d", s, n)
		}
	})
}
