package main

import (
	"fmt"
	"github.com/bomber-game/bomber/rules/games"
	"github.com/bomber-game/bomber/segment"
)

func main() {
	for _, sp := range games.All() {
		g := segment.GameInfoBody{Name: sp.Name, Min: uint8(sp.MinPlayers), Max: uint8(sp.MaxPlayers)}
		for _, o := range sp.Options {
			g.Options = append(g.Options, segment.OptionInfo{Key: o.Key, Kind: uint8(o.Kind), Default: o.Default, Min: int32(o.Min), Max: int32(o.Max), Choices: o.Choices, Doc: o.Doc})
		}
		b, err := g.Encode(nil)
		fmt.Println(sp.Name, len(b), err)
	}
}
