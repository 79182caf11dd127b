package statemachine

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// TestOlderLogsReplayAsTheirBuildDrew: settings put in the log by a build
// before generations (their JSON names none) put the world in generation
// 0, where a game's seed comes from the world's generator, as that build
// drew it, so its log and captures replay as it applied them. Settings of
// this build (ConfigInput) move the world to this generation: a table
// opened from then on draws from its own generator, and the older table
// still draws from the world's. A snapshot keeps both.
func TestOlderLogsReplayAsTheirBuildDrew(t *testing.T) {
	r := &rig{tb: t, h: New(Config{Games: Catalogue()}), now: int64(time.Second)}
	h := r.h
	old, err := json.Marshal(Config{})
	if err != nil {
		t.Fatal(err)
	}
	h.Step(0, Input{Kind: InConfig, Text: string(old)})
	h.Step(0, SeedInput(1))
	for c, name := range []string{"Albert", "Beth", "Cindy", "Dora"} { // after the settings: not loggedIn
		r.login(ConnID(c+1), name, hubFeatures)
	}
	world := func() []byte { b, _ := h.rng.MarshalBinary(); return b }
	// open makes a checkers table of a and b, and reports whether starting
	// its game (their Ready, a table input) drew from the world's generator
	open := func(a, b ConnID) (*table, bool) {
		r.msg(a, segment.Create, segment.CreateMsg{Game: "checkers", Seats: 2}.Append(nil))
		id := h.tableSeq
		r.msg(b, segment.Join, segment.JoinMsg{Table: id, Seat: 0xFF}.Append(nil))
		before := world()
		r.msg(a, segment.Ready, nil)
		r.msg(b, segment.Ready, nil)
		tb := h.tables[id]
		if tb == nil || tb.phase != phasePlaying {
			t.Fatalf("table %d did not start", id)
		}
		return tb, !bytes.Equal(before, world())
	}

	older, drew := open(1, 2)
	if h.generation != 0 || older.rng != nil || !drew {
		t.Fatalf("under an older build's settings: generation %d, table generator %v, world's drawn %v; want 0, none, drawn", h.generation, older.rng != nil, drew)
	}
	h.Step(r.now, ConfigInput(Config{Games: Catalogue()}))
	newer, drew := open(3, 4)
	if h.generation != Generation || newer.rng == nil || drew {
		t.Fatalf("under this build's settings: generation %d, table generator %v, world's drawn %v; want %d, one, not drawn", h.generation, newer.rng != nil, drew, Generation)
	}
	// the older table's next game still takes its seed from the world's
	r.msg(1, segment.Resign, nil)
	before, seed := world(), older.seed
	r.msg(1, segment.Ready, nil)
	r.msg(2, segment.Ready, nil)
	if older.phase != phasePlaying || older.seed == seed || bytes.Equal(before, world()) {
		t.Fatalf("the older table's rematch: phase %d, new seed %v, world's drawn %v", older.phase, older.seed != seed, !bytes.Equal(before, world()))
	}

	if got := restored(t, h); got.generation != Generation || got.tables[older.id].rng != nil || got.tables[newer.id].rng == nil {
		t.Errorf("restored: generation %d, older table's generator %v, newer's %v", got.generation, got.tables[older.id].rng != nil, got.tables[newer.id].rng != nil)
	}
}
