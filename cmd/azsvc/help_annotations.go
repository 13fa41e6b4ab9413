package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/azsvc/azsvc/plan/service"
)

// helpWidth bounds the lines of `azsvc help annotations`.
const helpWidth = 100

const annotationsIntro = `Every Service annotation the Azure cloud controller manager (CCM) reads, from
the registry azsvc validate uses. Keys are shown without their prefix,
service.beta.kubernetes.io/; port_{port}_ keys take a Service port number.
"validate" lists the codes azsvc validate reports for a faulty value (found by
giving validate one); "key" means validate knows the key and reports its
misspellings only. plan also refuses what CCM would fail on for lack of what
azure.json or Azure holds. "CCM" gives the cloud-provider-azure releases that
read the key. azsvc help annotations KEY shows one key in full.

`

// annotationsTopic is `azsvc help annotations [KEY]`.
func annotationsTopic() topicArgs {
	return topicArgs{run: annotationHelp, complete: annotationNames}
}

// annotationsHelp is the list of every annotation.
func annotationsHelp() string {
	reg := service.Annotations()
	checks := validateChecks(reg)
	notes := ccmReleases()
	var b strings.Builder
	b.WriteString(annotationsIntro)
	for _, a := range reg {
		b.WriteString(shortKey(a) + "\n")
		writeWrapped(&b, "    ", typeLine(a))
		writeWrapped(&b, "    builds: ", a.Affects)
		validated := "key"
		if c := checks[a.Key]; len(c) > 0 {
			validated = strings.Join(c, " ")
		}
		writeWrapped(&b, "    ", "validate: "+validated+" · CCM: "+notes[noteKey(a)])
	}
	return b.String()
}

// annotationHelp writes one annotation in full; args is the key, with or
// without its prefix.
func annotationHelp(w io.Writer, args []string) error {
	if len(args) != 1 {
		return usageErrorf("azsvc help annotations takes one key at most, got %d", len(args))
	}
	a, ok := findAnnotation(args[0])
	if !ok {
		return unknownAnnotation(args[0])
	}
	rules := map[string]service.Rule{}
	for _, r := range service.Rules() {
		rules[r.Code] = r
	}
	var b strings.Builder
	b.WriteString(a.Key + "\n\n")
	field := func(name, value string) {
		if value != "" {
			writeWrapped(&b, fmt.Sprintf("  %-10s ", name+":"), value)
		}
	}
	field("Type", string(a.Type))
	field("Read as", string(a.Convention))
	field("Default", a.Default)
	field("Allowed", a.Allowed)
	field("Builds", a.Affects)
	checks := validateChecks([]service.Annotation{a})[a.Key]
	if len(checks) == 0 {
		field("Validate", "the key only (misspellings of it are errors)")
	}
	label := "Validate:"
	for _, code := range checks {
		r := rules[code]
		writeWrapped(&b, fmt.Sprintf("  %-10s ", label), fmt.Sprintf("%s %s (%s)", code, r.Title, r.Severity))
		label = ""
	}
	field("CCM", ccmReleases()[noteKey(a)])
	field("Reference", "ccm-semantics "+a.Ref)
	_, err := io.WriteString(w, b.String())
	return err
}

// findAnnotation resolves what a user typed: a full key, a key without its
// prefix, a per-port key for some port or its template, or a per-port
// parameter alone; letter case does not matter.
func findAnnotation(arg string) (service.Annotation, bool) {
	name := strings.ToLower(strings.TrimSpace(arg))
	name = strings.TrimPrefix(name, service.Prefix)
	for _, a := range service.Annotations() {
		if name == shortKey(a) || (a.PerPort() && name == a.Param) {
			return a, true
		}
	}
	return service.NewRegistry().Lookup(service.Prefix + name)
}

// unknownAnnotation is the usage error for a key no annotation has, with
// the one probably meant.
func unknownAnnotation(arg string) error {
	typed := strings.TrimPrefix(strings.ToLower(arg), service.Prefix)
	port := ""
	if n, param, ok := service.ParsePortKey(service.Prefix + typed); ok {
		port, typed = fmt.Sprintf("port_%d_", n), param
	}
	if best, ok := service.Closest(typed, annotationNames()); ok {
		return usageErrorf("unknown annotation %q (did you mean %s%s?); azsvc help annotations lists every key", arg, port, best)
	}
	return usageErrorf("unknown annotation %q: azsvc help annotations lists every key CCM reads", arg)
}

// annotationNames are the names findAnnotation accepts without a port
// number: fixed keys without their prefix and per-port parameters.
func annotationNames() []string {
	var names []string
	for _, a := range service.Annotations() {
		if a.PerPort() {
			names = append(names, a.Param)
			continue
		}
		names = append(names, shortKey(a))
	}
	return names
}

func shortKey(a service.Annotation) string { return strings.TrimPrefix(a.Key, service.Prefix) }

// noteKey indexes ccmReleases.
func noteKey(a service.Annotation) string {
	if a.PerPort() {
		return a.Param
	}
	return shortKey(a)
}

func typeLine(a service.Annotation) string {
	line := string(a.Type)
	if a.Default != "" {
		line += ", default " + a.Default
	}
	if a.Allowed != "" {
		line += "; " + a.Allowed
	}
	return line
}

// writeWrapped writes text after prefix, wrapped to helpWidth, continuation
// lines indented as far as the prefix.
func writeWrapped(b *strings.Builder, prefix, text string) {
	indent := strings.Repeat(" ", len(prefix))
	for i, l := range wrap(text, helpWidth-len(prefix)) {
		if i == 0 {
			b.WriteString(prefix + l + "\n")
			continue
		}
		b.WriteString(indent + l + "\n")
	}
}
