package main

import (
	"context"
	"io"
)

// tableResult is one game's row of the table-game phase.
type tableResult struct{}

func tablePhase(ctx context.Context, o options, tr, db, tmp string, res *results, attempt int) error {
	return nil
}

func (res *results) printTables(w io.Writer) {}
