package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/server"
	"github.com/bomber-game/bomber/statemachine"
)

// querier answers the hub's account queries from the store, in the form
// each query kind's comment (statemachine.CheckKind) gives.
func querier(store account.Store) server.Querier {
	return func(ctx context.Context, c statemachine.Check) (statemachine.Answer, string) {
		switch c.Kind {
		case statemachine.Ratings:
			rs, err := store.Ratings(ctx, c.User)
			if err != nil {
				return storeAnswer(err), ""
			}
			var b strings.Builder
			for _, r := range rs {
				fmt.Fprintf(&b, "%s %d %d %d\n", r.Game, int(math.Round(r.Rating)), int(math.Round(r.Deviation)), r.Games)
			}
			return statemachine.Found, b.String()
		}
		if a, data, ok := historyQuery(ctx, store, c); ok {
			return a, data
		}
		return statemachine.Unavailable, ""
	}
}

// storeAnswer is the answer for a store error: NotFound for a user who does
// not exist, Unavailable for anything else.
func storeAnswer(err error) statemachine.Answer {
	if errors.Is(err, account.ErrNoUser) {
		return statemachine.NotFound
	}
	return statemachine.Unavailable
}
