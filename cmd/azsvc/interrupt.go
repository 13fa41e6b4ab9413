package main

import (
	"context"

	"github.com/azsvc/azsvc/cmd/azsvc/internal/engine"
	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/planfile"
)

// interruptible runs read, which may block on a file that never ends or a
// FIFO nobody writes, and gives up when ctx is done (Ctrl-C): the command
// then exits 130 instead of waiting for a kill.
func interruptible[T any](ctx context.Context, read func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := read()
		done <- result{v, err}
	}()
	select {
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	case r := <-done:
		return r.v, r.err
	}
}

// loadSaved reads a saved plan (engine.LoadSaved), giving up on Ctrl-C:
// the path may be a FIFO nobody writes.
func loadSaved(ctx context.Context, path string) (*planfile.Plan, *plan.Plan, error) {
	type saved struct {
		file *planfile.Plan
		plan *plan.Plan
	}
	s, err := interruptible(ctx, func() (saved, error) {
		file, p, err := engine.LoadSaved(path)
		return saved{file, p}, err
	})
	return s.file, s.plan, err
}
