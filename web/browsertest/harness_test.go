// Package browsertest drives the web client in headless Chromium against
// a real bomberd: log in, lobby, tables, chat and whole games of the
// five games, through clicks and keys on the page.
package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var bomberdBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bomber-browsertest")
	if err != nil {
		panic(err)
	}
	bomberdBin = filepath.Join(dir, "bomberd")
	out, err := exec.Command("go", "build", "-o", bomberdBin, "../../cmd/bomberd").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building bomberd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// logged finds the address bomberd logged for a listener.
func logged(log, what string) string {
	m := regexp.MustCompile(`\t` + regexp.QuoteMeta(what) + `\t\{"addr": "([^"]+)"\}`).FindStringSubmatch(log)
	if m == nil {
		return ""
	}
	return m[1]
}

// startDaemon runs bomberd on a fresh embedded store (with the demo
// accounts) and its web listener on a free loopback port, and returns
// the page's URL. BOMBER_BROWSER_URL names a running server instead.
func startDaemon(t *testing.T) (url, tcp string) {
	t.Helper()
	if u := os.Getenv("BOMBER_BROWSER_URL"); u != "" {
		return u, os.Getenv("BOMBER_BROWSER_TCP") // a running server (with the demo accounts)
	}
	dir := t.TempDir()
	log := &syncBuffer{}
	os.WriteFile(filepath.Join(dir, "none.yaml"), []byte("log:\n  format: console\n"), 0o644)
	cmd := exec.Command(bomberdBin, "--config", filepath.Join(dir, "none.yaml"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"BOMBER_LISTEN=127.0.0.1:0", "BOMBER_ADMIN_LISTEN=127.0.0.1:0", "BOMBER_WEB_LISTEN=127.0.0.1:0",
		"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1", "BOMBER_ACCOUNTS_REGISTRATION=open")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("bomberd log:\n%s", log.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		if addr := logged(log.String(), webListening); addr != "" {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				return "http://" + addr + "/", logged(log.String(), "listening")
			}
		}
		select {
		case err := <-done:
			t.Fatalf("bomberd exited: %v\n%s", err, log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("bomberd did not start its web listener:\n%s", log.String())
		}
	}
}

// the TCP listener's address is logged as "listening".

// webListening is the message bomberd logs with the web listener's address.
const webListening = "web listening"

// chromium finds the browser: CHROMIUM, else chromium on the PATH. In CI
// (CI=true) a missing browser fails the test instead of skipping it.
func chromium(t testing.TB) string {
	for _, p := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (apt-get install -y chromium); CI runs the browser tests")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium)")
	return ""
}

// browser starts one headless Chromium for the test; pages are separate
// browser contexts in it (no shared cookies or storage).
type browser struct {
	t    *testing.T
	root context.Context
}

func newBrowser(t *testing.T) *browser {
	bin := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(t.TempDir()),
		// Chromium puts its singleton socket's folder in TMPDIR and leaves
		// it behind when killed: the test's own folder is removed after it
		chromedp.Env("TMPDIR=" + t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1100, 850),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	root, cancelRoot := chromedp.NewContext(alloc)
	if err := chromedp.Do(root); err != nil { // starts the browser
		cancelRoot()
		cancelAlloc()
		t.Fatalf("starting chromium: %v", err)
	}
	t.Cleanup(func() { cancelRoot(); cancelAlloc() })
	return &browser{t: t, root: root}
}

// page is one browser context with one tab, and the console messages
// the page wrote that were errors.
type page struct {
	t      *testing.T
	name   string
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func (b *browser) page(name string) *page {
	ctx, cancel := chromedp.NewContext(b.root, chromedp.WithNewBrowserContext())
	p := &page{t: b.t, name: name, ctx: ctx}
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatalf("%s: new tab: %v", name, err)
	}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				p.mu.Lock()
				p.errors = append(p.errors, m.String())
				p.mu.Unlock()
			}
		}
	}()
	b.t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			b.t.Errorf("%s: console error: %s", name, e)
		}
		cancel()
	})
	return p
}

const step = 20 * time.Second

// do runs actions, failing the test (with the page's state) on error.
func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, step)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %s: %v\n%s", p.name, what, err, p.state())
	}
}

// eval evaluates a JavaScript expression on the page.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, step)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("%s: evaluating %s: %v", p.name, js, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds.
func (p *page) wait(what, js string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, step)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(step))); err != nil {
		p.t.Fatalf("%s: waiting for %s (%s): %v\n%s", p.name, what, js, err, p.state())
	}
}

// state describes what the page shows, for failure messages.
func (p *page) state() string {
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`[document.body.dataset.screen, document.querySelector('#table-title')?.textContent, document.querySelector('#game-info')?.textContent, document.querySelector('#toast')?.textContent, JSON.stringify(Array.from(window.bomberApp?.client?.view?.cells ?? []).slice(0, 16)), JSON.stringify(Array.from(window.bomberApp?.client?.view?.extra ?? []).slice(0, 20)), (window.bomberApp?.history ?? []).slice(-6).map(h => h.move?.notation).join(',')].join(' | ')`))
	return s
}

