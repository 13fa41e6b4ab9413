package apply

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// failingReader fails every read: Confirm must not read in the cases that
// need no answer (a read would hang on a real terminal or pipe).
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("read must not happen") }

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }

func TestConfirm(t *testing.T) {
	tests := []struct {
		name    string
		in      io.Reader
		opts    ConfirmOptions
		want    Decision
		wantErr error
	}{
		{"auto-approve skips the prompt", failingReader{}, ConfirmOptions{AutoApprove: true}, Proceed, nil},
		{"auto-approve without a TTY", failingReader{}, ConfirmOptions{AutoApprove: true, TTY: false}, Proceed, nil},
		{"no TTY refuses without reading", failingReader{}, ConfirmOptions{}, Abort, ErrNoTTY},
		{"yes", strings.NewReader("yes\n"), ConfirmOptions{TTY: true}, Proceed, nil},
		{"yes with spaces, no newline", strings.NewReader("  yes "), ConfirmOptions{TTY: true}, Proceed, nil},
		{"y is not yes", strings.NewReader("y\n"), ConfirmOptions{TTY: true}, Abort, nil},
		{"YES is not yes", strings.NewReader("YES\n"), ConfirmOptions{TTY: true}, Abort, nil},
		{"empty input (EOF)", strings.NewReader(""), ConfirmOptions{TTY: true}, Abort, nil},
		{"only the first line counts", strings.NewReader("no\nyes\n"), ConfirmOptions{TTY: true}, Abort, nil},
		{"disruptive: cluster name", strings.NewReader("prod-weu\n"), ConfirmOptions{TTY: true, Expect: "prod-weu"}, Proceed, nil},
		{"disruptive: yes is not enough", strings.NewReader("yes\n"), ConfirmOptions{TTY: true, Expect: "prod-weu"}, Abort, nil},
		{"read error", errReader{}, ConfirmOptions{TTY: true}, Abort, io.ErrClosedPipe},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Confirm(tt.in, tt.opts)
			if got != tt.want || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("Confirm = %v, %v; want %v, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
