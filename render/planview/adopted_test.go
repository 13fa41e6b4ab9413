package planview

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

func TestAdoptedUIDsAreShownAndBounded(t *testing.T) {
	var adopted []plan.AdoptedUID
	for i := range maxAdoptedLines + 5 {
		adopted = append(adopted, plan.AdoptedUID{Service: fmt.Sprintf("shop/svc-%02d", i), Prefix: "a0123456789abcdef0123456789abcde",
			Evidence: []string{"pip/kubernetes-a0123456789abcdef0123456789abcde", "lb/kubernetes/rule/x"}})
	}
	in := Input{Plan: &plan.Plan{Adopted: adopted}}
	var text, md, js bytes.Buffer
	if err := Text(&text, in, style.New(false)); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, in, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, in); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if !strings.Contains(out, "UID taken from Azure") || !strings.Contains(out, "shop/svc-00") ||
			!strings.Contains(out, "pip/kubernetes-a0123456789abcdef0123456789abcde and 1 more") {
			t.Errorf("%s output lacks the adopted UIDs:\n%s", name, out)
		}
		if strings.Contains(out, fmt.Sprintf("shop/svc-%02d", maxAdoptedLines)) || !strings.Contains(out, "and 5 more Services") {
			t.Errorf("%s output is not bounded at %d Services:\n%s", name, maxAdoptedLines, out)
		}
	}
	if n := strings.Count(js.String(), `"service": "shop/svc-`); n != len(adopted) {
		t.Errorf("JSON lists %d adopted Services, want all %d", n, len(adopted))
	}
}
