package planview

// count writes n with its noun in the right number: "1 attribute",
// "2 attributes", "1,200 attributes".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}

// plural is the noun for n things, without the number.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
