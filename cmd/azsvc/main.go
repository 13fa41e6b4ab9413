// Command azsvc plans and applies the Azure networking behind Kubernetes
// Services of type LoadBalancer. main only wires the process to run: it is
// the one place that calls os.Exit.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Set at link time: go build -ldflags "-X main.version=v1.2.3 -X main.commit=abc123 -X main.date=2026-01-02T15:04:05Z".
// They are only read, in newBuildInfo; the linker is the only writer.
var (
	version string
	commit  string
	date    string
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal cancels ctx so commands can stop cleanly; restoring
	// the default handler then lets a second Ctrl-C kill the process.
	go func() {
		<-ctx.Done()
		stop()
	}()
	dir, _ := os.Getwd()
	a := &app{io: systemStreams(), build: newBuildInfo(version, commit, date, readBuildInfo()), dir: dir}
	code := run(ctx, a, os.Args[1:])
	stop()
	os.Exit(code)
}
