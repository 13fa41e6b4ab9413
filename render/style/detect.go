package style

// Env looks up an environment variable; os.LookupEnv fits.
type Env func(key string) (string, bool)

// Detect decides whether to colour a stream, following the conventions gh
// documents (ux-anchors §7) plus FORCE_COLOR and TERM=dumb:
//
//  1. the --no-color flag always wins;
//  2. NO_COLOR set and non-empty disables colour (no-color.org);
//  3. CLICOLOR_FORCE or FORCE_COLOR set to anything but "" or "0" (or
//     "false" for FORCE_COLOR) enables it, even when piped;
//  4. CLICOLOR=0 or TERM=dumb disables it;
//  5. otherwise colour follows whether the stream is a terminal.
func Detect(env Env, isTTY, noColorFlag bool) bool {
	get := func(key string) string {
		if env == nil {
			return ""
		}
		v, _ := env(key)
		return v
	}
	switch {
	case noColorFlag:
		return false
	case get("NO_COLOR") != "":
		return false
	case truthy(get("CLICOLOR_FORCE")) || truthy(get("FORCE_COLOR")):
		return true
	case get("CLICOLOR") == "0", get("TERM") == "dumb":
		return false
	}
	return isTTY
}

func truthy(v string) bool {
	return v != "" && v != "0" && v != "false"
}
