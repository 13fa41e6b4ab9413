package yamlfast

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// plainTag is the tag yaml.v3 resolves a plain scalar to. The common cases
// are decided here as yaml.v3's resolve (resolve.go) decides them: by the
// first character (its resolveTable), the few special words (its
// resolveMap; YAML 1.1's yes, no, on and off are strings in yaml.v3) and
// decimal numbers. Anything else that may be a number, a timestamp or
// .inf goes to yaml.v3's own resolver (slow: it tries ParseInt, ParseUint,
// a regular expression and time.Parse in turn). TestPlainTag holds the two together.
func plainTag(value string) string {
	if value == "" {
		return "!!null"
	}
	switch value[0] {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~', '<':
		switch value {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool"
		case "~", "null", "Null", "NULL":
			return "!!null"
		case "<<":
			return "!!merge"
		}
		return "!!str"
	case '+', '-', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		if isSmallDecimal(value) {
			return "!!int"
		}
		if notNumeric(value) {
			return "!!str"
		}
		n := yaml.Node{Kind: yaml.ScalarNode, Value: value}
		return n.ShortTag()
	}
	return "!!str"
}

// isSmallDecimal reports digits without a leading zero (which would make
// an octal, or a float such as 08) that fit an int64.
func isSmallDecimal(s string) bool {
	return len(s) <= 18 && (s[0] != '0' || len(s) == 1) && isDigits(s)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numericChars are the characters of every number, timestamp, .inf and
// .nan yaml.v3 resolves: Go's ParseInt with base prefixes and hex digits,
// floats, time.Parse's layouts in yaml.v3's allowedTimestampFormats.
var numericChars = func() (set [256]bool) {
	for _, c := range []byte("0123456789abcdefABCDEFxXoO+-._:TtZ ,iInN") {
		set[c] = true
	}
	return set
}()

// notNumeric reports a string yaml.v3 can only resolve to a string: one
// with a character outside numericChars, or with a '-' that is not a sign
// (at the start, after an exponent's 'e', or after the 0b or 0o that
// yaml.v3 strips before parsing the rest) and not in a timestamp (which
// starts with four digits and a '-'): a Kubernetes UID, say. yaml.v3
// removes underscores before parsing a number; such strings are left to it.
func notNumeric(s string) bool {
	if strings.IndexByte(s, '_') >= 0 {
		return false
	}
	date := len(s) > 4 && s[4] == '-' && isDigits(s[:4])
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case !numericChars[c]:
			return true
		case c == '-' && i > 0 && !date && !signAt(s, i):
			return true
		}
	}
	return false
}

// signAt reports a '-' at byte i > 0 that may be a sign.
func signAt(s string, i int) bool {
	return s[i-1] == 'e' || s[i-1] == 'E' || i == 2 && (s[:2] == "0b" || s[:2] == "0o")
}
