package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// buildInfo says which azsvc this is.
type buildInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Date      string `json:"build_date,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
}

// newBuildInfo prefers values stamped with -ldflags (make build) and falls
// back to what the Go toolchain recorded in info (debug.ReadBuildInfo; nil
// when there is none): the module version for `go install ...@vX`, and for
// a plain `go build` in a git clone the commit, its time and whether the
// tree had local changes. Go records no VCS data with -buildvcs=false or
// in a git worktree (its .git is a file), so there only ldflags tell.
func newBuildInfo(version, commit, date string, info *debug.BuildInfo) buildInfo {
	b := buildInfo{
		Version:   version,
		Commit:    commit,
		Date:      date,
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	if info != nil {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && b.Commit == "":
				b.Commit = s.Value
			case s.Key == "vcs.time" && b.Date == "":
				b.Date = s.Value
			case s.Key == "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// readBuildInfo is debug.ReadBuildInfo as newBuildInfo takes it.
func readBuildInfo() *debug.BuildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return info
}

func (b buildInfo) String() string {
	s := "azsvc version " + b.Version
	if b.Commit != "" {
		commit := b.Commit
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if b.Modified {
			commit += "-dirty"
		}
		s += ", commit " + commit
	}
	if b.Date != "" {
		s += ", built " + b.Date
	}
	return s + ", " + b.GoVersion + " " + b.Platform
}

type versionOptions struct {
	IO     *IOStreams
	Build  buildInfo
	Output string
}

func newVersionCmd(a *app, runF func(context.Context, *versionOptions) error) *cobra.Command {
	opts := &versionOptions{IO: a.io, Build: a.build}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of azsvc",
		Long:  "Print the version, commit and build date of azsvc, and the Go version it was built with.",
		Example: `  azsvc version
  azsvc version -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runCommand(a, cmd, opts, &opts.Output, runF, runVersion)
		},
	}
}

func runVersion(_ context.Context, opts *versionOptions) error {
	if opts.Output == "json" {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(opts.Build)
	}
	_, err := fmt.Fprintln(opts.IO.Out, opts.Build)
	return err
}
