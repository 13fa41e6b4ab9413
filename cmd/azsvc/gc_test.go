package main

import (
	"runtime/debug"
	"testing"
)

func TestRaiseGCTarget(t *testing.T) {
	const before = 100
	defer debug.SetGCPercent(debug.SetGCPercent(before))
	tests := []struct {
		env  map[string]string
		want int
	}{
		{map[string]string{}, inputGCPercent},
		{map[string]string{"GOGC": "50"}, before}, // the user's choice, already in force
	}
	for _, tt := range tests {
		debug.SetGCPercent(before)
		raiseGCTarget(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }, inputGCPercent)
		if got := debug.SetGCPercent(before); got != tt.want {
			t.Errorf("env %v: GC percent %d, want %d", tt.env, got, tt.want)
		}
	}
}
