package cluster

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// secretKeys are the azure.json keys whose values are secrets: the fields
// of Auth of type Secret, by their JSON names.
func secretKeys() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeFor[Auth]()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == reflect.TypeFor[Secret]() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out[strings.ToLower(name)] = true
		}
	}
	return out
}

// Redacted returns azure.json without its secrets (compared by key,
// case-insensitively, as Parse reads them), re-encoded with sorted keys:
// what a saved plan records, and what a configuration given at apply must
// equal.
func Redacted(data []byte) ([]byte, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("read cluster configuration: %w", jsonError(data, err))
	}
	secret := secretKeys()
	for k := range raw {
		if secret[strings.ToLower(k)] {
			delete(raw, k)
		}
	}
	out, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode cluster configuration: %w", err)
	}
	return append(out, '\n'), nil
}
