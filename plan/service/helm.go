package service

import (
	"bytes"
	"strings"
)

// helmSourcePrefix starts the comment helm template writes before each
// document it renders: "# Source: chart/templates/service.yaml" (the chart's
// name, then the template's path inside the chart; subcharts add
// charts/<name>/).
const helmSourcePrefix = "# Source: "

// maxTemplateName bounds a template name taken from a comment.
const maxTemplateName = 1024

// helmTemplate returns the template a document of helm template's output
// was rendered from: the "# Source:" comment among the lines before its
// first content line (after the "---" that starts it), or "".
func helmTemplate(doc []byte) string {
	for len(doc) > 0 {
		line := doc
		if nl := bytes.IndexByte(doc, '\n'); nl >= 0 {
			line, doc = doc[:nl], doc[nl+1:]
		} else {
			doc = nil
		}
		trimmed := bytes.TrimLeft(line, " \t")
		switch {
		case bytes.HasPrefix(line, []byte(helmSourcePrefix)):
			name := strings.TrimSpace(string(line[len(helmSourcePrefix):]))
			if name == "" || len(name) > maxTemplateName || strings.ContainsFunc(name, isControl) {
				return ""
			}
			return name
		case len(bytes.TrimSpace(trimmed)) == 0 || trimmed[0] == '#' || isSeparator(line):
			continue
		}
		return "" // content before any Source comment
	}
	return ""
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// templateAt is the template of the chunk holding the 1-based line of the
// group that starts at chunks[0] (yaml.v3 numbers a stream's lines from its
// start).
func templateAt(chunks []chunk, line int) string {
	at := chunks[0].line + line - 1
	t := ""
	for _, c := range chunks {
		if c.line > at {
			break
		}
		t = c.template
	}
	return t
}
