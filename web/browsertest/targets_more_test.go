package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestClickTargetsDotsAeroBomber is the targets test (the one of Checkers and
// Pai Sho is TestClickTheCentreOfEveryTarget) of
// Dots and Boxes, Aeroplane Chess and Bomber, on a desktop window and on a
// phone's: on every turn the centre of every line that may be drawn, of
// the die that may be rolled, of every piece that may move and of every
// cell that may take a plane or a guess hits it, and the player's mouse
// click at the centre of one plays. Bomber's planes are drawn from the
// server's placement hints: a highlighted head, then a highlighted tail;
// a cell that can take no head is not offered.
func TestClickTargetsDotsAeroBomber(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	albert, beth := b.page("Albert"), b.page("Beth")
	for _, p := range []*page{albert, beth} {
		p.login(url, p.name)
	}
	players := []*page{albert, beth}
	// hits checks the targets once the page has drawn what it last heard
	// (the update, then its View and legal moves each redraw the board: a
	// check across a redraw would measure elements no longer on screen)
	hits := func(t *testing.T, p *page, sel, what string) {
		t.Helper()
		var miss []string
		for try := 0; try < 3; try++ {
			p.wait(what, fmt.Sprintf(`(() => { const c = window.bomberApp.client, b = document.querySelector('#board-svg');
				return document.querySelectorAll(%q).length > 0 && b.dataset.seq === String(c.view?.seq) && (c.legal == null || c.legal.seq === c.view?.seq); })()`, sel))
			if miss = p.unhit(sel); len(miss) == 0 {
				return
			}
		}
		t.Fatalf("%s: the centre of %d %s does not hit it: %v", p.name, len(miss), what, miss)
	}
	played := func(p *page, seq string) {
		p.wait("the move played", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q || document.querySelector('#game-info').dataset.ended === '1'`, seq))
	}
	for _, phone := range []bool{false, true} {
		name := "desktop"
		if phone {
			name = "phone"
			for _, p := range players {
				p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
			}
		}
		t.Run("dots-"+name, func(t *testing.T) {
			use(t, albert, beth)
			id := albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3"}, false)
			beth.joinFromList(id)
			startGame(albert, beth)
			playUntilEnd(t, players, func(p *page) {
				hits(t, p, `#board-svg g.hot[data-line]`, "lines that may be drawn")
				p.mouse(`#board-svg g.hot[data-line]`)
			})
			// the game's end may show before the board is drawn again
			// with the last line: wait for the page to draw it
			albert.wait("all 12 lines drawn by mouse", `document.querySelectorAll('#board-svg [data-drawn="1"]').length === 12`)
			for _, p := range players { // the last line drawn stands out, on both pages
				p.wait("one line marked as the last one drawn", `document.querySelectorAll('#board-svg g[data-last="1"] line.drawn.last').length === 1`)
			}
			leaveAll(albert, beth)
		})
		t.Run("aeroplane-"+name, func(t *testing.T) {
			use(t, albert, beth)
			id := albert.create(t, "aeroplane", nil, false)
			beth.joinFromList(id)
			startGame(albert, beth)
			moved := 0
			for turn := 0; turn < 40 && moved < 3; turn++ {
				p := mover(t, players)
				seq := boardSeq(p)
				if eval[bool](p, `!!document.querySelector('#board-svg .ae-die.hot')`) {
					hits(t, p, `#board-svg .ae-die.hot`, "die")
					p.mouse(`#board-svg .ae-die.hot`)
				} else {
					hits(t, p, `#board-svg g.ae-movable`, "pieces that may move")
					p.mouse(`#board-svg g.ae-movable`)
					moved++
					played(p, seq)
					// the piece that moved is marked, on both pages
					for _, q := range players {
						q.wait("the moved piece marked", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q && document.querySelectorAll('#board-svg g.ae-last').length === 1`, seq))
						// the move list numbers the piece as the board labels it
						if said, label := eval[string](q, `[...document.querySelectorAll('#moves li')].pop()?.textContent ?? ''`), eval[string](q, `document.querySelector('#board-svg g.ae-last text.ae-label').textContent`); !strings.Contains(said, "piece "+label) {
							t.Errorf("%s: the move list says %q of the piece labelled %s", q.name, said, label)
						}
					}
					continue
				}
				played(p, seq)
			}
			if moved == 0 {
				t.Error("forty turns and no piece could move")
			}
			leaveAll(albert, beth)
		})
		t.Run("bomber-"+name, func(t *testing.T) {
			use(t, albert, beth)
			id := albert.create(t, "bomber", nil, false)
			beth.joinFromList(id)
			startGame(albert, beth)
			planes := [][2]string{{"02", "32"}, {"07", "37"}, {"52", "82"}}
			for i, p := range players {
				grid := fmt.Sprintf(`#board-svg [data-grid="%d"]`, i)
				for k, pl := range planes {
					// the server's hints: the heads the next plane may
					// have, each cell highlighted and clickable at its
					// centre; a cell that can take no head is not offered
					// (a corner never; a cell of a plane drawn already)
					p.wait("the heads offered", fmt.Sprintf(`document.querySelectorAll('%s rect.hot.cell-hint').length > 0 && !document.querySelector('%s rect.hot:not(.cell-hint)')`, grid, grid))
					hits(t, p, grid+" rect.hot.cell-hint", "cells that may take the next plane's head")
					if i == 0 && k == 1 {
						p.screenshotOf(".board-card", "bomber-hints-"+name)
					}
					for _, no := range []string{"00", "99", "12", "32"} {
						if k > 0 || no == "00" || no == "99" {
							if eval[bool](p, fmt.Sprintf(`!!document.querySelector('%s [data-cell="%s"].hot')`, grid, no)) {
								t.Fatalf("%s: cell %s is offered for plane %d's head, which it cannot take", p.name, no, k+1)
							}
						}
					}
					p.mouse(fmt.Sprintf(`%s [data-cell="%s"].cell-hint`, grid, pl[0]))
					p.wait("the head picked", fmt.Sprintf(`!!document.querySelector('%s [data-cell="%s"].cell-pick')`, grid, pl[0]))
					// then its tails alone: a head in row 0 points one way
					hits(t, p, grid+" rect.hot.cell-hint", "cells that may take the tail")
					if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('%s rect.hot.cell-hint').length`, grid)); n != 1 {
						t.Errorf("%s: %d tails offered for head %s, want 1", p.name, n, pl[0])
					}
					p.mouse(fmt.Sprintf(`%s [data-cell="%s"].cell-hint`, grid, pl[1]))
					p.wait("the plane drawn", fmt.Sprintf(`document.querySelector('#controls').textContent.includes('Planes drawn: %d/3')`, k+1))
				}
				if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('%s rect.hot').length`, grid)); n != 0 {
					t.Errorf("%s: %d cells offered with three planes drawn", p.name, n)
				}
				p.mouse("#bomber-place")
			}
			for _, p := range players { // both boards placed, on both pages
				p.wait("guessing", `document.querySelector('#game-info').textContent.includes('Bomber: guessing')`)
			}
			for guess := 0; guess < 4; guess++ {
				p := mover(t, players)
				opp := 1
				if p == beth {
					opp = 0
				}
				sel := fmt.Sprintf(`#board-svg [data-grid="%d"] rect.hot`, opp)
				hits(t, p, sel, "cells that may be guessed")
				seq := boardSeq(p)
				p.mouse(sel)
				played(p, seq)
				// the cell just guessed is marked on the grid it was aimed at, on both pages
				for _, q := range players {
					q.wait("the guess marked", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q && document.querySelectorAll('#board-svg [data-grid="%d"] rect.cell-last').length === 1 && document.querySelectorAll('#board-svg rect.cell-last').length === 1`, seq, opp))
				}
			}
			leaveAll(albert, beth)
		})
	}
}

// TestClickAcrossARedraw: a player presses on a line just as the board is
// drawn again (here because Cindy starts watching; as often the other
// player's move) and lets go after it: the line is drawn. (The board was
// replaced between the press and the release, and the browser sent the
// click to neither, so such clicks and taps were lost.)
func TestClickAcrossARedraw(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	albert, beth, cindy := b.page("Albert"), b.page("Beth"), b.page("Cindy")
	for _, p := range []*page{albert, beth, cindy} {
		p.login(url, p.name)
	}
	id := albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3"}, false)
	beth.joinFromList(id)
	startGame(albert, beth)
	albert.wait("Albert to move", `document.querySelector('#board-svg')?.dataset.canmove === '1'`)
	seq := boardSeq(albert)
	xy := eval[[]float64](albert, `(() => { const r = document.querySelector('#board-svg g.hot[data-line]').getBoundingClientRect(); document.querySelector('#board-svg').dataset.old = '1'; return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	albert.do("press the mouse on a line", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, xy[0], xy[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)))
	cindy.refresh(id)
	cindy.click(fmt.Sprintf(`[data-watch="%d"]`, id))
	albert.wait("the board drawn again", `!!document.querySelector('#board-svg') && !document.querySelector('#board-svg').dataset.old`)
	albert.do("release it", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, xy[0], xy[1], chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)))
	albert.wait("the line drawn", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
}
