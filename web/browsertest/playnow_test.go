package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPlayNowInTheBrowser: two people press Play now for the same game and
// time control; the first sees, in words, whom it is looking for while it
// waits; both end up at the same table, whose game has started.
func TestPlayNowInTheBrowser(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	albert, beth := b.page("Albert"), b.page("Beth")
	albert.login(url, "Albert")
	beth.login(url, "Beth")
	for _, p := range []*page{albert, beth} {
		p.do("see Play now", chromedp.WaitVisible(chromedp.CSS("#seek-btn")))
		p.do("choose dots", chromedp.SetValue(chromedp.CSS("#seek-game"), "dots"))
		p.do("choose 3 minutes", chromedp.SetValue(chromedp.CSS("#seek-clock"), "3"))
	}
	albert.click("#seek-btn")
	albert.wait("the wait shown", `document.querySelector('#seek-status')?.textContent.includes('Looking for an opponent rated')`)
	status := eval[string](albert, `document.querySelector('#seek-status').textContent`)
	if !strings.Contains(status, "1500") || !strings.Contains(status, "provisional") {
		t.Errorf("the wait says %q", status)
	}
	albert.screenshotOf("#play-now", "play-now-waiting")
	beth.click("#seek-btn")
	for _, p := range []*page{albert, beth} {
		p.wait("the paired table", `document.body.dataset.screen === 'table' && window.bomberApp?.client?.view != null`)
	}
	ta := eval[float64](albert, `window.bomberApp.client.tableId`)
	tb := eval[float64](beth, `window.bomberApp.client.tableId`)
	if ta != tb || ta == 0 {
		t.Errorf("Albert is at table %v, Beth at %v", ta, tb)
	}
	if title := eval[string](albert, `document.querySelector('#table-title').textContent`); !strings.Contains(title, "Dots") {
		t.Errorf("the paired table reads %q", title)
	}
	albert.screenshot("play-now-paired")
}
