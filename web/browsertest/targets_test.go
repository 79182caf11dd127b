package browsertest

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// mouse clicks with the mouse at the centre of the first element matching
// sel, as a person aims: the browser decides what is hit there.
func (p *page) mouse(sel string) {
	p.t.Helper()
	p.settle()
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return []; e.scrollIntoView({block: 'center', inline: 'center'}); const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	if len(xy) != 2 {
		p.t.Fatalf("%s: nothing matches %s\n%s", p.name, sel, p.state())
	}
	p.do("mouse click "+sel, chromedp.MouseClickXY(xy[0], xy[1]))
}

// doubleClick double-clicks at the centre of sel as a mouse does: two
// clicks, the second with a click count of 2 (chromedp.DoubleClick sends
// one click that counts 2, which no person makes).
func (p *page) doubleClick(sel string) {
	p.t.Helper()
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return []; const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	if len(xy) != 2 {
		p.t.Fatalf("%s: nothing matches %s\n%s", p.name, sel, p.state())
	}
	p.do("double click "+sel, chromedp.MouseClickXY(xy[0], xy[1]), chromedp.MouseClickXY(xy[0], xy[1], chromedp.ClickCount(2)))
}

// unhit lists the elements matching sel whose centre, where a person
// clicks, does not hit them (a neighbour or the background takes it).
func (p *page) unhit(sel string) []string {
	p.t.Helper()
	return eval[[]string](p, fmt.Sprintf(`(() => { const out = []; for (const e of document.querySelectorAll(%q)) {
		e.scrollIntoView({block: 'center', inline: 'center'});
		const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
		const hit = document.elementFromPoint(x, y);
		if (!hit || !(hit === e || e.contains(hit))) out.push((e.dataset.sq || e.dataset.pt || e.outerHTML.slice(0, 60)) + ' hit ' + (hit ? hit.outerHTML.slice(0, 60) : 'nothing'));
	} return out; })()`, sel))
}

// mover waits for the player whose turn it is.
func mover(t *testing.T, players []*page) *page {
	t.Helper()
	p := waitMover(t, players)
	if p == nil {
		t.Fatal("the game ended")
	}
	return p
}

// TestClickTheCentreOfEveryTarget plays Checkers and Pai Sho with a real
// mouse, on a desktop window and on a phone's: on every turn the centre
// of every highlighted piece and target hits that square or point, and a
// click at the centre of one plays the move. The targets come from the
// server's legal moves.
func TestClickTheCentreOfEveryTarget(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	albert, beth := b.page("Albert"), b.page("Beth")
	for _, p := range []*page{albert, beth} {
		p.login(url, p.name)
	}
	players := []*page{albert, beth}
	mover := func(t *testing.T) *page { return mover(t, players) }
	checkHits := func(t *testing.T, p *page, sel, what string) int {
		t.Helper()
		p.wait(what, fmt.Sprintf(`document.querySelectorAll(%q).length > 0`, sel))
		if miss := p.unhit(sel); len(miss) > 0 {
			t.Fatalf("%s: the centre of %d %s does not hit it: %v", p.name, len(miss), what, miss)
		}
		return eval[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
	}
	for _, phone := range []bool{false, true} {
		name := "desktop"
		if phone {
			name = "phone"
			for _, p := range players {
				p.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
			}
		}
		t.Run("checkers-"+name, func(t *testing.T) {
			use(t, albert, beth)
			id := albert.create(t, "checkers", nil, false)
			beth.joinFromList(id)
			startGame(albert, beth)
			for ply := 0; ply < 4; ply++ {
				p := mover(t)
				seq := boardSeq(p)
				pieces := checkHits(t, p, `#board-svg g[data-sq]:has(rect.ck-hint)`, "pieces that can move")
				if ply == 0 && pieces != 4 {
					t.Errorf("Black's opening: %d pieces shown movable, want 4 (squares 9-12)", pieces)
				}
				p.mouse(`#board-svg g[data-sq]:has(rect.ck-hint)`)
				p.wait("the piece picked", `!!document.querySelector('#board-svg rect.ck-sel')`)
				checkHits(t, p, `#board-svg g[data-sq]:has(rect.ck-hint)`, "target squares")
				if ply == 2 {
					p.screenshotOf(".board-card", "targets-checkers-"+name)
				}
				p.mouse(`#board-svg g[data-sq]:has(rect.ck-hint)`)
				p.wait("the move played", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
				for _, q := range players { // both see the move's two squares marked
					q.wait("the last move marked", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q && document.querySelectorAll('#board-svg .ck-last').length === 2`, seq))
				}
			}
			// the board in play, as the player to move sees it
			mover(t).screenshotOf(".board-card", "checkers-inplay-"+name)
			leaveAll(albert, beth)
		})
		t.Run("paisho-"+name, func(t *testing.T) {
			use(t, albert, beth)
			id := albert.create(t, "paisho", nil, false)
			beth.joinFromList(id)
			startGame(albert, beth)
			for ply := 0; ply < 4; ply++ {
				p := mover(t)
				seq := boardSeq(p)
				if n := checkHits(t, p, `.ps-hand .ps-tile:not([disabled])`, "tiles that can be deployed"); n == 0 {
					t.Fatal("no tile to deploy")
				}
				p.mouse(`.ps-hand .ps-tile:not([disabled])`)
				n := checkHits(t, p, `#board-svg g[data-pt]:has(.ps-target)`, "deploy points")
				t.Logf("%s: %d points to deploy on", p.name, n)
				p.mouse(`#board-svg g[data-pt]:has(.ps-target)`)
				p.wait("the tile deployed", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
			}
			// a tile on the board: its destinations
			p := mover(t)
			seq := boardSeq(p)
			checkHits(t, p, `#board-svg g[data-pt]:has(.ps-can)`, "tiles that can move")
			p.mouse(`#board-svg g[data-pt]:has(.ps-can)`)
			n := checkHits(t, p, `#board-svg g[data-pt]:has(.ps-target)`, "destinations")
			t.Logf("%s: %d destinations", p.name, n)
			p.screenshotOf(".board-card", "targets-paisho-"+name)
			p.mouse(`#board-svg g[data-pt]:has(.ps-target)`)
			p.wait("the tile moved", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
			// the player who moved waits, and is told for whom
			other := albert
			if p == albert {
				other = beth
			}
			p.wait("whose turn", fmt.Sprintf(`document.querySelector('#game-info').textContent.startsWith('Waiting for %s')`, other.name))
			// the move just played is marked where it went from and to, on both pages
			for _, q := range []*page{albert, beth} {
				q.wait("the last move marked", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q && document.querySelectorAll('#board-svg g[data-last="1"] .ps-last').length === 2`, seq))
			}
			mover(t).screenshotOf(".board-card", "paisho-inplay-"+name)
			leaveAll(albert, beth)
		})
	}
}
