package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/cmd/internal/gamerec"
	"github.com/bomber-game/bomber/rules/record"
)

// sourced is a record and where it came from, for the report.
type sourced struct {
	rec  record.Game
	from string
}

// replayRecords replays game records through their games' rules and
// reports each as PASS, FAIL (it does not reproduce what was stored) or
// ERROR (it could not be read, or its game is unknown).
func replayRecords(opt options, stdout, stderr io.Writer) int {
	var n [3]int
	var recs []sourced
	for _, f := range opt.records {
		got, err := readRecords(f)
		if err != nil {
			fmt.Fprintf(stdout, "ERROR %s: %v\n", f, err)
			n[broken]++
			continue
		}
		recs = append(recs, got...)
	}
	if opt.store != "" {
		got, err := storedRecords(opt.store, opt.ids)
		if err != nil {
			fmt.Fprintf(stderr, "bomber-replay: %v\n", err)
			return exitUsage
		}
		recs = append(recs, got...)
	}
	for _, r := range recs {
		name := fmt.Sprintf("record %d (%s, %d moves) from %s", r.rec.ID, r.rec.Game, len(r.rec.Moves), r.from)
		_, err := gamerec.Replay(&r.rec)
		switch {
		case err == nil:
			n[passed]++
			fmt.Fprintf(stdout, "PASS %s\n", name)
		case errors.Is(err, gamerec.ErrUnknownGame):
			n[broken]++
			fmt.Fprintf(stdout, "ERROR %s: %v\n", name, err)
		default:
			n[failed]++
			fmt.Fprintf(stdout, "FAIL %s: %v\n", name, err)
		}
	}
	summary := fmt.Sprintf("%d passed, %d failed", n[passed], n[failed])
	if n[broken] > 0 {
		summary += fmt.Sprintf(", %d could not be replayed", n[broken])
	}
	fmt.Fprintln(stdout, summary)
	switch {
	case n[broken] > 0:
		return exitUsage
	case n[failed] > 0:
		return exitDiff
	}
	return exitOK
}

// readRecords reads one record.Game, or a JSON array of them, from file.
func readRecords(file string) ([]sourced, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var recs []record.Game
	if trimmed := strings.TrimSpace(string(raw)); strings.HasPrefix(trimmed, "[") {
		err = json.Unmarshal(raw, &recs)
	} else {
		recs = make([]record.Game, 1)
		err = json.Unmarshal(raw, &recs[0])
	}
	if err != nil {
		return nil, fmt.Errorf("not a game record: %w", err)
	}
	out := make([]sourced, len(recs))
	for i, r := range recs {
		out[i] = sourced{r, file}
	}
	return out, nil
}

// storedRecords loads records from the store named by spec
// ("sqlite:PATH" or "mysql:DSN"): the given ids, or the newest MaxGames.
func storedRecords(spec string, ids []uint64) ([]sourced, error) {
	driver, where, ok := strings.Cut(spec, ":")
	if !ok || where == "" || (driver != string(account.DialectSQLite) && driver != string(account.DialectMySQL)) {
		return nil, fmt.Errorf("--store wants sqlite:PATH or mysql:DSN, not %q", spec)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// Records need no password hashing; the hasher is never used. The store
	// is read as it is: a replay neither creates nor migrates one.
	s, err := account.OpenExisting(ctx, account.Dialect(driver), where, account.NewHasher(account.Params{Memory: 8, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 16}, 1))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if len(ids) == 0 {
		listed, err := s.Games(ctx, account.GameFilter{})
		if err != nil {
			return nil, err
		}
		for _, g := range listed {
			ids = append(ids, g.ID)
		}
	}
	var out []sourced
	for _, id := range ids {
		g, err := s.Game(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, sourced{g, driver + " store"})
	}
	return out, nil
}
