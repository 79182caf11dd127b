package games

import (
	"math/rand/v2"
	"os"
	"regexp"
	"testing"
)

// TestGameDocsSayWhetherDrawsAreOffered: each docs/games page tells the
// truth about a table's draw Offer: where the rules have no draw by
// agreement (rules.Game.DrawByAgreement with the default options), the page
// says the Offer is refused with Error NoOffer, the code the hub answers;
// no page says it is refused as an illegal move.
func TestGameDocsSayWhetherDrawsAreOffered(t *testing.T) {
	refusedIllegal := regexp.MustCompile(`(?s)draw\s+(offered|Offer)[^.]*refused\s+\(?Error\s+Illegal`)
	refusedNoOffer := regexp.MustCompile(`(?s)draw\s+Offer[^.]*refused\s+with\s+Error\s+NoOffer`)
	for _, spec := range All() {
		doc, err := os.ReadFile("../../docs/games/" + spec.Name + ".md")
		if os.IsNotExist(err) {
			continue // Bomber's rules are in docs/protocol.md
		}
		if err != nil {
			t.Fatal(err)
		}
		g, err := spec.New(spec.MinPlayers, nil, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if refusedIllegal.Match(doc) {
			t.Errorf("docs/games/%s.md says a table's draw offer is refused as illegal; the hub answers NoOffer", spec.Name)
		}
		if !g.DrawByAgreement() && !refusedNoOffer.Match(doc) {
			t.Errorf("docs/games/%s.md does not say that a draw Offer is refused with Error NoOffer", spec.Name)
		}
	}
}
