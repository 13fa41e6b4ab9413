package yamlfast

import (
	"math/rand/v2"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPlainTag: plainTag agrees with yaml.v3's resolver on every string of
// up to three characters from those that matter to it, on random longer
// ones (most starting like a date or a number with a base prefix), and on
// numbers, timestamps and special words.
func TestPlainTag(t *testing.T) {
	const alphabet = "0123456789+-._eExXoObBpP:tTZ yYnNfF~<a/,iI"
	values := []string{
		"true", "True", "TRUE", "tRue", "false", "False", "null", "Null", "NULL", "nulls", "yes", "no", "on", "off",
		"<<", "<<<", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "1_000", "0x_1F", "0b1010", "-0b1010", "0o777",
		"-0o17", "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
		"123456789012345678", "1234567890123456789", "1e3", "1E-3", "-1.5e+10", "2024-01-02", "2024-1-2T3:4:5Z",
		"2024-01-02t03:04:05.5+01:00", "2024-01-02 03:04:05", "2024-13-45", "0001-01-01", "10.0.0.0/8",
		"00000000-0000-4000-8000-000000000001", "12:30:00", "1_2_3", "0.", "+", "-", ".", "08", "012", "0",
		"0123-01-01", "1234-5", "1234-", "12345-1", "1-2", "-1-2", "1e-2", "1E-2", "1.5e-3", "-1e-3", "0x-1", "1a-2",
		"2024-01-02T03:04:05-07:00", "2024-01-02 03:04:05,5", "3fa85f64-5717-4562-b3fc-2c963f66afa6", "-0b-1",
		"0b-0", "0o-7", "0b+1", "0o+7", "0_b-1", "0b-1_0", "-0o-1", "0B-1", "0x-1", "1_0-1", "2024_-01-02",
	}
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			values = append(values, prefix+string(c))
			gen(prefix+string(c), depth-1)
		}
	}
	gen("", 3)
	prefixes := []string{"", "", "2024-", "0b", "0o", "-0b", "0x", "1e", "+"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		b := make([]byte, 4+rng.IntN(9))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		copy(b, prefixes[rng.IntN(len(prefixes))])
		values = append(values, string(b))
	}
	for _, v := range values {
		n := yaml.Node{Kind: yaml.ScalarNode, Value: v}
		if want, got := n.ShortTag(), plainTag(v); got != want {
			t.Errorf("plainTag(%q) = %s, yaml.v3 resolves %s", v, got, want)
		}
	}
	if len(values) < 160000 {
		t.Fatalf("only %d values", len(values))
	}
}
