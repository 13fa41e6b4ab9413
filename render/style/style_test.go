package style

import "testing"

func TestDetect(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		tty     bool
		noColor bool
		want    bool
	}{
		{name: "tty", tty: true, want: true},
		{name: "pipe", tty: false, want: false},
		{name: "flag beats tty", tty: true, noColor: true, want: false},
		{name: "flag beats force", env: map[string]string{"CLICOLOR_FORCE": "1"}, noColor: true, want: false},
		{name: "NO_COLOR", env: map[string]string{"NO_COLOR": "1"}, tty: true, want: false},
		{name: "empty NO_COLOR ignored", env: map[string]string{"NO_COLOR": ""}, tty: true, want: true},
		{name: "NO_COLOR beats force", env: map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1"}, want: false},
		{name: "CLICOLOR_FORCE on pipe", env: map[string]string{"CLICOLOR_FORCE": "1"}, want: true},
		{name: "CLICOLOR_FORCE=0", env: map[string]string{"CLICOLOR_FORCE": "0"}, want: false},
		{name: "FORCE_COLOR on pipe", env: map[string]string{"FORCE_COLOR": "true"}, want: true},
		{name: "FORCE_COLOR=false", env: map[string]string{"FORCE_COLOR": "false"}, tty: true, want: true},
		{name: "CLICOLOR=0", env: map[string]string{"CLICOLOR": "0"}, tty: true, want: false},
		{name: "TERM=dumb", env: map[string]string{"TERM": "dumb"}, tty: true, want: false},
		{name: "force beats CLICOLOR=0", env: map[string]string{"CLICOLOR": "0", "CLICOLOR_FORCE": "1"}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			if got := Detect(env, tt.tty, tt.noColor); got != tt.want {
				t.Errorf("Detect() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStyle(t *testing.T) {
	if got := New(false).BoldRed("x"); got != "x" {
		t.Errorf("disabled BoldRed = %q, want plain", got)
	}
	if got := New(true).BoldRed("x"); got != "\x1b[1;31mx\x1b[0m" {
		t.Errorf("enabled BoldRed = %q", got)
	}
	if got := New(true).Red(""); got != "" {
		t.Errorf("empty text must stay empty, got %q", got)
	}
	var zero Style
	if zero.Enabled() || zero.Cyan("h") != "h" {
		t.Error("zero Style must be disabled")
	}
}
