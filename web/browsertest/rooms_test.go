package browsertest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestInviteLinkHostStartOneRoom is the seeds' game room in the browser:
// Albert creates a private table the host starts and copies its links;
// Beth opens the invite link, logs in and is seated; Cindy opens the watch
// link, logs in and watches; only Albert has a Start button, enabled once
// Beth sits, and his click starts the game; players and the watcher then
// talk in one room.
func TestInviteLinkHostStartOneRoom(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	albert, beth, cindy := b.page("Albert"), b.page("Beth"), b.page("Cindy")
	albert.login(url, "Albert")
	albert.do("the host starts", chromedp.SetValue(chromedp.CSS("#start-mode"), "host"))
	id := albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3"}, true)
	albert.wait("the invite links", `!document.querySelector('#invite-link-box').hidden && document.querySelector('#invite-link').value.includes('#t=')`)
	albert.click("#copy-invite")
	albert.wait("the copy said", `[...document.querySelectorAll('#table-chat-log li')].some(l => l.textContent.startsWith('Link copied'))`)
	join := eval[string](albert, `document.querySelector('#invite-link').value`)
	watch := eval[string](albert, `document.querySelector('#watch-link').value`)
	code := eval[string](albert, `window.bomberApp.client.table.code`)
	if want := "#t=" + strconv.Itoa(id) + "&c=" + code; !strings.HasSuffix(join, want) || watch != join+"&w=1" {
		t.Fatalf("links %q and %q; want them to end %q (and &w=1)", join, watch, want)
	}
	albert.wait("no Start while a seat is free", `document.querySelector('#ready').textContent === 'Start game' && document.querySelector('#ready').disabled`)

	// Beth opens the link, is asked to log in, and sits down.
	for _, p := range []struct {
		pg   *page
		link string
		note string
	}{{beth, join, "join"}, {cindy, watch, "watch"}} {
		p.pg.do("open the link", chromedp.Navigate(p.link), chromedp.WaitVisible(chromedp.CSS("#login-note")))
		p.pg.wait("the note", `document.querySelector('#login-note').textContent.includes('`+p.note+` table #`+strconv.Itoa(id)+`')`)
		p.pg.fill("#name", p.pg.name)
		p.pg.fill("#password", "123")
		p.pg.click("#login-btn")
		p.pg.wait("the table", `document.body.dataset.screen === 'table' && window.bomberApp.client.tableId === `+strconv.Itoa(id))
		p.pg.wait("the link forgotten", `location.hash === ''`)
	}
	beth.wait("seated", `window.bomberApp.client.seat === 1`)
	cindy.wait("watching", `document.querySelector('#table-title').textContent.includes('watching')`)
	beth.wait("no Start for a guest", `document.querySelector('#ready').hidden && document.querySelector('#board').textContent.includes('host to start')`)

	albert.wait("Start enabled", `!document.querySelector('#ready').disabled`)
	albert.click("#ready")
	for _, p := range []*page{albert, beth, cindy} {
		p.wait("the board", `!!document.querySelector('#board-svg')`)
	}

	// One room: the watcher and the players read each other.
	cindy.fill("#table-chat-input", "good luck both")
	cindy.click("#table-chat-form button")
	beth.fill("#table-chat-input", "thanks Cindy")
	beth.click("#table-chat-form button")
	for _, p := range []*page{albert, beth, cindy} {
		p.wait("both lines", `(() => { const t = [...document.querySelectorAll('#table-chat-log li')].map(l => l.textContent); return t.includes('Cindy: good luck both') && t.includes('Beth: thanks Cindy'); })()`)
	}
}
