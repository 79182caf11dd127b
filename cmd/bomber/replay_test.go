package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/rules/record"
)

// TestReplayFile: a game record as bomberctl exports it (JSON) replays
// step by step: one frame per move, the last one the game's final
// position, and the keys walk back and forth through it.
func TestReplayFile(t *testing.T) {
	for _, spec := range games.All() {
		if spec.Name == "bomber" {
			continue
		}
		t.Run(spec.Name, func(t *testing.T) {
			seed := record.Seed{1, 2, 3}
			g, err := spec.New(2, nil, record.Rand(seed))
			if err != nil {
				t.Fatal(err)
			}
			rec := record.Game{ID: 7, Game: spec.Name, Seats: []record.Seat{{Name: "Albert"}, {Name: "Beth"}}, Seed: seed}
			rng := rand.New(rand.NewPCG(5, 6))
			for range 60 {
				if g.Outcome().Status != rules.Running {
					break
				}
				p := g.ToMove(nil)[0]
				var moves []rules.Move
				for _, m := range g.Legal(p, nil) {
					if m.Kind < rules.KindOfferDraw {
						moves = append(moves, m)
					}
				}
				m := moves[rng.IntN(len(moves))]
				rec.Moves = append(rec.Moves, record.Move{Seat: p, Text: g.FormatMove(m)})
				if _, err := g.Play(p, m, nil); err != nil {
					t.Fatal(err)
				}
			}
			b, _ := json.Marshal(rec)
			path := filepath.Join(t.TempDir(), "game.json")
			os.WriteFile(path, b, 0o644)
			rp, err := replayFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(rp.frames) != len(rec.Moves)+1 {
				t.Fatalf("%d frames for %d moves", len(rp.frames), len(rec.Moves))
			}
			rp.key("end")
			if fmt.Sprint(rp.frames[rp.at]) != fmt.Sprint(g.Observe(0)) {
				t.Fatal("the last frame is not the game's final position")
			}
			screen := fit(rp.render(newTStyles()), screenW, screenH)
			if !strings.Contains(screen, fmt.Sprintf("move %d of %d", len(rec.Moves), len(rec.Moves))) || !strings.Contains(screen, rec.Moves[len(rec.Moves)-1].Text) {
				t.Fatalf("the replay screen at the end:\n%s", screen)
			}
			if spec.Name == "aeroplane" && !strings.Contains(strings.Join(rp.moves, "\n"), "roll 6") {
				t.Fatalf("the replay's moves show no die: %q", rp.moves)
			}
			rp.key("left")
			rp.key("left")
			if rp.at != len(rec.Moves)-2 || !rp.key("home") || rp.at != 0 || rp.key("q") {
				t.Fatalf("the keys do not step the replay: at %d", rp.at)
			}
		})
	}
}
