// Package cputime measures the CPU time a benchmark spends: on a loaded
// 2-core machine wall time overstates the work, and the project's targets
// (validate, plan core) are stated in CPU time.
package cputime

import (
	"syscall"
	"testing"
	"time"
)

// Now is the user and system CPU time this process has used.
func Now() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Report starts counting and returns the function that reports the CPU
// time per operation as cpu-ns/op: `defer cputime.Report(b)()` after the
// setup, where the timer is reset.
func Report(b *testing.B) func() {
	start := Now()
	return func() { b.ReportMetric(float64((Now()-start).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}
