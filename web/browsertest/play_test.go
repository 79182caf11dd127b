package browsertest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPlayAllGamesInTheBrowser is the web client's whole scenario: Albert and
// Beth log in in two browser contexts, chat in the lobby, and play a whole
// game of each of the five games through the page (clicks and keys); Cindy
// watches the Dots and Boxes game and sees its moves. Each finished board is
// saved as a screenshot, and no page may log a console error.
func TestPlayAllGamesInTheBrowser(t *testing.T) {
	url, tcp := startDaemon(t)
	b := newBrowser(t)
	albert, beth, cindy := b.page("Albert"), b.page("Beth"), b.page("Cindy")
	for _, p := range []*page{albert, beth, cindy} {
		t.Logf("%s: page load to lobby %v", p.name, p.login(url, p.name))
	}
	albert.wait("Beth in Albert's user list", `!!document.querySelector('#users [data-user="Beth"]')`)

	// Lobby chat reaches the others.
	albert.fill("#lobby-chat-input", "hello from Albert")
	albert.click("#lobby-chat-form button")
	beth.wait("Albert's lobby line", `[...document.querySelectorAll('#lobby-chat-log li')].some(l => l.textContent.includes('hello from Albert'))`)

	t.Run("dots", func(t *testing.T) {
		use(t, albert, beth, cindy)
		id := albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3"}, false)
		beth.joinFromList(id)
		cindy.refresh(id)
		cindy.click(fmt.Sprintf(`[data-watch="%d"]`, id))
		cindy.wait("the table as watcher", `document.body.dataset.screen === 'table'`)
		startGame(albert, beth)
		// The title and the offers come from the catalogue: Dots and Boxes
		// allows a takeback but no draw.
		albert.wait("the offers Dots and Boxes allows", `document.querySelector('#table-title').textContent.includes('Dots and Boxes') &&
			!document.querySelector('#offer-takeback').hidden && document.querySelector('#offer-draw').hidden`)
		beth.fill("#table-chat-input", "good luck")
		beth.click("#table-chat-form button")
		albert.wait("Beth's table line", `[...document.querySelectorAll('#table-chat-log li')].some(l => l.textContent.includes('good luck'))`)
		playUntilEnd(t, []*page{albert, beth}, func(p *page) {
			if p == beth { // Beth uses the keyboard: focus a line, press Enter
				p.do("focus a line", chromedp.Focus(chromedp.CSS(`#board-svg g.hot[data-line]`)), chromedp.KeyEvent("\r"))
				return
			}
			p.clickJS(`#board-svg g.hot[data-line]`)
		}, cindy)
		// Players and watchers share the table's one room.
		cindy.fill("#table-chat-input", "nice game")
		cindy.click("#table-chat-form button")
		cindy.wait("the watcher's line", `[...document.querySelectorAll('#table-chat-log li')].some(l => l.textContent === 'Cindy: nice game')`)
		albert.wait("the watcher's line at the player's", `[...document.querySelectorAll('#table-chat-log li')].some(l => l.textContent === 'Cindy: nice game')`)
		n := eval[int](albert, `document.querySelectorAll('#moves li').length`)
		if n != 12 {
			t.Errorf("a 3x3-dot game has 12 lines; Albert's move list has %d", n)
		}
		cindy.wait("the watcher's move list", `document.querySelectorAll('#moves li').length === 12`)
		cindy.wait("the watcher's board", `document.querySelectorAll('#board-svg [data-drawn="1"]').length === 12`)
		if boxes := eval[int](cindy, `document.querySelectorAll('#board-svg [data-box][data-owner]:not([data-owner=""])').length`); boxes != 4 {
			t.Errorf("the watcher sees %d boxes coloured, want 4", boxes)
		}
		albert.screenshot("dots")
		albert.phoneShot("dots")
		// On a phone-sized screen the watcher's page fits the width.
		cindy.do("phone viewport", chromedp.EmulateViewport(390, 844))
		cindy.wait("no sideways scrolling", `document.documentElement.scrollWidth <= window.innerWidth`)
		cindy.screenshotOf("body", "phone-watcher")
		cindy.do("desktop viewport", chromedp.EmulateViewport(1100, 850))
		// Step through the finished game from its start.
		albert.click("#replay-start")
		albert.wait("replay at the start", `document.querySelector('#game-info').textContent.startsWith('Replay 0/12')`)
		if n := eval[int](albert, `document.querySelectorAll('#board-svg [data-drawn="1"]').length`); n != 0 {
			t.Errorf("replay start shows %d lines drawn", n)
		}
		albert.click("#replay-next")
		albert.click("#replay-next")
		albert.wait("replay after two moves", `document.querySelector('#game-info').textContent.startsWith('Replay 2/12') && document.querySelectorAll('#board-svg [data-drawn="1"]').length === 2`)
		albert.click("#replay-end")
		leaveAll(cindy, albert, beth)
	})

	t.Run("dots-computer", func(t *testing.T) {
		use(t, albert, beth, cindy)
		// A computer takes the other seat; that counts as Albert's Ready.
		albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3"}, false)
		albert.click(`[data-bot="1"]`)
		albert.wait("the computer seated", `document.querySelector('#seats [data-seat="1"]').textContent.includes('🤖')`)
		if eval[bool](albert, `!!document.querySelector('#seats [data-bot="1"]')`) {
			t.Error("Add computer is still offered on the seat the computer holds")
		}
		albert.wait("the board", `!!document.querySelector('#board-svg')`)
		playUntilEnd(t, []*page{albert}, func(p *page) {
			p.clickJS(`#board-svg g.hot[data-line]`)
		})
		if n := eval[int](albert, `document.querySelectorAll('#moves li').length`); n != 12 {
			t.Errorf("Albert's move list has %d lines, want 12", n)
		}
		leaveAll(albert)
	})

	t.Run("duel", func(t *testing.T) {
		use(t, albert, beth, cindy)
		if tcp == "" {
			t.Skip("no TCP address (BOMBER_BROWSER_TCP) for the reference client")
		}
		duelWithReferenceClient(t, albert, tcp)
	})

	t.Run("checkers", func(t *testing.T) {
		use(t, albert, beth, cindy)
		// A short endgame (every line ends within three plies).
		// fen goes through "More options", the free key=value field.
		id := albert.create(t, "checkers", map[string]string{"extra": "fen=W:W21,25:B14"}, false)
		albert.fill("#invite-name", "Beth")
		albert.click("#invite-form button")
		beth.wait("Albert's invitation", `!!document.querySelector('#invites .accept-invite')`)
		beth.click("#invites .accept-invite")
		beth.wait("the table", fmt.Sprintf(`document.body.dataset.screen === 'table' && window.bomberApp.client.tableId === %d`, id))
		startGame(albert, beth)
		albert.wait("the offers Checkers allows", `!document.querySelector('#offer-takeback').hidden && !document.querySelector('#offer-draw').hidden`)
		playUntilEnd(t, []*page{albert, beth}, func(p *page) {
			// Click the highlighted piece, then each highlighted square, until the move goes.
			seq := boardSeq(p)
			for i := 0; i < 8 && boardSeq(p) == seq; i++ {
				pick := eval[string](p, `document.querySelector('#board-svg').dataset.pick`)
				if !p.tryClick(`#board-svg g[data-sq]:has(rect.ck-hint)`) {
					break // the move went and the board moved on
				}
				p.wait("the board redrawn", fmt.Sprintf(`(() => { const b = document.querySelector('#board-svg'); return b.dataset.seq !== %q || b.dataset.pick !== %q; })()`, seq, pick))
			}
		})
		albert.screenshot("checkers")
		albert.phoneShot("checkers")
		// A rematch offered and accepted starts the next game at once;
		// Albert then resigns it (Resign asks for a confirmation below it).
		albert.click("#offer-rematch")
		beth.wait("the rematch offer", `!document.querySelector('#offer-box').hidden && document.querySelector('#offer-text').textContent.includes('offers a rematch')`)
		beth.click("#offer-accept")
		for _, p := range []*page{albert, beth} {
			p.wait("the second game", `document.querySelector('#game-info').dataset.ended === '0' && document.querySelector('#board-svg')?.dataset.seq === '0'`)
		}
		albert.click("#resign")
		albert.click("#resign-confirm")
		// Both pages show the result before anyone leaves: the end hides
		// Resign and shows Offer rematch, which moves Leave table, and a
		// click aimed at Leave while Albert's page is still redrawing
		// lands beside it (CI saw Albert stay at the table).
		for _, p := range []*page{beth, albert} {
			p.wait("Beth's win by resignation", `document.querySelector('#game-info').dataset.ended === '1' && /You won!|You lost: Beth won/.test(document.querySelector('#game-info').textContent) && !document.querySelector('#offer-rematch').hidden`)
		}
		leaveAll(albert, beth)
	})

	t.Run("bomber", func(t *testing.T) {
		use(t, albert, beth, cindy)
		id := albert.create(t, "bomber", nil, false)
		beth.joinFromList(id)
		startGame(albert, beth)
		planes := [][2]string{{"02", "32"}, {"07", "37"}, {"52", "82"}}
		for i, p := range []*page{albert, beth} {
			for k, pl := range planes {
				// the cells are offered once the server's hints are in
				p.wait("the head offered", fmt.Sprintf(`!!document.querySelector('#board-svg [data-grid="%d"] [data-cell="%s"].cell-hint')`, i, pl[0]))
				p.clickJS(fmt.Sprintf(`#board-svg [data-grid="%d"] [data-cell="%s"]`, i, pl[0]))
				p.wait("the head picked", `!!document.querySelector('#board-svg .cell-pick')`)
				p.clickJS(fmt.Sprintf(`#board-svg [data-grid="%d"] [data-cell="%s"]`, i, pl[1]))
				p.wait("the plane drawn", fmt.Sprintf(`document.querySelector('#controls').textContent.includes('Planes drawn: %d/3')`, k+1))
			}
			p.click("#bomber-place")
		}
		albert.wait("guessing", `document.querySelector('#board-svg').dataset.canmove === '1'`)
		guess := func(p *page, opp int, cells ...string) {
			seq := boardSeq(p)
			if len(cells) == 2 {
				p.clickJS("#mode-double")
			}
			for _, c := range cells {
				p.clickJS(fmt.Sprintf(`#board-svg [data-grid="%d"] [data-cell="%s"]`, opp, c))
			}
			p.wait("the guess answered", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
		}
		guess(albert, 1, "99") // a miss
		// Beth reloads the page mid-game: it logs in again and resumes her seat.
		beth.do("reload", chromedp.Reload())
		beth.wait("the seat taken back", `document.body.dataset.screen === 'table' && document.querySelector('#board-svg')?.dataset.canmove === '1'`)
		beth.wait("the moves so far", `[...document.querySelectorAll('#moves li')].some(l => l.textContent === 'Albert: 99')`)
		albert.wait("Beth back", `[...document.querySelectorAll('#table-chat-log li')].some(l => l.textContent.includes('Beth is back'))`)
		guess(beth, 0, "02", "32")
		for k := 0; k < 2; k++ {
			albert.wait("Albert's turn", `document.querySelector('#board-svg').dataset.canmove === '1'`)
			guess(albert, 1, planes[k][0], planes[k][1])
			beth.wait("Beth's turn", `document.querySelector('#board-svg').dataset.canmove === '1'`)
			guess(beth, 0, planes[k+1][0], planes[k+1][1])
		}
		for _, p := range []*page{albert, beth} {
			p.wait("the end", `document.querySelector('#game-info').dataset.ended === '1'`)
		}
		if s := eval[string](albert, `document.querySelector('#game-info').textContent`); !strings.Contains(s, "You lost: Beth won") {
			t.Errorf("Albert's page says %q, want Beth's win", s)
		}
		// the board is drawn from the view the page asks for after each
		// move, whose answer may come in after the game's end (CI once
		// read the board between the two and saw 2 heads)
		albert.wait("all three of Albert's plane heads shown as found", `document.querySelectorAll('#board-svg [data-grid="0"] .cell-hithead').length === 3`)
		if n := eval[int](albert, `document.querySelectorAll('#board-svg [data-grid="1"] .cell-miss').length`); n != 1 {
			t.Errorf("Albert sees %d misses on Beth's grid, want 1", n)
		}
		// after the end the loser sees where the winner's planes were
		// (her plane 52-82, never found: its head and its tail's middle)
		albert.wait("Beth's unfound plane shown to Albert", `(() => { const c = (n) => document.querySelector('#board-svg [data-grid="1"] [data-cell="' + n + '"]').classList; return c('52').contains('cell-head') && c('82').contains('cell-plane'); })()`)
		albert.screenshot("bomber-loser")
		beth.screenshot("bomber")
		beth.phoneShot("bomber")
		leaveAll(albert, beth)
	})

	t.Run("aeroplane", func(t *testing.T) {
		use(t, albert, beth, cindy)
		id := albert.create(t, "aeroplane", nil, false)
		beth.joinFromList(id)
		startGame(albert, beth)
		shot := false
		playUntilEnd(t, []*page{albert, beth}, func(p *page) {
			if !shot && eval[int](p, `document.querySelectorAll('#board-svg [data-pos]:not([data-pos="0"])').length`) >= 3 {
				albert.screenshot("aeroplane-midgame")
				shot = true
			}
			// The keyboard: r rolls, 1-4 move a piece.
			key := "r"
			if piece := eval[string](p, `document.querySelector('#board-svg g.ae-movable')?.dataset.piece ?? ''`); piece != "" {
				key = fmt.Sprint(int(piece[len(piece)-1]-'0') + 1)
			}
			if os.Getenv("DEBUG_AE") != "" {
				t.Logf("%s %s %s", p.name, key, eval[string](p, `JSON.stringify([document.querySelector("#board-svg").dataset.seq, Array.from(bomberApp.client.view.cells), Array.from(bomberApp.client.view.extra)])`))
			}
			eval[bool](p, `(document.activeElement?.blur(), true)`) // keys typed into a text box are text
			p.do("press "+key, chromedp.KeyEvent(key))
		})
		albert.screenshot("aeroplane")
		albert.phoneShot("aeroplane")
		leaveAll(albert, beth)
	})

	t.Run("paisho", func(t *testing.T) {
		use(t, albert, beth, cindy)
		id := albert.create(t, "paisho", map[string]string{"move-limit": "4", "clock-total": "600"}, true)
		code := eval[string](albert, `window.bomberApp.client.table.code`)
		if len(code) != 6 {
			t.Fatalf("private table without a join code: %q", code)
		}
		beth.fill("#code-table", fmt.Sprint(id))
		beth.fill("#code", code)
		beth.click("#code-form button")
		beth.wait("the table", `document.body.dataset.screen === 'table'`)
		startGame(albert, beth)
		// The table has a ten-minute clock per player; the host's runs.
		albert.wait("the clocks", `/⏱ (10:00|9:5\d)/.test(document.querySelector('[data-clock="0"]')?.textContent) && /⏱ 10:00/.test(document.querySelector('[data-clock="1"]')?.textContent)`)
		turn := func(p *page, clicks ...string) {
			seq := boardSeq(p)
			for _, c := range clicks {
				p.clickJS(c)
			}
			p.wait("the move answered", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
		}
		hand := func(seat int, tile string) string {
			return fmt.Sprintf(`.ps-hand[data-hand="%d"] .ps-tile[data-tile="%s"]`, seat, tile)
		}
		pt := func(xy string) string { return fmt.Sprintf(`#board-svg [data-pt="%s"]`, xy) }
		turn(albert, hand(0, "L"), pt("0,0"))
		beth.wait("Beth's turn", `document.querySelector('#board-svg').dataset.canmove === '1'`)
		turn(beth, hand(1, "L"), pt("3,3"))
		albert.wait("Albert's turn", `document.querySelector('#board-svg').dataset.canmove === '1'`)
		albert.clickJS(pt("0,0"))
		albert.wait("the Lotus selected", `!!document.querySelector('#board-svg .ps-sel')`)
		turn(albert, pt("0,1"))
		beth.wait("Beth's turn", `document.querySelector('#board-svg').dataset.canmove === '1'`)
		turn(beth, hand(1, "W"), pt("-3,-2"))
		for _, p := range []*page{albert, beth} {
			p.wait("the end", `document.querySelector('#game-info').dataset.ended === '1'`)
		}
		if s := eval[string](beth, `document.querySelector('#game-info').textContent`); !strings.Contains(s, "Drawn") || !strings.Contains(s, "move limit") {
			t.Errorf("Beth's page says %q, want a draw by the move limit", s)
		}
		albert.screenshot("paisho")
		albert.phoneShot("paisho")
		leaveAll(albert, beth)
	})
}

// create fills the New table form and returns the new table's id.
func (p *page) create(t *testing.T, game string, opts map[string]string, private bool) int {
	t.Helper()
	p.wait("the lobby", `document.body.dataset.screen === 'lobby'`)
	eval[bool](p, fmt.Sprintf(`(() => { const g = document.querySelector('#game'); g.value = %q; g.dispatchEvent(new Event('change')); return true; })()`, game))
	for k, v := range opts {
		if strings.HasPrefix(k, "clock-") {
			p.fill("#"+k, v)
		} else {
			p.fill("#opt-"+k, v)
		}
	}
	if private {
		p.click("#private")
	}
	p.click("#create-btn")
	p.wait("the new table", `document.body.dataset.screen === 'table' && !!window.bomberApp.client.table`)
	return eval[int](p, `window.bomberApp.client.tableId`)
}

func (p *page) refresh(id int) {
	p.t.Helper()
	p.click("#refresh")
	p.wait("the table in the list", fmt.Sprintf(`!!document.querySelector('#tables [data-table="%d"]')`, id))
}

func (p *page) joinFromList(id int) {
	p.t.Helper()
	p.refresh(id)
	p.click(fmt.Sprintf(`[data-join="%d"]`, id))
	p.wait("the table", `document.body.dataset.screen === 'table'`)
}

// startGame has the host press Start game (the form's default) or every
// player press Ready, and waits for the board. It waits for what the page
// shows, not for the client's data: the page redraws on the next animation
// frame, so a button read or clicked right after the data arrives may still
// be the one drawn before (a Start game still disabled, or a Ready about to
// be hidden, which the click then waits for in vain).
func startGame(pages ...*page) {
	for _, p := range pages {
		p.wait("a full table on screen", `(() => {
			const c = window.bomberApp.client;
			const seats = c.table?.seats ?? [];
			const shown = Array.from(document.querySelectorAll('#seats li'));
			return seats.length > 0 && seats.every(s => s.name) &&
				document.querySelector('#table-title').textContent.startsWith('Table #' + c.tableId + ':') &&
				shown.length === seats.length && !shown.some(li => li.textContent.includes('free seat'));
		})()`)
		if eval[bool](p, `!document.querySelector('#ready').hidden`) {
			p.wait("the button enabled", `!document.querySelector('#ready').disabled`)
			p.click("#ready")
		}
	}
	for _, p := range pages {
		p.wait("the board", `!!document.querySelector('#board-svg')`)
	}
}

func boardSeq(p *page) string {
	return eval[string](p, `document.querySelector('#board-svg')?.dataset.seq ?? ''`)
}

// playUntilEnd lets whichever player may move act, until the game ends;
// after each move every page (watchers too) shows the new position before
// the next one.
func playUntilEnd(t *testing.T, players []*page, act func(*page), watchers ...*page) {
	t.Helper()
	all := append(append([]*page{}, players...), watchers...)
	for moves := 0; ; moves++ {
		if moves > 2000 {
			t.Fatal("the game did not end in 2000 actions")
		}
		if eval[string](players[0], `document.querySelector('#game-info').dataset.ended`) == "1" {
			break
		}
		var mover *page
		for _, p := range players {
			if eval[string](p, `document.querySelector('#board-svg').dataset.canmove`) == "1" {
				mover = p
				break
			}
		}
		if mover == nil {
			mover = waitMover(t, players)
			if mover == nil {
				continue // the game ended
			}
		}
		seq := boardSeq(mover)
		act(mover)
		mover.wait("the move answered", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q || document.querySelector('#game-info').dataset.ended === '1'`, seq))
		now := boardSeq(mover)
		for _, p := range all {
			p.wait("the new position", fmt.Sprintf(`Number(document.querySelector('#board-svg')?.dataset.seq) >= %s`, now))
		}
	}
	for _, p := range all {
		p.wait("the end", `document.querySelector('#game-info').dataset.ended === '1'`)
	}
}

// leaveAll leaves the table on every page, watchers first.
func leaveAll(pages ...*page) {
	for _, p := range pages {
		p.click("#leave")
		p.wait("the lobby", `document.body.dataset.screen === 'lobby'`)
	}
}

// waitMover waits until one of the players may move (nil: the game ended).
func waitMover(t *testing.T, players []*page) *page {
	t.Helper()
	for tries := 0; tries < 100; tries++ {
		for _, p := range players {
			ctx, cancel := context.WithTimeout(p.ctx, 100*time.Millisecond)
			v, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => { if (document.querySelector('#game-info').dataset.ended === '1') return 'end'; return document.querySelector('#board-svg')?.dataset.canmove === '1' ? 'move' : ''; })()`, chromedp.WithPollingTimeout(100*time.Millisecond)))
			cancel()
			if err == nil && v == "end" {
				return nil
			}
			if err == nil && v == "move" {
				return p
			}
		}
	}
	var states []string
	for _, p := range players {
		states = append(states, p.state())
	}
	t.Fatalf("nobody may move:\n%s", strings.Join(states, "\n"))
	return nil
}

// use points the pages' failures at the running subtest.
func use(t *testing.T, pages ...*page) {
	for _, p := range pages {
		p.t = t
	}
}
