//go:build race

package emulator

// raceEnabled skips wall-clock budgets: the race detector slows code ~10x.
const raceEnabled = true
