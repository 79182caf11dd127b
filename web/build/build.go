package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// static are the files of src/ copied to dist/ as they are.
var static = []string{"index.html", "favicon.svg"}

// Build bundles root/src/main.js and root/src/style.css into out (app.js,
// app.css) and copies the static files. The output depends only on the
// sources, so a rebuild of unchanged sources gives the same bytes (the
// staleness test relies on it).
func Build(root, out string) error {
	root, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("web root: %w", err)
	}
	lib, err := libraryEntry(filepath.Join(root, "..", "clients", "js"))
	if err != nil {
		return err
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir: root,
		EntryPointsAdvanced: []api.EntryPoint{
			{InputPath: "src/main.js", OutputPath: "app"},
			{InputPath: "src/style.css", OutputPath: "app"},
		},
		Alias:             map[string]string{"bomber-client": lib},
		External:          []string{"node:*"}, // the library's TCP transport, never loaded in a browser
		Bundle:            true,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		Format:            api.FormatESModule,
		Target:            api.ES2022,
		Platform:          api.PlatformBrowser,
		Charset:           api.CharsetUTF8,
		LegalComments:     api.LegalCommentsNone,
		Outdir:            "dist-tmp", // only names the outputs: Write is off
		Write:             false,
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return fmt.Errorf("esbuild: %s", strings.Join(msgs, "\n"))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("dist: %w", err)
	}
	for _, f := range res.OutputFiles {
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f.Path)), f.Contents, 0o644); err != nil {
			return fmt.Errorf("dist: %w", err)
		}
	}
	for _, name := range static {
		b, err := os.ReadFile(filepath.Join(root, "src", name))
		if err != nil {
			return fmt.Errorf("static file: %w", err)
		}
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			return fmt.Errorf("dist: %w", err)
		}
	}
	return nil
}

// libraryEntry finds the browser entry of the JavaScript library in
// clients/js from its package.json ("browser", "module", then "main",
// or the "." export), as a path relative to web/ for esbuild's alias.
func libraryEntry(dir string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("client library: %w", err)
	}
	var pkg struct {
		Browser any             `json:"browser"`
		Module  string          `json:"module"`
		Main    string          `json:"main"`
		Exports json.RawMessage `json:"exports"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		return "", fmt.Errorf("client library package.json: %w", err)
	}
	entry := ""
	if s, ok := pkg.Browser.(string); ok {
		entry = s
	}
	if entry == "" {
		entry = exportEntry(pkg.Exports)
	}
	if entry == "" {
		entry = pkg.Module
	}
	if entry == "" {
		entry = pkg.Main
	}
	if entry == "" {
		return "", errors.New("client library package.json names no entry point")
	}
	return "./" + filepath.ToSlash(filepath.Join("..", "clients", "js", entry)), nil
}

// exportEntry reads the "." entry of an exports map: a string, or the
// browser/import/default condition.
func exportEntry(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	if dot, ok := m["."]; ok {
		return exportEntry(dot)
	}
	for _, k := range []string{"browser", "import", "default"} {
		if v, ok := m[k]; ok {
			if e := exportEntry(v); e != "" {
				return e
			}
		}
	}
	return ""
}
