package apply

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrNoTTY refuses an unconfirmed apply that cannot prompt (ux-anchors §1.6,
// §8.6: fail, never hang, never silently approve).
var ErrNoTTY = errors.New("no TTY and no --auto-approve: refusing to apply")

// Decision is the answer to "Do you want to perform these actions?".
type Decision int

const (
	Abort Decision = iota
	Proceed
)

// ConfirmOptions describe the prompt's situation.
type ConfirmOptions struct {
	TTY         bool // stdin and stderr are terminals
	AutoApprove bool
	// Expect is the answer that approves: "yes" by default; the cluster name
	// when the plan has disruptive changes (ux-anchors §8.6).
	Expect string
}

// Confirm decides whether to apply. With AutoApprove it proceeds without
// reading; without a TTY it returns ErrNoTTY without reading; otherwise it
// reads one line from in and proceeds only on the exact expected answer.
// The caller prints the question before calling.
func Confirm(in io.Reader, o ConfirmOptions) (Decision, error) {
	if o.AutoApprove {
		return Proceed, nil
	}
	if !o.TTY {
		return Abort, ErrNoTTY
	}
	expect := o.Expect
	if expect == "" {
		expect = "yes"
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return Abort, fmt.Errorf("read confirmation: %w", err)
	}
	if strings.TrimSpace(line) == expect {
		return Proceed, nil
	}
	return Abort, nil
}
