package main

import (
	"encoding/json"
	"io"
	"time"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/render/applyview"
)

// Machine output on every exit path (issue 16): with -o json a script
// always gets JSON on stdout, even when the command fails before it has
// its document: then an error document, or for apply's JSON Lines a
// summary event, saying what went wrong and with which exit code.

// countingWriter tells whether anything reached stdout.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// errorKinds name the exit codes a failed command ends with.
var errorKinds = map[int]string{
	exitRuntime:     "runtime_error",
	exitInvalid:     "invalid_input",
	exitStale:       "stale_plan",
	exitPartial:     "partial_apply",
	exitUsage:       "usage_error",
	exitInterrupted: "interrupted",
}

// errorDocument is what a JSON document command (validate, render, plan,
// show, status, version) prints when it fails before printing its own.
type errorDocument struct {
	FormatVersion string      `json:"format_version"`
	Errored       bool        `json:"errored"`
	ExitCode      int         `json:"exit_code"`
	Error         errorDetail `json:"error"`
	Diagnostics   []any       `json:"diagnostics"`
}

type errorDetail struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// writeMachineError writes the error document or event for command, which
// failed with code and err, when its output format is JSON.
func writeMachineError(w io.Writer, command, format string, code int, err error) {
	if format != "json" || err == nil {
		return
	}
	detail := errorDetail{Kind: errorKinds[code], Message: quote.Lines(err.Error())}
	if detail.Kind == "" {
		detail.Kind = "error"
	}
	switch command {
	case "apply":
		applyview.WriteFailure(w, time.Now(), detail.Kind, code, detail.Message)
	case "validate", "render", "plan", "show", "status", "version":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(errorDocument{FormatVersion: "1.0", Errored: true, ExitCode: code, Error: detail, Diagnostics: []any{}})
	}
}
