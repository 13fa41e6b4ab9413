package plan

import "fmt"

// The typed codes of the core (Reason, BlockCode, UnmanagedCode, RefusalCode) are small
// integers with stable snake_case names: these two functions give each its
// String, MarshalText and UnmarshalText.

func codeName[T ~uint8](names []string, v T, what string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", what, v)
}

func parseCode[T ~uint8](names []string, b []byte, what string) (T, error) {
	for i, n := range names {
		if n == string(b) {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q", what, b)
}
