package azure

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestCredentialErrorIsOneLine(t *testing.T) {
	cause := errors.New("DefaultAzureCredential: failed to acquire a token.\nAttempted credentials:\n\tEnvironmentCredential: missing environment variable")
	err := error(&credentialError{err: cause})
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, credentialHint) || !strings.Contains(msg, "failed to acquire a token") {
		t.Errorf("message %q: want the hint and the cause's first line on one line", msg)
	}
	if !errors.Is(err, cause) {
		t.Error("the SDK's full explanation is not reachable with errors.Is")
	}
}

func TestNewAzureNeedsSubscription(t *testing.T) {
	if _, err := NewAzure(context.Background(), ""); err == nil {
		t.Error("NewAzure accepted an empty subscription")
	}
}
