package statusview

import "regexp"

// ansi matches the colour sequences style emits.
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)