// click clicks the centre of sel with the mouse, once the page has drawn
// what it last received.
func (p *page) click(sel string) {
	p.t.Helper()
	p.settle()
	p.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// settle waits until the page has drawn what it received: it redraws on
// the next animation frame, and the tests mostly wait on the client's data,
// so a button found right after may still be the one drawn before (hidden,
// disabled or elsewhere on the page a moment later, and a mouse click at
// its old place goes astray). Two frames: the redraw asked for in this one
// runs in the next.
func (p *page) settle() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, step)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("%s: waiting for the page to draw: %v\n%s", p.name, err, p.state())
	}
}

// clickJS clicks the first element matching sel through the DOM (for SVG
// elements, which may be partly covered by neighbours): the same click
// handler a mouse click runs.
func (p *page) clickJS(sel string) {
	p.t.Helper()
	if !p.tryClick(sel) {
		p.t.Fatalf("%s: nothing matches %s\n%s", p.name, sel, p.state())
	}
}

// tryClick clicks the first element matching sel, if there is one.
func (p *page) tryClick(sel string) bool {
	p.t.Helper()
	return eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true; })()`, sel))
}

func (p *page) fill(sel, value string) {
	p.t.Helper()
	p.do("fill "+sel, chromedp.SetValue(chromedp.CSS(sel), value))
}

// login opens the page and logs in; it returns how long a person waits
// from the start of the page load to the lobby, not counting the typing:
// the page's load (navigation start to the load event) plus the time from
// pressing Log in to the lobby on screen, both measured by the page.
func (p *page) login(url, name string) time.Duration {
	p.t.Helper()
	p.do("open the page", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#login-form")))
	p.fill("#name", name)
	p.fill("#password", "123")
	p.click("#login-btn")
	p.do("see the lobby", chromedp.WaitVisible(chromedp.CSS("#lobby")))
	ms := eval[[]float64](p, `(() => { const n = performance.getEntriesByType('navigation')[0]; const m = (k) => performance.getEntriesByName(k)[0].startTime; return [n.loadEventEnd, m('bomber-lobby') - m('bomber-login')]; })()`)
	p.t.Logf("%s: page load %.0f ms, Log in to lobby %.0f ms", p.name, ms[0], ms[1])
	return time.Duration((ms[0] + ms[1]) * float64(time.Millisecond))
}

// screenshot saves the board as a PNG under the artefact directory and
// checks that it is not blank.
func (p *page) screenshot(name string) []byte {
	p.t.Helper()
	return p.screenshotOf("#board-svg", name)
}

// screenshotOf saves the element sel as name.png.
func (p *page) screenshotOf(sel, name string) []byte {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, step)
	defer cancel()
	var png []byte
	var err error
	// a board shot mid-game may find the node the page has just drawn
	// again: the shot is taken again of the new one
	for try := 0; try < 5; try++ {
		if png, err = chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel), chromedp.NodeVisible)); err == nil || !strings.Contains(err.Error(), "No node with given id") {
			break
		}
	}
	if err != nil {
		p.t.Fatalf("%s: screenshot: %v", p.name, err)
	}
	if v := variance(p.t, png); v < 100 {
		p.t.Errorf("%s: the %s board screenshot looks blank (pixel variance %.1f)", p.name, name, v)
	}
	path := filepath.Join(artefacts(p.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
	if os.Getenv("BOMBER_UPDATE_DOCS_IMG") == "1" {
		// only the pictures docs/client.md shows
		if doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "client.md")); err == nil && strings.Contains(string(doc), "img/web-"+name+".png") {
			os.WriteFile(filepath.Join("..", "..", "docs", "img", "web-"+name+".png"), png, 0o644)
		}
	}
	return png
}

// phoneShot saves the board card (title, whose turn, board, controls) as
// it shows on a phone's screen, 390×844 CSS pixels, as name-phone.png, and
// checks the page fits the phone's width; the window is then as before.
func (p *page) phoneShot(name string) {
	p.t.Helper()
	p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	p.wait("no sideways scrolling", `document.documentElement.scrollWidth <= window.innerWidth`)
	p.screenshotOf(".board-card", name+"-phone")
	p.do("desktop viewport", chromedp.EmulateViewport(1100, 850))
}

var artefactOnce sync.Once
var artefactDir string

// artefacts is where screenshots go: $BOMBER_ARTIFACTS, or a directory
// under the system's temporary directory kept for a person to look at.
func artefacts(t testing.TB) string {
	artefactOnce.Do(func() {
		artefactDir = os.Getenv("BOMBER_ARTIFACTS")
		if artefactDir == "" {
			artefactDir = filepath.Join(os.TempDir(), "bomber-browser-artifacts")
		}
		os.MkdirAll(artefactDir, 0o755)
	})
	return artefactDir
}

// variance is the variance of the luminance of the image's pixels: a
// blank (one-colour) image has none.
func variance(t testing.TB, b []byte) float64 {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	var n, sum, sq float64
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			l := (0.299*float64(cr) + 0.587*float64(cg) + 0.114*float64(cb)) / 257
			n++
			sum += l
			sq += l * l
		}
	}
	if n == 0 {
		return 0
	}
	m := sum / n
	return sq/n - m*m
}

var _ = image.Point{}
var _ = strings.TrimSpace
