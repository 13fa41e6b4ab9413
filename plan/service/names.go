package service

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan/quote"
)

// ARM's own rules for the values azsvc sends as resource names, URL path
// segments, DNS labels and tags. A name that breaks them is refused by ARM
// at apply time, half-way through a plan; worse, a "/" or "%2F" in a name
// would make a URL address a different resource. Each check returns ""
// when the value is acceptable, else what is wrong with it, for a message.

// MaxResourceNameLength is ARM's limit on a resource name (arm-rules §1.2,
// §2.4 "resource name length").
const MaxResourceNameLength = 80

// MaxResourceGroupLength is ARM's limit on a resource group name
// (arm-rules §4.1: "resourceGroupName ... 1–90 chars").
const MaxResourceGroupLength = 90

// ResourceNameProblem applies ARM's name rule (arm-rules §1.2: at most 80
// characters, starting with a word character and ending with a word
// character or "_", with ".", "-" and "_" inside; the emulator's validName
// is the same rule). Word characters are taken as ASCII letters, digits and
// "_": azsvc refuses the rest so that a name is the same bytes in a URL, in
// a log and on a terminal.
func ResourceNameProblem(name string) string {
	switch {
	case name == "":
		return "is empty"
	case len(name) > MaxResourceNameLength:
		return fmt.Sprintf("is %d characters long; ARM allows at most %d", len(name), MaxResourceNameLength)
	}
	if p := charProblem(name, isNameChar); p != "" {
		return p
	}
	if !isWordChar(name[0]) {
		return fmt.Sprintf("starts with %s; ARM names start with a letter, digit or \"_\"", quote.Value(name[:1]))
	}
	if last := name[len(name)-1]; !isWordChar(last) {
		return fmt.Sprintf("ends with %s; ARM names end with a letter, digit or \"_\"", quote.Value(string(last)))
	}
	return ""
}

// ResourceGroupProblem applies ARM's resource group rule: 1 to 90
// characters of letters, digits, "_", "(", ")", "-" and ".", not ending
// with "." (arm-rules §4.1 gives the length; the character set is ARM's
// documented one, ASCII only as for ResourceNameProblem).
func ResourceGroupProblem(rg string) string {
	switch {
	case rg == "":
		return "is empty"
	case len(rg) > MaxResourceGroupLength:
		return fmt.Sprintf("is %d characters long; ARM allows at most %d", len(rg), MaxResourceGroupLength)
	}
	if p := charProblem(rg, func(c byte) bool { return isNameChar(c) || c == '(' || c == ')' }); p != "" {
		return p
	}
	if strings.HasSuffix(rg, ".") {
		return "ends with \".\", which ARM does not allow in a resource group name"
	}
	return ""
}

// DNSLabelProblem applies ARM's rule for a public IP's domainNameLabel: 3
// to 63 lower-case letters, digits and hyphens, starting with a letter and
// ending with a letter or digit. arm-rules.md does not cover it; ARM's own
// 400 InvalidDomainNameLabel quotes the pattern
// ^[a-z][a-z0-9-]{1,61}[a-z0-9]$ (as recorded in deis/deis#4854 and
// JetBrains/teamcity-azure-agent#42), which is stricter than the 1-63 a
// DNS label may have elsewhere.
func DNSLabelProblem(label string) string {
	for i := 0; i < len(label); i++ {
		if c := label[i]; c >= 'A' && c <= 'Z' {
			return fmt.Sprintf("contains the upper-case letter %q (DNS labels are lower-case)", string(c))
		}
	}
	switch p := charProblem(label, isDNSChar); {
	case p != "":
		return p
	case len(label) < 3 || len(label) > 63:
		return fmt.Sprintf("is %d characters long; a DNS label has 3 to 63", len(label))
	case label[0] < 'a' || label[0] > 'z':
		return "does not start with a letter"
	case label[len(label)-1] == '-':
		return "ends with \"-\""
	}
	return ""
}

// charProblem names the first character of s that ok refuses, saying why
// the usual suspects are dangerous.
func charProblem(s string, ok func(byte) bool) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if ok(c) {
			continue
		}
		switch {
		case c < 0x20 || c == 0x7f:
			return fmt.Sprintf("contains the control character %s", quote.Value(s[i:i+1]))
		case c >= utf8.RuneSelf:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return fmt.Sprintf("contains the non-ASCII character %s", quote.Value(string(r)))
		case c == '/' || c == '\\':
			return fmt.Sprintf("contains %q, a path separator: the value would address a different URL", string(c))
		case c == '%' || c == '?' || c == '#':
			return fmt.Sprintf("contains %q, which has a meaning in URLs", string(c))
		case c == ' ':
			return "contains a space"
		}
		return fmt.Sprintf("contains %q, which is not allowed", string(c))
	}
	return ""
}

func isWordChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameChar(c byte) bool { return isWordChar(c) || c == '.' || c == '-' }

