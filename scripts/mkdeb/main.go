// Command mkdeb builds bomber's Debian package with nfpm (as a library):
// bomberd and bomberctl, the systemd units, a commented
// /etc/bomber/config.yaml, the system user (sysusers.d and postinst), the
// state directory /var/lib/bomber and the docs. `make deb` runs it.
//
//	mkdeb --bin bin --version 1.2.3 -o bomber_1.2.3_amd64.deb
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
	"github.com/spf13/pflag"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are mkdeb's flags.
type options struct {
	bin, root, version, arch, out string
}

func run(args []string, stdout, stderr io.Writer) int {
	var o options
	fs := pflag.NewFlagSet("mkdeb", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.bin, "bin", "bin", "directory holding the built bomberd and bomberctl")
	fs.StringVar(&o.root, "root", ".", "the repository (deploy/deb, config.yaml, docs)")
	fs.StringVar(&o.version, "version", "", "package version (default: what bomberd --version prints)")
	fs.StringVar(&o.arch, "arch", runtime.GOARCH, "Debian architecture of the binaries")
	fs.StringVarP(&o.out, "output", "o", "", "the .deb to write, or a directory for bomber_VERSION_ARCH.deb (default: here)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: mkdeb [flags]\n\nBuilds bomber's Debian package from built binaries (make deb).\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mkdeb: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	out, err := build(o)
	if err != nil {
		fmt.Fprintln(stderr, "mkdeb:", err)
		return 1
	}
	fmt.Fprintln(stdout, out)
	return 0
}

// binaryVersion is what bomberd --version prints after its name.
func binaryVersion(bomberd string) (string, error) {
	out, err := exec.Command(bomberd, "--version").Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bomberd, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return "", fmt.Errorf("%s --version printed %q", bomberd, out)
	}
	return f[1], nil
}

// bareHash matches git describe --always's answer when there is no tag.
var bareHash = regexp.MustCompile(`^([0-9a-f]{7,40})(-dirty)?$`)

// describe matches git describe's TAG-N-gHASH[-dirty].
var describe = regexp.MustCompile(`^(.+)-(\d+)-g([0-9a-f]+)(-dirty)?$`)

// debVersion turns a git describe or module version into one dpkg orders
// right: no leading v; v1.2.3-4-gabc (4 commits after v1.2.3) becomes
// 1.2.3+4.gabc, after 1.2.3; v1.2.3-rc1 becomes 1.2.3~rc1, before it; a
// bare commit hash (no tag yet) becomes 0.0.0~gHASH; any other version
// without a leading digit (devel) becomes 0.0.0~devel.
func debVersion(v string) string {
	if m := bareHash.FindStringSubmatch(v); m != nil {
		// git describe --always without a tag: no version to order by
		v = "0.0.0~g" + m[1]
		if m[2] != "" {
			v += ".dirty"
		}
		return v
	}
	v = strings.TrimPrefix(v, "v")
	suffix := ""
	if m := describe.FindStringSubmatch(v); m != nil {
		v, suffix = m[1], "+"+m[2]+".g"+m[3]
		if m[4] != "" {
			suffix += ".dirty"
		}
	}
	v = strings.NewReplacer("-", "~", "_", "~").Replace(v) + suffix
	if v == "" || v[0] < '0' || v[0] > '9' {
		v = "0.0.0~" + v
	}
	return v
}

// build writes the package and returns its path.
func build(o options) (string, error) {
	for _, b := range []string{"bomberd", "bomberctl"} {
		if _, err := os.Stat(filepath.Join(o.bin, b)); err != nil {
			return "", fmt.Errorf("%w (build them first: make bin)", err)
		}
	}
	if o.version == "" {
		v, err := binaryVersion(filepath.Join(o.bin, "bomberd"))
		if err != nil {
			return "", err
		}
		o.version = v
	}
	version := debVersion(o.version)
	d := func(p string) string { return filepath.Join(o.root, "deploy", "deb", p) }
	script := func(name string) (string, error) {
		p := d(name)
		if _, err := os.Stat(p); err != nil {
			return "", err
		}
		return p, nil
	}
	var scripts nfpm.Scripts
	var err error
	if scripts.PostInstall, err = script("postinst"); err != nil {
		return "", err
	}
	if scripts.PreRemove, err = script("prerm"); err != nil {
		return "", err
	}
	if scripts.PostRemove, err = script("postrm"); err != nil {
		return "", err
	}
	mode := func(m os.FileMode) *files.ContentFileInfo {
		return &files.ContentFileInfo{Mode: m, Owner: "root", Group: "root"}
	}
	contents := files.Contents{
		{Source: filepath.Join(o.bin, "bomberd"), Destination: "/usr/bin/bomberd", FileInfo: mode(0o755)},
		{Source: filepath.Join(o.bin, "bomberctl"), Destination: "/usr/bin/bomberctl", FileInfo: mode(0o755)},
		{Source: d("bomberd.service"), Destination: "/lib/systemd/system/bomberd.service", FileInfo: mode(0o644)},
		{Source: filepath.Join(o.root, "deploy", "bomberd.socket"), Destination: "/lib/systemd/system/bomberd.socket", FileInfo: mode(0o644)},
		{Source: d("sysusers.conf"), Destination: "/usr/lib/sysusers.d/bomber.conf", FileInfo: mode(0o644)},
		{Source: d("config.yaml"), Destination: "/etc/bomber/config.yaml", Type: files.TypeConfigNoReplace, FileInfo: mode(0o640)},
		{Destination: "/var/lib/bomber", Type: files.TypeDir, FileInfo: mode(0o750)},
		{Source: filepath.Join(o.root, "config.yaml"), Destination: "/usr/share/doc/bomber/config.yaml", FileInfo: mode(0o644)},
		{Source: filepath.Join(o.root, "docs", "operations.md"), Destination: "/usr/share/doc/bomber/operations.md", FileInfo: mode(0o644)},
		{Source: filepath.Join(o.root, "schema.sql"), Destination: "/usr/share/doc/bomber/schema.sql", FileInfo: mode(0o644)},
	}
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:          "bomber",
		Arch:          o.arch,
		Platform:      "linux",
		Version:       version,
		VersionSchema: "none",
		Section:       "games",
		Priority:      "optional",
		Maintainer:    "Bomber developers <bomber@example.org>",
		Description:   "Bomber game daemon (bomberd) and its admin tool (bomberctl)\n bomberd serves the Bomber segment protocol on TCP port 20343, with accounts\n in an embedded SQLite file or MySQL/MariaDB, systemd notify and watchdog.",
		Homepage:      "https://github.com/bomber-game/bomber",
		License:       "see /usr/share/doc/bomber",
		MTime:         time.Unix(0, 0).UTC(), // reproducible
		Overridables: nfpm.Overridables{
			Contents:   contents,
			Scripts:    scripts,
			Recommends: []string{"systemd | adduser"},
		},
	})
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", fmt.Errorf("preparing the package: %w", err)
	}
	out := o.out
	name := fmt.Sprintf("bomber_%s_%s.deb", version, o.arch)
	if out == "" {
		out = name
	} else if st, err := os.Stat(out); err == nil && st.IsDir() {
		out = filepath.Join(out, name)
	}
	f, err := os.Create(out)
	if err != nil {
		return "", err
	}
	if err := deb.Default.Package(info, f); err != nil {
		f.Close()
		os.Remove(out)
		return "", fmt.Errorf("building the package: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", errors.Join(err, os.Remove(out))
	}
	return out, nil
}
