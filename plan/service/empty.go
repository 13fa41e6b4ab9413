package service

import "fmt"

// NothingChecked is validate's warning for input that holds no Service of
// type LoadBalancer and no PrivateEndpoint: "0 Services checked" with exit
// 0 reads as a pass, while an empty file, a wrong path or a chart that
// rendered nothing checked nothing at all. It points at the first file
// read, if any; nil when there was something to check, or when the input
// has errors already (malformed YAML says why better).
func (in *Input) NothingChecked() []Diagnostic {
	if len(in.Services) > 0 || len(in.Endpoints) > 0 || HasErrors(in.Diagnostics) {
		return nil
	}
	var pos Position
	if len(in.Files) > 0 {
		pos.File = in.Files[0]
	}
	hint := "give the manifests of Services with spec.type LoadBalancer (a directory is read for *.yaml, *.yml and *.json files)"
	if skipped := in.skippedCount(); skipped > 0 {
		hint = fmt.Sprintf("%d %s read and skipped (the summary says why): only Services with spec.type LoadBalancer "+
			"and PrivateEndpoint objects are checked", skipped, plural(skipped, "document was", "documents were"))
	}
	return []Diagnostic{{
		Code:     CodeNothingChecked,
		Severity: SeverityWarning,
		Pos:      pos,
		Message:  "no Service of type LoadBalancer in the input: nothing was checked",
		Hint:     hint,
	}}
}

func (in *Input) skippedCount() int {
	n := 0
	for _, c := range in.Skipped {
		n += c
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
