package games

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/rules"
)

// TestSpecsAreComplete: every game says what the hub, the catalogue and
// the clients read from its Spec, and its computer player makes a legal
// move for the seat to move in a new game.
func TestSpecsAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		if s.Name == "" || s.Title == "" || seen[s.Name] || seen[s.Title] {
			t.Errorf("%q: name and title must be set and unique (title %q)", s.Name, s.Title)
		}
		seen[s.Name], seen[s.Title] = true, true
		if s.MinPlayers < 2 || s.MaxPlayers < s.MinPlayers || s.MaxPlayers > 4 {
			t.Errorf("%s: seats %d..%d", s.Name, s.MinPlayers, s.MaxPlayers)
		}
		if s.NewBot == nil {
			t.Errorf("%s: no computer player", s.Name)
			continue
		}
		g, err := s.New(s.MinPlayers, nil, rules.BotRand(1))
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		p := g.ToMove(nil)[0]
		m, err := s.NewBot(7).Choose(rules.SeatOf(g, p))
		if err == nil {
			_, err = g.Play(p, m, nil)
		}
		if err != nil {
			t.Errorf("%s: the computer's move %v: %v", s.Name, m, err)
		}
	}
	if got, ok := Lookup("dots"); !ok || got.Title != "Dots and Boxes" {
		t.Errorf("Lookup(dots) = %q %v", got.Title, ok)
	}
	if _, ok := Lookup("chess"); ok {
		t.Error("Lookup found a game this build does not host")
	}
}

// TestProtocolDocListsTheSpecs: the games table of docs/protocol.md
// (section 8.8, "Games") says what each Spec says, in catalogue order.
func TestProtocolDocListsTheSpecs(t *testing.T) {
	raw, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "| name | title | seats | takeback | draw offers |")
	if start < 0 {
		t.Fatal("docs/protocol.md has no games table")
	}
	var rows []string
	for _, l := range strings.Split(doc[start:], "\n")[2:] {
		if !strings.HasPrefix(l, "|") {
			break
		}
		rows = append(rows, l)
	}
	yes := map[bool]string{false: "no", true: "yes"}
	timeout := map[bool]string{false: "it resigns", true: "the computer moves for it"}
	specs := All()
	for i, s := range specs {
		seats := fmt.Sprint(s.MinPlayers)
		if s.MaxPlayers != s.MinPlayers {
			seats += fmt.Sprintf("-%d", s.MaxPlayers)
		}
		want := fmt.Sprintf("| `%s` | %s | %s | %s | %s | %s |", s.Name, s.Title, seats, yes[s.Takeback], yes[s.Draws], timeout[s.BotOnTimeout])
		if i >= len(rows) || rows[i] != want {
			t.Errorf("row %d of the games table should read\n%s", i+1, want)
		}
	}
	if len(rows) != len(specs) {
		t.Errorf("the games table has %d rows for %d games", len(rows), len(specs))
	}
}
