package aeroplane

import (
	"testing"

	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/rulestest"
)

func TestConformance(t *testing.T) {
	all := rules.Options{OptSixBias: "off", OptStack: "on", OptExactFinish: "on", OptLaunchOnFive: "on", OptFlightCapture: "on"}
	for _, tt := range []struct {
		name    string
		players int
		opts    rules.Options
	}{
		{"2 players", 2, nil},
		{"3 players", 3, nil},
		{"4 players", 4, nil},
		{"4 players, every option", 4, all},
		{"2 players, exact finish", 2, rules.Options{OptExactFinish: "on"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rulestest.Conformance(t, Spec(), rulestest.Config{Players: tt.players, Options: tt.opts, Games: 10, MaxPlies: 10000, Seed: 100})
		})
	}
}
