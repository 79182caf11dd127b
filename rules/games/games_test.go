package games

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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

// TestNoGameListOutsideRules: outside rules/, no program file names two
// games or more by a string of their name or title ("checkers", "Pai Sho"),
// as the lists of titles, seat ranges and takeback games did before every
// fact moved into the Specs. Code for one game (a board drawing, a
// notation) names it by its package's Name, and tests may list games.
// Bomber's name is the project's too, so only the other games count.
func TestNoGameListOutsideRules(t *testing.T) {
	known := map[string]string{} // name or title -> game
	for _, s := range All()[1:] {
		known[s.Name], known[s.Title] = s.Name, s.Name
	}
	jsString := regexp.MustCompile(`'([^'\\\n]*)'|"([^"\\\n]*)"|` + "`([^`\\\\$]*)`")
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "rules", "testdata", "web/dist", ".git":
				return filepath.SkipDir
			}
			if d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		var literals []string
		switch {
		case strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".test.js") || strings.Contains(rel, "/test/"):
			return nil
		case strings.HasSuffix(path, ".go"):
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if v, err := strconv.Unquote(lit.Value); err == nil {
						literals = append(literals, v)
					}
				}
				return true
			})
		case strings.HasSuffix(path, ".js"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range jsString.FindAllStringSubmatch(string(src), -1) {
				literals = append(literals, m[1]+m[2]+m[3])
			}
		default:
			return nil
		}
		checked++
		var named []string
		for _, l := range literals {
			if g, ok := known[l]; ok && !slices.Contains(named, g) {
				named = append(named, g)
			}
		}
		if len(named) > 1 {
			t.Errorf("%s names the games %v: take what it needs from their rules.Spec (rules/games) or the catalogue", rel, named)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Errorf("only %d files checked", checked)
	}
}
