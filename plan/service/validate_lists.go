package service

import (
	"strings"
	"unicode"
)

// listHint is the hint for a bad entry of a comma-separated list. An entry
// holding spaces is most often two entries separated the wrong way, so the
// hint rewrites it with commas; otherwise it shows one entry written well,
// an IPv6 one for an entry that looks like IPv6.
func listHint(item, example4, example6 string) string {
	if fields := strings.Fields(item); len(fields) > 1 {
		return "separate entries with commas: " + strings.Join(fields, ",")
	}
	if strings.Contains(item, ":") {
		return example6
	}
	return example4
}

// splitFields splits a list written with commas, spaces or both into its
// entries, for a hint that rewrites it as CCM reads it.
func splitFields(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}
