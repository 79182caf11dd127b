package main

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/segment"
)

// drawn renders a board as plain text, checking it fits beside its panel.
func drawn(t *testing.T, b board, v rules.View, me int) (board, info string) {
	t.Helper()
	u := boardUI{st: newTStyles(), me: me, cur: gpos{-5, -5}}
	lines, side := b.render(v, u), b.info(v, u)
	if len(lines) > 18 {
		t.Fatalf("%d board lines", len(lines))
	}
	for _, l := range lines {
		if w := lipgloss.Width(l); w > 56 {
			t.Fatalf("a board line of %d columns: %q", w, ansi.Strip(l))
		}
	}
	return ansi.Strip(strings.Join(lines, "\n")), ansi.Strip(strings.Join(side, "\n"))
}

// TestBoardsShowEveryPiece plays random games of each game and checks at
// every tenth move that the drawing shows as many pieces, lines, boxes or
// tiles as the View holds, and that it fits the screen.
func TestBoardsShowEveryPiece(t *testing.T) {
	piece := map[string]*regexp.Regexp{
		"checkers": regexp.MustCompile(`\d[bBwW]`),
		"paisho":   regexp.MustCompile(`(?m)[ (\[*][LSBWCFDlsbwcfd](?:[ )\]]|$)`),
		"dots":     regexp.MustCompile(`---|\||\s\d\s`),
	}
	for _, spec := range games.All() {
		if spec.Name == "bomber" {
			continue
		}
		t.Run(spec.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			g, err := spec.New(spec.MaxPlayers, nil, rng)
			if err != nil {
				t.Fatal(err)
			}
			b := boardFor(spec.Name)
			for ply := 0; ply < 400 && g.Outcome().Status == rules.Running; ply++ {
				if ply%10 == 0 {
					v := g.Observe(0)
					text, info := drawn(t, b, v, 0)
					want := 0
					switch spec.Name {
					case "checkers", "dots":
						for _, c := range v.Cells {
							if c != 0 {
								want++
							}
						}
					case "paisho":
						for _, c := range v.Cells {
							if c != 0 && c != 0xFF {
								want++
							}
						}
					case "aeroplane":
						// every piece on the board is drawn, alone or as X+
						want = 0
						for _, c := range v.Cells {
							if c != 57 && c != 0xFF {
								want++
							}
						}
						got := len(regexp.MustCompile(`[YBRG][0-3]`).FindAllString(text, -1))
						shared := len(regexp.MustCompile(`[YBRG]\+`).FindAllString(text, -1))
						if got > want || got+2*shared < want && shared == 0 {
							t.Fatalf("ply %d: %d pieces drawn (%d shared), %d on the board:\n%s", ply, got, shared, want, text)
						}
						if !strings.Contains(info, "home") {
							t.Fatalf("no pieces home beside the board:\n%s", info)
						}
						want = -1
					}
					if spec.Name == "dots" {
						// past the row labels
						var body []string
						for _, l := range strings.Split(text, "\n")[1:] {
							body = append(body, l[4:])
						}
						text = strings.Join(body, "\n")
					}
					if want >= 0 {
						if got := len(piece[spec.Name].FindAllString(text, -1)); got != want {
							t.Fatalf("ply %d: %d drawn, %d in the View:\n%s", ply, got, want, text)
						}
					}
				}
				to := g.ToMove(nil)
				p := to[rng.IntN(len(to))]
				var moves []rules.Move
				for _, m := range g.Legal(p, nil) {
					if m.Kind < rules.KindOfferDraw {
						moves = append(moves, m)
					}
				}
				if _, err := g.Play(p, moves[rng.IntN(len(moves))], nil); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestBoardMovesLandOnTheirSquares: for each game the cursor position of
// every legal move's origin and destination lies on the board, so the
// cursor can reach every move.
func TestBoardMovesLandOnTheirSquares(t *testing.T) {
	for _, spec := range games.All() {
		if spec.Name == "bomber" || spec.Name == "aeroplane" {
			continue
		}
		g, err := spec.New(spec.MinPlayers, nil, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		b := boardFor(spec.Name)
		w, h := b.bounds(g.Observe(0))
		for _, m := range g.Legal(g.ToMove(nil)[0], nil) {
			if m.Kind >= rules.KindOfferDraw {
				continue
			}
			d := b.dest(m)
			if d.x < 0 || d.y < 0 || d.x >= w || d.y >= h {
				t.Fatalf("%s: %s ends off the cursor's grid at %v", spec.Name, g.FormatMove(m), d)
			}
		}
	}
}

// TestCreateForm: the form builds the Create message a person set up:
// game, seats, privacy, a clock and a changed option.
func TestCreateForm(t *testing.T) {
	cat := []segment.GameInfoBody{
		{Name: "dots", Min: 2, Max: 4, Options: []segment.OptionInfo{{Key: "rows", Kind: segment.OptInt, Default: "5", Min: 3, Max: 8}}},
	}
	f := newCreateForm(cat)
	if len(f.games) != 5 {
		t.Fatalf("the form offers %d games (the catalogue's and the rules' own)", len(f.games))
	}
	f.field = 1
	f.change(1)
	f.change(1)
	f.field = 2
	f.change(1)
	f.field = 5
	f.change(3)
	f.field = formFields
	f.change(-1)
	f.change(-1)
	f.change(-1) // stops at the minimum
	game, seats, flags, kvs := f.message()
	if got := fmt.Sprintf("%s %d %d %v", game, seats, flags, kvs); got != "dots 4 1 [{rows 3} {clock.total 300} {clock.increment 5}]" {
		t.Fatalf("Create %s", got)
	}
}
