package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPlayersDoNotTrip: what a player met at once on the first page, each
// as it shows on screen.
func TestPlayersDoNotTrip(t *testing.T) {
	url, tcp := startDaemon(t)
	b := newBrowser(t)
	albert, beth := b.page("Albert"), b.page("Beth")
	for _, p := range []*page{albert, beth} {
		p.login(url, p.name)
	}
	checkersGame := func(t *testing.T) {
		t.Helper()
		id := albert.create(t, "checkers", nil, false)
		beth.joinFromList(id)
		startGame(albert, beth)
		albert.wait("Albert to move", `document.querySelector('#board-svg')?.dataset.canmove === '1'`)
	}
	// lobby brings the pages back to the lobby, so a failed subtest does not fail the next
	lobby := func(pages ...*page) {
		for _, p := range pages {
			if eval[string](p, `document.body.dataset.screen`) == "table" {
				leaveAll(p)
			}
		}
	}
	logHas := func(p *page, text string) string {
		return fmt.Sprintf(`[...document.querySelectorAll('#table-chat-log li')].some(l => l.textContent.includes(%q))`, text)
	}

	t.Run("takeback", func(t *testing.T) {
		use(t, albert, beth)
		checkersGame(t)
		albert.fill("#move-input", "11-15")
		albert.click("#move-form button")
		albert.wait("the move listed", `document.querySelectorAll('#moves li').length === 1`)
		albert.click("#offer-takeback")
		beth.wait("the takeback offer", `!document.querySelector('#offer-box').hidden`)
		beth.click("#offer-accept")
		// the one who answered is named, on both pages
		for _, p := range []*page{albert, beth} {
			p.wait("Beth named as agreeing", logHas(p, "Beth agreed to a takeback"))
			if eval[bool](p, logHas(p, "Albert agreed to a takeback")) {
				t.Errorf("%s's page says Albert agreed to his own takeback", p.name)
			}
		}
		// the move taken back leaves the move list, without a reload
		for _, p := range []*page{albert, beth} {
			p.wait("the move list emptied", `document.querySelectorAll('#moves li').length === 0`)
		}
		albert.wait("Albert to move again", `document.querySelector('#board-svg')?.dataset.canmove === '1'`)
		// a double click on Resign does not resign: the confirmation is asked for apart
		albert.doubleClick("#resign")
		albert.fill("#move-input", "11-15")
		albert.click("#move-form button")
		albert.wait("the game still running", `document.querySelectorAll('#moves li').length === 1`)
		// whose turn it is shows to the player who waits
		albert.wait("whose turn", `document.querySelector('#game-info').textContent.startsWith('Waiting for Beth')`)
		if eval[string](albert, `document.querySelector('#game-info').dataset.ended`) == "1" {
			t.Fatal("a double click on Resign resigned")
		}
		// resigning on purpose still works: Resign, then the confirmation
		albert.click("#resign")
		albert.click("#resign-confirm")
		albert.wait("the resignation", `document.querySelector('#game-info').dataset.ended === '1'`)
		// each player is told in words how it ended for them
		albert.wait("You lost", `document.querySelector('#game-info').textContent.startsWith('Game over: You lost')`)
		beth.wait("You won", `document.querySelector('#game-info').textContent.startsWith('Game over: You won')`)
		// a rematch: the one who agreed is named
		albert.click("#offer-rematch")
		beth.wait("the rematch offer", `!document.querySelector('#offer-box').hidden`)
		beth.click("#offer-accept")
		albert.wait("Beth named as agreeing", logHas(albert, "Beth agreed to a rematch"))
		leaveAll(albert, beth)
	})

	t.Run("aeroplane-roll", func(t *testing.T) {
		use(t, albert, beth)
		// roll until a roll cannot move (any face but a six while every
		// piece is in its camp, or a third six): its face shows on the die
		// and in the move list. Once both players have a piece out every
		// roll moves, so after that a new game is tried.
		for game := 0; ; game++ {
			if game == 6 {
				t.Fatal("six games and every roll could move")
			}
			lobby(albert, beth)
			id := albert.create(t, "aeroplane", nil, false)
			beth.joinFromList(id)
			startGame(albert, beth)
			if lostRoll(t, albert, beth) {
				leaveAll(albert, beth)
				break
			}
			leaveAll(albert, beth)
		}
	})

	t.Run("chat", func(t *testing.T) {
		use(t, albert, beth)
		lobby(albert, beth)
		// 100 emoji are 400 bytes: over the server's 200, so the line stays
		// in the box with a reason, and is not lost
		long := strings.Repeat("😀", 100)
		albert.fill("#lobby-chat-input", long)
		albert.click("#lobby-chat-form button")
		albert.wait("a reason", `!document.querySelector('#toast').hidden && document.querySelector('#toast').textContent.includes('too long')`)
		if got := eval[string](albert, `document.querySelector('#lobby-chat-input').value`); got != long {
			t.Errorf("the refused line was not kept in the box (%d characters left)", len([]rune(got)))
		}
		// 50 emoji are 200 bytes: said
		albert.fill("#lobby-chat-input", strings.Repeat("😀", 50))
		albert.click("#lobby-chat-form button")
		beth.wait("the 50 emoji", fmt.Sprintf(`[...document.querySelectorAll('#lobby-chat-log li')].some(l => l.textContent.includes(%q))`, strings.Repeat("😀", 50)))
		albert.wait("the box emptied once said", `document.querySelector('#lobby-chat-input').value === ''`)
		// lines faster than the server's chat limit (a burst of 5, then 1 a
		// second): the line it refuses stays in the box, with the reason
		refused := false
		for i := 0; i < 8 && !refused; i++ {
			line := fmt.Sprintf("line %d", i)
			albert.fill("#lobby-chat-input", line)
			albert.click("#lobby-chat-form button")
			albert.wait("the line said or refused", `document.querySelector('#lobby-chat-input').value === '' || (!document.querySelector('#toast').hidden && document.querySelector('#toast').textContent.includes('too fast'))`)
			if got := eval[string](albert, `document.querySelector('#lobby-chat-input').value`); got != "" {
				refused = true
				if got != line {
					t.Errorf("the box holds %q after %q was refused", got, line)
				}
			}
		}
		if !refused {
			t.Error("eight lines in a row were all said: the chat limit was never reached")
		}
	})

	t.Run("watch-with-code", func(t *testing.T) {
		use(t, albert, beth)
		lobby(albert, beth)
		id := albert.create(t, "dots", nil, true)
		code := eval[string](albert, `window.bomberApp.client.table.code`)
		beth.fill("#code-table", fmt.Sprint(id))
		beth.fill("#code", code)
		beth.click("#code-watch")
		beth.wait("watching the private table", fmt.Sprintf(`document.body.dataset.screen === 'table' && window.bomberApp.client.tableId === %d && window.bomberApp.client.seat === 255`, id))
		leaveAll(beth, albert)
	})

	t.Run("duel-opponent-left", func(t *testing.T) {
		use(t, albert, beth)
		lobby(albert, beth)
		larry := dialRef(t, tcp, "Larry")
		albert.wait("Larry online", `!!document.querySelector('#users [data-user="Larry"] .ref-invite')`)
		albert.click(`#users [data-user="Larry"] .ref-invite`)
		larry.expect(0x0a)
		larry.send(0x0b, []byte{1})
		albert.wait("the duel", `document.body.dataset.screen === 'duel'`)
		larry.c.Close() // Larry's client goes away mid-game
		albert.wait("the end of the duel", `document.querySelector('#duel-info').dataset.over === '1'`)
		if s := eval[string](albert, `document.querySelector('#duel-info').textContent`); strings.Contains(s, "Larry won") || !strings.Contains(s, "Larry left") {
			t.Errorf("Albert's page says %q when Larry left", s)
		}
		albert.click("#duel-back")
		albert.wait("the lobby", `document.body.dataset.screen === 'lobby'`)
	})

	t.Run("login-taken-over", func(t *testing.T) {
		use(t, albert, beth)
		lobby(albert, beth)
		other := b.page("Albert again")
		other.login(url, "Albert")
		albert.wait("a notice", `document.body.dataset.screen === 'login' && document.querySelector('#login-error').textContent.includes('another')`)
	})

	t.Run("failed-login", func(t *testing.T) {
		p := b.page("Cindy")
		use(t, p)
		p.do("open the page", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#login-form")))
		p.fill("#name", "Cindy")
		p.fill("#password", "wrong")
		p.click("#login-btn")
		p.wait("the refusal", `document.querySelector('#login-error').textContent !== ''`)
		p.fill("#password", "123")
		p.click("#login-btn")
		p.wait("the lobby", `document.body.dataset.screen === 'lobby'`)
		if eval[bool](p, `document.body.classList.contains('offline') || !document.querySelector('#toast').hidden`) {
			t.Errorf("after a wrong password and a good one the page says %q and is offline: %v", eval[string](p, `document.querySelector('#toast').textContent`), eval[bool](p, `document.body.classList.contains('offline')`))
		}
	})
}

// lostRoll rolls for whoever is to move until a roll cannot move, and
// checks that its face shows in the move list and on the die; false when
// twenty rolls all moved.
func lostRoll(t *testing.T, albert, beth *page) bool {
	t.Helper()
	for range 20 {
		p := mover(t, []*page{albert, beth})
		seq := boardSeq(p)
		p.mouse("#ae-roll")
		p.wait("the roll answered", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
		if movable := eval[string](p, `document.querySelector('#board-svg g.ae-movable')?.dataset.piece ?? ''`); movable != "" {
			seq := boardSeq(p)
			p.mouse("#board-svg g.ae-movable")
			p.wait("the piece moved", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
			continue
		}
		// (or a third six in a row, which is lost too)
		p.wait("the lost roll in the move list", `/rolled [1-6]: (no piece can move|three sixes, back to camp)$/.test([...document.querySelectorAll('#moves li')].at(-1)?.textContent)`)
		face := eval[string](p, `[...document.querySelectorAll('#moves li')].at(-1).textContent.match(/rolled (\d)/)[1]`)
		p.wait("the die showing it", fmt.Sprintf(`document.querySelector('#board-svg .ae-die').dataset.face === %q && document.querySelector('#board-svg .ae-die').textContent.startsWith(%q)`, face, face))
		return true
	}
	return false
}