func isDNSChar(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' }

// Tag limits (Azure Resource Manager "tag-resources" limitations): a key of
// at most 512 characters without < > % & \ ? /, a value of at most 256, and
// 50 tags per resource.
const (
	MaxTagKeyLength   = 512
	MaxTagValueLength = 256
	MaxTags           = 50
)

// TagKeyProblem applies ARM's tag key rule.
func TagKeyProblem(k string) string {
	switch {
	case k == "":
		return "is empty"
	case utf8.RuneCountInString(k) > MaxTagKeyLength:
		return fmt.Sprintf("is %d characters long; ARM allows at most %d", utf8.RuneCountInString(k), MaxTagKeyLength)
	}
	if i := strings.IndexAny(k, `<>%&\?/`); i >= 0 {
		return fmt.Sprintf("contains %q, which ARM does not allow in a tag name", k[i:i+1])
	}
	return controlProblem(k)
}

// TagValueProblem applies ARM's tag value rule.
func TagValueProblem(v string) string {
	if n := utf8.RuneCountInString(v); n > MaxTagValueLength {
		return fmt.Sprintf("is %d characters long; ARM allows at most %d", n, MaxTagValueLength)
	}
	return controlProblem(v)
}

// controlProblem refuses control characters and invalid UTF-8, which no
// ARM string property takes.
func controlProblem(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return fmt.Sprintf("is not valid UTF-8 (byte %d)", i)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Sprintf("contains the control character %s", quote.Value(string(r)))
		}
	}
	return ""
}

// PublicIPPrefixIDProblem checks an azure-pip-prefix-id value: the full ID
// of a public IP prefix, whose every segment is a valid name (its last one
// becomes part of the public IP's name, ccm-semantics §1.3 #26).
func PublicIPPrefixIDProblem(id string) string {
	const shape = "/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Network/publicIPPrefixes/<name>"
	parts := strings.Split(id, "/")
	if len(parts) != 9 || parts[0] != "" || !strings.EqualFold(parts[1], "subscriptions") ||
		!strings.EqualFold(parts[3], "resourceGroups") || !strings.EqualFold(parts[5], "providers") ||
		!strings.EqualFold(parts[6], "Microsoft.Network") || !strings.EqualFold(parts[7], "publicIPPrefixes") {
		if p := charProblem(id, func(c byte) bool { return isNameChar(c) || c == '/' || c == '(' || c == ')' }); p != "" {
			return p
		}
		return "is not a public IP prefix ID of the form " + shape
	}
	if !IsSubscriptionID(parts[2]) {
		return fmt.Sprintf("names subscription %s, which is not a subscription ID (a GUID)", quote.Value(parts[2]))
	}
	if p := ResourceGroupProblem(parts[4]); p != "" {
		return "has a resource group that " + p
	}
	if p := ResourceNameProblem(parts[8]); p != "" {
		return "has a prefix name that " + p
	}
	return ""
}

// IsSubscriptionID reports whether s is a GUID, the form of every Azure
// subscription ID.
func IsSubscriptionID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// FQDNProblem checks one azure-pls-fqdns entry: at most 253 characters of
// dot-separated labels of 1 to 63 letters, digits and hyphens, none
// starting or ending with a hyphen (RFC 1123).
func FQDNProblem(fqdn string) string {
	if len(fqdn) > 253 {
		return fmt.Sprintf("is %d characters long; a DNS name has at most 253", len(fqdn))
	}
	if p := charProblem(fqdn, func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
	}); p != "" {
		return p
	}
	for _, label := range strings.Split(strings.TrimSuffix(fqdn, "."), ".") {
		switch {
		case label == "":
			return "has an empty label (two dots in a row, or a leading dot)"
		case len(label) > 63:
			return "has a label longer than 63 characters"
		case label[0] == '-' || label[len(label)-1] == '-':
			return fmt.Sprintf("has the label %s, which starts or ends with \"-\"", quote.Value(label))
		}
	}
	return ""
}

// ServiceTagProblem checks one azure-allowed-service-tags entry, which
// becomes an NSG rule's source address prefix: a service tag such as
// Internet or AzureFrontDoor.Backend is letters, digits, "." and "-".
func ServiceTagProblem(tag string) string {
	if tag == "" {
		return "is empty (CCM keeps empty entries: a stray comma makes a rule with no source)"
	}
	return charProblem(tag, func(c byte) bool { return isWordChar(c) && c != '_' || c == '.' || c == '-' })
}

// RequestPathProblem checks a probe request path, which ARM sends as the
// path of an HTTP request line: printable ASCII without spaces.
func RequestPathProblem(path string) string {
	return charProblem(path, func(c byte) bool { return c > ' ' && c < 0x7f && c != '\\' && c != '#' })
}

// shownKey is an annotation key as a message shows it: as written when it
// is an ordinary key, quoted and cut (quote.Value) when it is long or holds
// anything but the characters keys are made of.
func shownKey(key string) string {
	if len(key) > 253+1+63 || charProblem(key, func(c byte) bool { return isNameChar(c) || c == '/' }) != "" {
		return quote.Value(key)
	}
	return key
}

// quoteList shows list items as Go's %q shows a []string, each quoted and
// cut by quote.Value.
func quoteList(items []string) string {
	shown := make([]string, len(items))
	for i, s := range items {
		shown[i] = quote.Value(s)
	}
	return "[" + strings.Join(shown, " ") + "]"
}
