package desired

import (
	"strings"

	"github.com/azsvc/azsvc/plan/service"
)

// annList splits an annotation on sep, trims and drops empty items (the
// comma lists of §1.3 and the space lists of the PLS annotations).
func annList(s *service.Service, key, sep string) []string {
	raw, ok := s.Annotations[key]
	if !ok {
		return nil
	}
	var out []string
	for _, item := range strings.Split(strings.TrimSpace(raw), sep) {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
