package azure

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/quote"
)

// checkSegment refuses a resource group or name that cannot be one path
// segment of exactly the intended URL. The SDK escapes every segment
// (url.PathEscape), so "/", "?" and "#" cannot split or end the path; but
// "." and ".." pass escaping unchanged, and a proxy or server that
// normalises paths would resolve them to another URL. azsvc validate
// refuses such values long before (AZSVC1030, AZSVC1031); this is the
// provider's own guarantee, checked before any request is sent.
func checkSegment(what, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("empty %s", what)
	case s == "." || s == ".." || strings.ContainsAny(s, "/\\"):
		return fmt.Errorf("%s %s cannot be a URL path segment", what, quote.Value(s))
	}
	return nil
}

// checkID applies checkSegment to every group and name of a target.
func checkID(id plan.ID) error {
	if err := checkSegment("resource group", id.ResourceGroup); err != nil {
		return err
	}
	for _, n := range id.Names {
		if err := checkSegment("resource name", n); err != nil {
			return err
		}
	}
	return nil
}
