package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/bomber-game/bomber/client/ext"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/aeroplane"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/rules/record"
	"github.com/bomber-game/bomber/segment"
)

// replayer steps through a finished game: frame i is the board after i
// moves.
type replayer struct {
	game   string
	title  string
	frames []rules.View
	moves  []string
	at     int
}

// replayOfGame replays the game just played at our table from the moves
// received during it.
func replayOfGame(g *ext.Game, game string, seat int) (*replayer, error) {
	if g.Replica() == nil {
		return nil, errors.New("no replay: this game's moves were not all shown to this client")
	}
	r, err := ext.NewReplica(g.Spec, g.Options, g.Seats)
	if err != nil {
		return nil, err
	}
	viewer := rules.Player(seat)
	if seat < 0 {
		viewer = rules.Spectator
	}
	rp := &replayer{game: game, title: "replay of the last game", frames: []rules.View{r.Game().Observe(viewer)}}
	for _, p := range g.Replica().Played() {
		if err := r.Moved(p.Moved); err != nil {
			return nil, err
		}
		if p.Face > 0 {
			if err := r.Step(segment.StepBody{Kind: aeroplane.StepRoll, A: int16(p.Face)}); err != nil {
				return nil, err
			}
		}
		rp.frames = append(rp.frames, r.Game().Observe(viewer))
		rp.moves = append(rp.moves, moveText(game, p.Moved.Notation, g.Steps(p.Moved.Seq)))
	}
	return rp, nil
}

// replayFile replays an exported game record (bomberctl games export ID --json).
func replayFile(path string) (*replayer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rec record.Game
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%s: not a JSON game record: %w", path, err)
	}
	spec, ok := games.Lookup(rec.Game)
	if !ok {
		return nil, fmt.Errorf("%s: unknown game %q", path, rec.Game)
	}
	g, err := spec.New(len(rec.Seats), rec.Options, record.Rand(rec.Seed))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var names []string
	for _, s := range rec.Seats {
		names = append(names, s.Name)
	}
	rp := &replayer{game: rec.Game, title: fmt.Sprintf("replay of game %d: %s, %s", rec.ID, spec.Title, strings.Join(names, " v ")),
		frames: []rules.View{g.Observe(0)}}
	for i, m := range rec.Moves {
		mv, err := g.ParseMove(m.Seat, m.Text)
		var steps []rules.Step
		if err == nil {
			steps, err = g.Play(m.Seat, mv, nil)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: move %d %q: %w", path, i+1, m.Text, err)
		}
		rp.frames = append(rp.frames, g.Observe(0))
		var bodies []segment.StepBody
		for _, st := range steps {
			bodies = append(bodies, segment.StepBody{Kind: st.Kind, Player: int8(st.Player), A: st.A, B: st.B, C: st.C})
		}
		rp.moves = append(rp.moves, moveText(rec.Game, m.Text, bodies))
	}
	return rp, nil
}

// key steps the replay; false leaves it.
func (r *replayer) key(k string) bool {
	switch k {
	case "right", "l", "space", "n", "enter":
		r.at = min(r.at+1, len(r.frames)-1)
	case "left", "h", "p", "backspace":
		r.at = max(r.at-1, 0)
	case "home", "g":
		r.at = 0
	case "end", "G":
		r.at = len(r.frames) - 1
	case "q", "esc":
		return false
	}
	return true
}

func (r *replayer) render(st *tstyles) []string {
	b := boardFor(r.game)
	v := r.frames[r.at]
	u := boardUI{st: st, me: -1}
	out := []string{st.title.Render("Bomber tables - " + r.title), fmt.Sprintf("move %d of %d", r.at, len(r.moves))}
	side := b.info(v, u)
	side = append(side, "", st.title.Render("Moves"))
	from := max(0, min(r.at-4, len(r.moves)-8))
	for i := from; i < min(len(r.moves), from+8); i++ {
		mark := "  "
		if i == r.at-1 {
			mark = st.cursor.Render("> ")
		}
		side = append(side, fmt.Sprintf("%s%3d %s", mark, i+1, r.moves[i]))
	}
	lines := b.render(v, u)
	w := 0
	for _, l := range lines {
		w = max(w, len([]rune(l)))
	}
	body := columns(lines, side, min(w+2, 56))
	out = append(out, body[:min(len(body), 19)]...)
	for len(out) < 23 {
		out = append(out, "")
	}
	if v.Status != rules.Running && r.at == len(r.frames)-1 {
		out[22] = st.ok.Render("final position: " + v.Status.String())
	}
	return append(out, st.key.Render("right/n next  left/p back  home/end first/last  q leave the replay"))
}

// moveText is a move as the move lists show it: its notation and, for
// Aeroplane Chess, what it did (the die, jumps, flights, captures).
func moveText(game, notation string, steps []segment.StepBody) string {
	if game == aeroplane.Name {
		if note := aeroNote(steps); note != "" {
			return notation + " " + note
		}
	}
	return notation
}
