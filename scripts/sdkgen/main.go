// sdkgen writes the Python and Go (and on request Node.js) SDKs of a Pulumi package schema, as
// `pulumi package gen-sdk <schema.json> --out <dir>` lays them out: <dir>/python, <dir>/go, ...
//
// Why not gen-sdk itself: since v3.1xx the CLI hands code generation to the language plugins
// (pulumi-language-python, -go, -nodejs), and the Go module proxy reachable here refuses those
// modules. Their GeneratePackage RPC is a thin wrapper around the code generators of
// github.com/pulumi/pulumi/pkg/v3/codegen, which are served; this tool calls the same generators
// the same way (bind the schema, marshal and re-bind it as the CLI does over gRPC, generate, write
// every file under <dir>/<language> after emptying it), with the same tool names in the headers.
//
// One addition: the Go generator writes a go.mod only for `meta.supportPack` schemas, and this one
// has none, so sdkgen writes <dir>/go/go.mod (module = importBasePath minus its last element,
// requiring github.com/pulumi/pulumi/sdk/v3 at -pulumi-sdk-version). Its go.sum is left to
// `go mod tidy` (scripts/generateSdks.sh runs it).
//
// Usage: sdkgen -schema schema.json -out sdk [-languages python,go] [-pulumi-sdk-version v3.248.0]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blang/semver"
	"golang.org/x/mod/modfile"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pythongen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	schemaPath := flag.String("schema", "schema.json", "package schema (JSON)")
	out := flag.String("out", "sdk", "output directory; each language goes to <out>/<language>")
	languages := flag.String("languages", "python,go", "comma-separated: python, go, nodejs")
	sdkVersion := flag.String("pulumi-sdk-version", "v3.248.0",
		"version of github.com/pulumi/pulumi/sdk/v3 the Go SDK's go.mod requires")
	flag.Parse()

	if err := run(*schemaPath, *out, strings.Split(*languages, ","), *sdkVersion); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string, languages []string, sdkVersion string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	// The CLI binds the schema, marshals the bound package and sends that JSON to the language
	// plugin, which binds it again: do the same, so that the generators see the same input.
	pkg, err := bind(spec)
	if err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	sent, err := pkg.MarshalJSON()
	if err != nil {
		return err
	}

	for _, lang := range languages {
		var received schema.PackageSpec
		if err := json.Unmarshal(sent, &received); err != nil {
			return err
		}
		// Bind per language: the generators record language info on the package.
		pkg, err := bind(received)
		if err != nil {
			return err
		}
		var files map[string][]byte
		switch lang {
		case "python":
			files, err = pythongen.GeneratePackage("pulumi-language-python", pkg, nil, noDependencies{})
		case "go":
			files, err = gogen.GeneratePackage("pulumi-language-go", pkg, nil)
			if err == nil && files["go.mod"] == nil {
				files["go.mod"], err = goMod(pkg, sdkVersion)
			}
		case "nodejs":
			files, err = nodejsgen.GeneratePackage("pulumi-language-nodejs", pkg, nil, nil, false, noDependencies{})
		default:
			return fmt.Errorf("unknown language %q (want python, go or nodejs)", lang)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		dir := filepath.Join(out, lang)
		if err := write(dir, files); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "sdkgen: %s SDK: %d files in %s\n", lang, len(files), dir)
	}
	return nil
}

// bind validates and binds a schema as `pulumi package gen-sdk` and the language plugins do.
func bind(spec schema.PackageSpec) (*schema.Package, error) {
	pkg, diags, err := schema.BindSpec(spec, noDependencies{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return pkg, nil
}

// goMod is the go.mod of the Go SDK, in <out>/go: its module path is the schema's
// language.go.importBasePath without the package directory (…/sdk/go/kubespaces → …/sdk/go).
func goMod(pkg *schema.Package, sdkVersion string) ([]byte, error) {
	info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	base := info.ImportBasePath
	if base == "" {
		base = gogen.ExtractImportBasePath(pkg.Reference())
	}
	var f modfile.File
	if err := f.AddModuleStmt(path.Dir(base)); err != nil {
		return nil, err
	}
	if err := f.AddGoStmt("1.25"); err != nil {
		return nil, err
	}
	if err := f.AddRequire("github.com/pulumi/pulumi/sdk/v3", sdkVersion); err != nil {
		return nil, err
	}
	return f.Format()
}

// write empties dir and writes files into it (as the CLI does before asking the language plugin).
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noDependencies loads no other package: the kubespaces schema references none (only the built-in
// pulumi.json#/Any), so any load request is a schema error worth reporting.
type noDependencies struct{}

var errNoDependencies = errors.New("sdkgen loads no other packages; the schema must not depend on any")

func (noDependencies) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s: %w", name, errNoDependencies)
}

func (noDependencies) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s: %w", d.Name, errNoDependencies)
}

func (noDependencies) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s: %w", name, errNoDependencies)
}

func (noDependencies) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s: %w", d.Name, errNoDependencies)
}
