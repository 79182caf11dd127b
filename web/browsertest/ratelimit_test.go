package browsertest

import "testing"

// TestTooFastSaysSo: when the server closes the page's connection for
// sending faster than its limits, the page says so in words (and does not
// reload itself to do it again).
func TestTooFastSaysSo(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	albert := b.page("Albert")
	albert.login(url, albert.name)
	// a page that stops pacing and asks for the table list 400 times at once
	eval[bool](albert, `(() => { const c = window.bomberApp.client; c._rate = 0; for (let i = 0; i < 400; i++) c.listTables().catch(() => {}); return true; })()`)
	albert.wait("the reason in words", `document.body.classList.contains('offline') && !document.querySelector('#toast').hidden && document.querySelector('#toast').textContent.includes('sent too much too fast')`)
}
