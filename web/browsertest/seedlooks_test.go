package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTheSeedsRoomAndBoards checks what the seeds describe of the game
// room and the boards, as a player sees it: the New table form makes a
// table the host starts (seeds 000 and 002) and says both room options
// in words; Dots and Boxes gives each player an icon, drawn in their boxes
// and beside their name and score (seed 002); Aeroplane Chess keeps its
// die at the camp of the player to roll or move, and a click on the die
// rolls it (seed 000).
func TestTheSeedsRoomAndBoards(t *testing.T) {
	url, _ := startDaemon(t)
	b := newBrowser(t)
	albert, beth := b.page("Albert"), b.page("Beth")
	for _, p := range []*page{albert, beth} {
		p.login(url, p.name)
	}
	players := []*page{albert, beth}
	lobby := func(pages ...*page) {
		for _, p := range pages {
			if eval[string](p, `document.body.dataset.screen`) == "table" {
				leaveAll(p)
			}
		}
	}

	t.Run("create-form", func(t *testing.T) {
		use(t, albert, beth)
		lobby(albert, beth)
		if v := eval[string](albert, `document.querySelector('#start-mode').value`); v != "host" {
			t.Fatalf("the form starts tables %q; the seeds' host starts them", v)
		}
		id := albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3", "clock-total": "60", "clock-increment": "5"}, false)
		albert.wait("Albert's Start button", `document.querySelector('#ready').textContent === 'Start game' && !document.querySelector('#ready').hidden`)
		beth.refresh(id)
		row := eval[string](beth, fmt.Sprintf(`document.querySelector('#tables [data-table="%d"]').textContent`, id))
		for _, want := range []string{"clock 60 s a game, +5 s a move", "3×3 dots", "the host starts", "one chat for players and watchers"} {
			if !strings.Contains(row, want) {
				t.Errorf("Beth's table list says %q; want %q in it", row, want)
			}
		}
		leaveAll(albert)
		// the other choices, said in words too
		albert.do("the ready check", chromedp.SetValue(chromedp.CSS("#start-mode"), "ready"))
		albert.click("#chat-separate")
		id = albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3"}, false)
		beth.refresh(id)
		row = eval[string](beth, fmt.Sprintf(`document.querySelector('#tables [data-table="%d"]').textContent`, id))
		for _, want := range []string{"starts when all are ready", "watchers chat apart"} {
			if !strings.Contains(row, want) {
				t.Errorf("Beth's table list says %q; want %q in it", row, want)
			}
		}
		leaveAll(albert)
		albert.do("the host starts again", chromedp.SetValue(chromedp.CSS("#start-mode"), "host"))
		albert.click("#chat-separate")
	})

	t.Run("dots-icons", func(t *testing.T) {
		use(t, albert, beth)
		lobby(albert, beth)
		id := albert.create(t, "dots", map[string]string{"rows": "3", "cols": "3"}, false)
		beth.joinFromList(id)
		startGame(albert, beth)
		for _, p := range players {
			p.wait("the score card", `document.querySelectorAll('#controls .dots-scores li').length === 2`)
			card := eval[[]string](p, `[...document.querySelectorAll('#controls .dots-scores li')].map(li => li.querySelector('[data-icon]').dataset.icon + ' ' + li.textContent)`)
			if len(card) != 2 || card[0] == card[1] || !strings.Contains(card[0], "Albert") || !strings.Contains(card[1], "Beth") {
				t.Fatalf("%s's score card %q: want an icon, Albert's name and score, then another icon and Beth's", p.name, card)
			}
		}
		albert.wait("Albert's turn marked on the card", `document.querySelector('#controls .dots-scores li.turn')?.textContent.includes('Albert')`)
		beth.wait("Albert's turn marked on Beth's card", `document.querySelector('#controls .dots-scores li.turn')?.textContent.includes('Albert')`)
		beth.wait("whose turn, for the player who waits", `document.querySelector('#game-info').textContent.startsWith('Waiting for Albert')`)
		// a refused move says why in words, not the server's code names
		albert.fill("#move-input", "a1-c1")
		albert.click("#move-form button")
		albert.wait("the reason", `!document.querySelector('#toast').hidden && /^That move is not (allowed|written the way this game writes moves)/.test(document.querySelector('#toast').textContent)`)
		if s := eval[string](albert, `document.querySelector('#toast').textContent`); strings.Contains(s, "Illegal") || strings.Contains(s, "seat ") {
			t.Errorf("the refusal is in developer words: %q", s)
		}
		// an illegal move gives the rules' reason alone, not the names of
		// their package and error ("dots: illegal move: ...")
		albert.fill("#move-input", "a1-b1")
		albert.click("#move-form button")
		beth.wait("Albert's line", `document.querySelectorAll('#moves li').length === 1`)
		beth.fill("#move-input", "a1-b1")
		beth.click("#move-form button")
		beth.wait("the rules' reason", `!document.querySelector('#toast').hidden && document.querySelector('#toast').textContent.startsWith('That move is not allowed:')`)
		if s := eval[string](beth, `document.querySelector('#toast').textContent`); s != "That move is not allowed: a1-b1 is already drawn" {
			t.Errorf("a line drawn twice is refused with %q, want %q", s, "That move is not allowed: a1-b1 is already drawn")
		}
		playUntilEnd(t, players, func(p *page) { p.mouse(`#board-svg g.hot[data-line]`) })
		for _, p := range players {
			// every box shows its owner's icon, and the card counts them by name
			got := eval[[]string](p, `(() => {
				const icons = [...document.querySelectorAll('#controls .dots-scores li')].map(li => li.querySelector('[data-icon]').dataset.icon);
				const out = [];
				for (const box of document.querySelectorAll('#board-svg [data-box]')) {
					const icon = document.querySelector('#board-svg [data-box-icon="' + box.dataset.box + '"] [data-icon]');
					if (!icon || icons[Number(box.dataset.owner)] !== icon.dataset.icon) out.push(box.dataset.box + ' owner ' + box.dataset.owner + ' icon ' + (icon?.dataset.icon ?? 'none'));
				}
				return out; })()`)
			if len(got) > 0 {
				t.Errorf("%s: boxes without their owner's icon: %v", p.name, got)
			}
			scores := eval[[]string](p, `[...document.querySelectorAll('#controls .dots-scores li')].map(li => li.querySelector('.dots-score').textContent + ' ' + document.querySelectorAll('#board-svg [data-box][data-owner="' + li.dataset.seat + '"]').length)`)
			for i, s := range scores {
				f := strings.Fields(s)
				if len(f) != 2 || f[0] != f[1] {
					t.Errorf("%s: seat %d's score card says %s boxes, the board shows %s", p.name, i, f[0], f[1])
				}
			}
		}
		leaveAll(albert, beth)
	})

	t.Run("aeroplane-die", func(t *testing.T) {
		use(t, albert, beth)
		lobby(albert, beth)
		id := albert.create(t, "aeroplane", nil, false)
		beth.joinFromList(id)
		startGame(albert, beth)
		// nearestCamp is the camp whose centre is nearest the die's, on screen
		nearestCamp := func(p *page) int {
			return eval[int](p, `(() => {
				const c = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
				const [x, y] = c(document.querySelector('#board-svg .ae-die rect'));
				let best = -1, bd = Infinity;
				for (const camp of document.querySelectorAll('#board-svg .ae-camp')) {
					const [cx, cy] = c(camp), d = (cx - x) ** 2 + (cy - y) ** 2;
					if (d < bd) { bd = d; best = Number(camp.dataset.camp); }
				}
				return best; })()`)
		}
		seatOf := map[*page]int{albert: 0, beth: 1}
		// the players' names at their camps
		for _, p := range players {
			if names := eval[[]string](p, `[...document.querySelectorAll('#board-svg .ae-name')].map(n => n.dataset.camp + ' ' + n.textContent)`); strings.Join(names, ",") != "0 Albert,1 Beth" {
				t.Errorf("%s's page names the camps %q; want Albert at camp 0, Beth at camp 1", p.name, names)
			}
		}
		for turn := 0; turn < 12; turn++ {
			p := mover(t, players)
			rolling := eval[bool](p, `!!document.querySelector('#board-svg .ae-die.hot')`)
			if rolling { // (after a lost roll, once its number has been seen)
				p.wait("Roll on the die", `document.querySelector('#board-svg .ae-die').textContent === 'Roll'`)
			}
			for _, q := range players {
				q.wait("the same position", fmt.Sprintf(`document.querySelector('#board-svg')?.dataset.seq === %q`, boardSeq(p)))
				q.wait("the die settled", `!document.querySelector('#board-svg .ae-die').textContent.includes('no move')`)
				if camp := nearestCamp(q); camp != seatOf[p] {
					t.Fatalf("%s's page: the die is by camp %d while %s (camp %d) is to play", q.name, camp, p.name, seatOf[p])
				}
			}
			seq := boardSeq(p)
			if rolling {
				if miss := p.unhit(`#board-svg .ae-die.hot`); len(miss) > 0 {
					t.Fatalf("the die's centre does not hit it: %v", miss)
				}
				p.mouse(`#board-svg .ae-die.hot`)
				p.wait("the roll", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
				if turn == 0 {
					albert.screenshot("aeroplane-die")
				}
				if eval[string](p, `document.querySelector('#board-svg .ae-die').textContent`) != "Roll" && eval[string](p, `document.querySelector('#board-svg .ae-die').dataset.lost`) == "1" {
					// a lost roll: its number stays by the roller's camp a while
					if camp := nearestCamp(p); camp != seatOf[p] {
						t.Errorf("%s's lost roll is shown by camp %d, not by %s's own", p.name, camp, p.name)
					}
				}
				continue
			}
			if miss := p.unhit(`#board-svg g.ae-movable`); len(miss) > 0 {
				t.Fatalf("the centre of a movable piece does not hit it: %v", miss)
			}
			p.mouse(`#board-svg g.ae-movable`)
			p.wait("the piece moved", fmt.Sprintf(`document.querySelector('#board-svg').dataset.seq !== %q`, seq))
		}
		leaveAll(albert, beth)
	})
}
