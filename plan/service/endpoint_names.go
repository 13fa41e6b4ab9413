package service

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/azsvc/azsvc/plan/quote"
)

// Name rules of the resources a PrivateEndpoint names (arm-rules §1.2, the
// Azure DNS limits): each check returns "" for a good name, else what is
// wrong with it.

const (
	maxResourceName  = 80
	maxResourceGroup = 90
	maxDNSName       = 253
	maxDNSLabel      = 63
	minZoneLabels    = 2
	maxZoneLabels    = 34
	// maxRequestMessage is ARM's limit on a connection's requestMessage.
	maxRequestMessage = 140
)

var (
	// A resource name starts with a word character, ends with one or "_",
	// and holds word characters, ".", "-" and "_" (arm-rules §1.2).
	resourceNameRe = regexp.MustCompile(`^\w(?:[\w.-]*\w)?_?$`)
	groupNameRe    = regexp.MustCompile(`^[-\w._()]+$`)
	dnsLabelRe     = regexp.MustCompile(`^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?$`)
	// aliasRe is a PLS alias: <name>.<guid>.<region>.azure.privatelinkservice
	// (HyperShift's CRD pattern, arm-rules §4.1).
	aliasRe = regexp.MustCompile(`^[^.]+\.[0-9a-fA-F-]+\.[a-z0-9]+\.azure\.privatelinkservice$`)
)

func resourceNameProblem(s string) string {
	switch {
	case len(s) > maxResourceName:
		return fmt.Sprintf("is %d characters long; Azure allows %d", len(s), maxResourceName)
	case !resourceNameRe.MatchString(s):
		return "must start with a letter, digit or underscore, end with one of those, and hold only letters, digits, '.', '-' and '_'"
	}
	return ""
}

func groupNameProblem(s string) string {
	switch {
	case len(s) > maxResourceGroup:
		return fmt.Sprintf("is %d characters long; Azure allows %d", len(s), maxResourceGroup)
	case !groupNameRe.MatchString(s) || strings.HasSuffix(s, "."):
		return "may hold only letters, digits, '-', '_', '.', '(' and ')', and must not end with '.'"
	}
	return ""
}

// zoneNameProblem checks a private DNS zone name: 2 to 34 labels (arm-rules
// §1.4), each 1 to 63 letters, digits, '-' or '_', not starting or ending
// with '-', at most 253 characters in all.
func zoneNameProblem(zone string) string {
	if zone != strings.TrimSuffix(zone, ".") {
		return "ends with '.'; write the zone without the trailing dot"
	}
	if len(zone) > maxDNSName {
		return fmt.Sprintf("is %d characters long; a DNS name has at most %d", len(zone), maxDNSName)
	}
	labels := strings.Split(zone, ".")
	if len(labels) < minZoneLabels || len(labels) > maxZoneLabels {
		return fmt.Sprintf("has %d label(s); a private DNS zone has %d to %d", len(labels), minZoneLabels, maxZoneLabels)
	}
	for _, l := range labels {
		if p := labelProblem(l); p != "" {
			return p
		}
	}
	return ""
}

// recordNameProblem checks a record set name relative to zone: "@" for the
// apex, "*" only as the whole first label, labels as in a zone name, and
// the full name at most 253 characters.
func recordNameProblem(name, zone string) string {
	if name == "@" {
		return ""
	}
	if len(name)+1+len(zone) > maxDNSName {
		return fmt.Sprintf("%s.%s is longer than %d characters", name, zone, maxDNSName)
	}
	for i, l := range strings.Split(name, ".") {
		if l == "*" && i == 0 {
			continue
		}
		if p := labelProblem(l); p != "" {
			if strings.Contains(l, "*") {
				return "has a '*' that is not the whole first label: a wildcard record is written as in *.apps"
			}
			return p
		}
	}
	return ""
}

func labelProblem(l string) string {
	switch {
	case l == "":
		return "has an empty label (two dots in a row, or a dot at the start)"
	case len(l) > maxDNSLabel:
		return fmt.Sprintf("has a label of %d characters; a DNS label has at most %d", len(l), maxDNSLabel)
	case !dnsLabelRe.MatchString(l):
		return fmt.Sprintf("has label %q: labels hold letters, digits, '-' and '_', and do not start or end with '-'", l)
	}
	return ""
}

// IsPLSAlias reports whether s has the shape of a private link service
// alias.
func IsPLSAlias(s string) bool { return aliasRe.MatchString(s) }

// armPathProblem checks an ARM ID a PrivateEndpoint names (its subnet, a
// private link service, a linked network) segment by segment, as every
// other value that becomes part of an ARM URL is checked (names.go): a
// GUID subscription, a resource group and names ARM accepts, so that "..",
// "%2e", "?" or "#" cannot make the ID address another URL. id has already
// parsed (plan.ParseID), so its segments are where they belong.
func armPathProblem(id string) string {
	if !strings.HasPrefix(id, "/") || strings.HasSuffix(id, "/") || strings.Contains(id, "//") {
		return "must start with one \"/\" and hold no empty segment"
	}
	parts := strings.Split(id[1:], "/")
	if !IsSubscriptionID(parts[1]) {
		return fmt.Sprintf("names subscription %s, which is not a subscription ID (a GUID)", quote.Value(parts[1]))
	}
	if p := ResourceGroupProblem(parts[3]); p != "" {
		return fmt.Sprintf("has resource group %s, which %s", quote.Value(parts[3]), p)
	}
	for i := 7; i < len(parts); i += 2 {
		if p := ResourceNameProblem(parts[i]); p != "" {
			return fmt.Sprintf("has name %s, which %s", quote.Value(parts[i]), p)
		}
	}
	return ""
}
