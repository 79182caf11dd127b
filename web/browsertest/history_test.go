package browsertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// moveOnce has p make one move of Checkers through the page: click the
// highlighted piece, then each highlighted square, until the board moves on.
func moveOnce(t *testing.T, p *page) {
	t.Helper()
	p.wait("my turn", `document.querySelector('#board-svg')?.dataset.canmove === '1' && !!document.querySelector('#board-svg g[data-sq]:has(rect.ck-hint)')`)
	seq := boardSeq(p)
	for i := 0; i < 8 && boardSeq(p) == seq; i++ {
		pick := eval[string](p, `document.querySelector('#board-svg').dataset.pick`)
		if !p.tryClick(`#board-svg g[data-sq]:has(rect.ck-hint)`) {
			break
		}
		p.wait("the board redrawn", fmt.Sprintf(`(() => { const b = document.querySelector('#board-svg'); return b.dataset.seq !== %q || b.dataset.pick !== %q; })()`, seq, pick))
	}
	p.wait("the move made", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
}

// rating reads the checkers rating on p's profile page.
func rating(t *testing.T, p *page) int {
	t.Helper()
	p.wait("the checkers rating", `!!document.querySelector('#profile-ratings [data-rating="checkers"]')`)
	text := eval[string](p, `document.querySelector('#profile-ratings [data-rating="checkers"]').textContent`)
	var n int
	if _, err := fmt.Sscanf(text, "Checkers: %d", &n); err != nil {
		t.Fatalf("rating text %q: %v", text, err)
	}
	return n
}

// TestProfileHistoryReplayInTheBrowser: two people sign up from the page,
// play a rated game of Checkers to its end (one resigns), and each sees on
// their profile page their rating moved (the winner's up, the loser's
// down, both provisional) and the game in their history; the winner steps
// through it move by move with the replay buttons, positions computed by
// the server. Then the loser changes their password and deletes their
// account from the same page, and the winner's history names "(deleted)".
func TestProfileHistoryReplayInTheBrowser(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	ann, bob := b.page("Ann"), b.page("Bob")
	for _, p := range []*page{ann, bob} {
		name := "Hist_" + p.name
		p.do("open the page", chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#login-form")))
		p.fill("#name", name)
		p.fill("#password", "web-password")
		p.click("#signup-btn")
		p.wait("the lobby", `document.body.dataset.screen === 'lobby'`)
	}
	id := ann.create(t, "checkers", map[string]string{"extra": "rated=true"}, false)
	bob.joinFromList(id)
	startGame(ann, bob)
	moveOnce(t, ann)
	moveOnce(t, bob)
	moveOnce(t, ann)
	ann.click("#resign")
	ann.click("#resign-confirm")
	bob.wait("the end", `document.querySelector('#game-info').dataset.ended === '1'`)

	// Both profile pages: the rating moved, the game is in the history.
	results := map[*page]string{ann: "lost", bob: "won"}
	for _, p := range []*page{ann, bob} {
		p.click("#profile-btn")
		p.wait("the profile", `document.body.dataset.screen === 'profile'`)
		// the recorder stores the game a moment after it ends: look again until it is there
		for i := 0; eval[int](p, `document.querySelectorAll('#profile-games [data-game-id]').length`) == 0; i++ {
			if i > 100 {
				t.Fatalf("%s: the game never showed in the history", p.name)
			}
			p.fill("#profile-user", "Hist_"+p.name)
			p.click("#profile-form button")
			p.wait("the profile loaded again", `!!document.querySelector('#profile-games li')`)
		}
		row := eval[string](p, `document.querySelector('#profile-games [data-game-id]').dataset.result`)
		if row != results[p] {
			t.Errorf("%s's history says %q, want %q", p.name, row, results[p])
		}
		r := rating(t, p)
		if (p == bob) != (r > 1500) || r == 1500 {
			t.Errorf("%s's checkers rating after a %s game: %d", p.name, results[p], r)
		}
		if txt := eval[string](p, `document.querySelector('#profile-ratings [data-rating="checkers"]').textContent`); !strings.Contains(txt, "provisional") {
			t.Errorf("%s's first rating is not marked provisional: %q", p.name, txt)
		}
		p.wait("the rating history", `document.querySelectorAll('#profile-history li').length === 1`)
	}
	bob.screenshotOf("#profile", "profile")

	// Replay, move by move, with the buttons.
	bob.click("#profile-games [data-replay]")
	bob.wait("the replay at the start", `document.querySelector('#replay-board')?.dataset.ply === '0' && !!document.querySelector('#replay-svg')`)
	plies, _ := strconv.Atoi(eval[string](bob, `document.querySelector('#replay-info').textContent.match(/of (\d+)/)[1]`))
	if plies != 4 { // three moves and the resignation
		t.Errorf("the replay has %d positions after the start, want 4", plies)
	}
	boards := []string{eval[string](bob, `document.querySelector('#replay-svg').outerHTML`)}
	for ply := 1; ply <= plies; ply++ {
		bob.click("#rp-next")
		bob.wait("the next position", fmt.Sprintf(`document.querySelector('#replay-board').dataset.ply === '%d'`, ply))
		boards = append(boards, eval[string](bob, `document.querySelector('#replay-svg').outerHTML`))
	}
	for ply := 1; ply <= 3; ply++ {
		if boards[ply] == boards[ply-1] {
			t.Errorf("the board did not change with move %d", ply)
		}
	}
	if eval[bool](bob, `document.querySelector('#rp-next').disabled`) != true {
		t.Error("Next move is enabled at the end")
	}
	bob.click("#rp-prev")
	bob.wait("back one move", `document.querySelector('#replay-board').dataset.ply === '3'`)
	bob.screenshotOf("#replay-card", "replay")

	// Account care: a new password, then deletion.
	ann.fill("#pw-current", "web-password")
	ann.fill("#pw-new", "web-password-2")
	ann.click("#pw-btn")
	ann.wait("the password changed", `document.querySelector('#account-note').textContent === 'Password changed.'`)
	ann.fill("#delete-password", "web-password-2")
	ann.click("#delete-confirm")
	ann.click("#delete-btn")
	ann.wait("the login form again", `document.body.dataset.screen === 'login' && document.querySelector('#login-error').textContent.includes('deleted')`)
	bob.fill("#profile-user", "Hist_Bob")
	bob.click("#profile-form button")
	bob.wait("the opponent anonymised", `document.querySelector('#profile-games [data-game-id]')?.textContent.includes('(deleted)')`)
}
