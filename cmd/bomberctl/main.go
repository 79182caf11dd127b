// Command bomberctl administers bomberd: accounts, legacy import, schema,
// recorded games, and online users through the admin listener.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/cmd/internal/cli"
	"github.com/bomber-game/bomber/cmd/internal/config"
	"github.com/bomber-game/bomber/cmd/internal/gamerec"
	"github.com/bomber-game/bomber/rules/record"
)

const usageHead = `Usage: bomberctl [flags] COMMAND [args]

Commands:
  user add NAME [--password P]     create an account (password read from stdin if not given)
  user passwd NAME [--password P]  set a password
  user delete NAME                 delete an account
  user list                        list accounts (legacy: still a reference-server MD5 hash)
  import-legacy --file FILE        import the reference server's account table from its
                                   Database.sql, a mysqldump, a tab-separated or a CSV file
  import-legacy --from-dsn DSN [--table account]
                                   import straight from the reference server's MySQL database
  migrate [--to N] [--yes]         apply the schema migrations; with --to, go up or down to
                                   version N (down: before starting an older build on it;
                                   below version 7 it deletes data and needs --yes)
  check-schema                     report the schema version; exit 1 unless current
  games [--game G] [--user U] [--limit N] [--json]
                                   list recorded games, newest first
  games export ID [--json]         write one recorded game in its game's notation
                                   (PDN for checkers), or as JSON for bomber-replay --record
  ratings NAME [--json]            a player's Glicko-2 ratings, one per game played rated
                                   (provisional: deviation above 110, few or old games)
  ratings NAME --history [--game G] [--limit N] [--json]
                                   what the player's rated games did to their rating, newest first
  leaderboard GAME [--limit N] [--json]
                                   a game's highest ratings that are not provisional
  online [--json]                  list connections and their states (admin listener)
  kick NAME                        disconnect a user (admin listener)

Only migrate creates a SQLite store or changes the schema (bomberd does both at its
start); the other commands refuse a store that is missing or not at this build's
schema version.

Flags (the store is found as bomberd finds it: config.yaml, BOMBER_*, these flags;
relative paths in a config file are from its directory):
`

// commands maps each command to the number of words it takes (with the
// command itself), for telling an unknown command from wrong arguments.
var commands = map[string][]int{
	"user": {2, 3}, "import-legacy": {1}, "migrate": {1}, "check-schema": {1},
	"games": {1, 3}, "online": {1}, "kick": {2}, "ratings": {2}, "leaderboard": {2},
}

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bomberctl", pflag.ContinueOnError)
	fs.SetInterspersed(true)
	config.StoreFlags(fs)
	password := fs.String("password", "", "password for user add/passwd (default: read a line from stdin)")
	file := fs.String("file", "", "legacy account file for import-legacy")
	fromDSN := fs.String("from-dsn", "", "reference server's MySQL DSN for import-legacy")
	table := fs.String("table", "account", "reference server's account table")
	limit := fs.Int("limit", 20, "games or leaderboard entries to list")
	game := fs.String("game", "", "games: only this game (bomber, checkers, dots, aeroplane, paisho)")
	user := fs.String("user", "", "games: only games this user played")
	asJSON := fs.Bool("json", false, "games, games export, ratings, leaderboard and online: write JSON")
	to := fs.Int64("to", -1, "migrate: the schema version to go to, up or down (default: this build's latest)")
	yes := fs.Bool("yes", false, "migrate: go down even where that deletes data")
	history := fs.Bool("history", false, "ratings: list the rating changes of the player's rated games")
	usage := func(w io.Writer) {
		fmt.Fprint(w, usageHead)
		cli.Defaults(fs, w)
	}
	if done, code := cli.Parse(fs, args, stdout, stderr, usage); done {
		return code
	}
	cmd := fs.Args()
	if len(cmd) == 0 {
		return cli.Fail(stderr, "bomberctl", "no command given", usage)
	}
	if n, ok := commands[cmd[0]]; !ok {
		return cli.Fail(stderr, "bomberctl", fmt.Sprintf("unknown command %q", cmd[0]), usage)
	} else if !slices.Contains(n, len(cmd)) {
		return cli.Fail(stderr, "bomberctl", fmt.Sprintf("wrong arguments for %s: %q", cmd[0], strings.Join(cmd[1:], " ")), usage)
	}
	cfg, used, err := config.Load(fs)
	if err != nil {
		fmt.Fprintln(stderr, "bomberctl:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c := &ctl{cfg: cfg, cfgFile: used, out: stdout, stdin: stdin}
	switch {
	case cmd[0] == "user" && len(cmd) == 3 && cmd[1] == "add":
		err = c.withStore(ctx, func(s account.Store) error {
			pw, err := c.password(*password)
			if err == nil {
				err = s.Add(ctx, cmd[2], pw)
			}
			return c.done(err, "added %s", cmd[2])
		})
	case cmd[0] == "user" && len(cmd) == 3 && cmd[1] == "passwd":
		err = c.withStore(ctx, func(s account.Store) error {
			pw, err := c.password(*password)
			if err == nil {
				err = s.SetPassword(ctx, cmd[2], pw)
			}
			return c.done(err, "password of %s set", cmd[2])
		})
	case cmd[0] == "user" && len(cmd) == 3 && cmd[1] == "delete":
		err = c.withStore(ctx, func(s account.Store) error { return c.done(s.Delete(ctx, cmd[2]), "deleted %s", cmd[2]) })
	case cmd[0] == "user" && len(cmd) == 2 && cmd[1] == "list":
		err = c.withStore(ctx, func(s account.Store) error { return c.listUsers(ctx, s) })
	case cmd[0] == "import-legacy" && len(cmd) == 1:
		err = c.withStore(ctx, func(s account.Store) error { return c.importLegacy(ctx, s, *file, *fromDSN, *table) })
	case cmd[0] == "migrate" && len(cmd) == 1:
		err = c.migrate(ctx, *to, *yes)
	case cmd[0] == "check-schema" && len(cmd) == 1:
		err = c.checkSchema(ctx)
	case cmd[0] == "games" && len(cmd) == 1:
		f := account.GameFilter{Game: *game, User: *user, Limit: *limit}
		err = c.withStore(ctx, func(s account.Store) error { return c.games(ctx, s, f, *asJSON) })
	case cmd[0] == "games" && len(cmd) == 3 && cmd[1] == "export":
		id, perr := strconv.ParseUint(cmd[2], 10, 64)
		if perr != nil {
			fmt.Fprintf(stderr, "bomberctl: game id %q is not a number\n", cmd[2])
			return 2
		}
		err = c.withStore(ctx, func(s account.Store) error { return c.export(ctx, s, id, *asJSON) })
	case cmd[0] == "ratings" && *history:
		if *limit <= 0 {
			err = errors.New("--limit must be at least 1")
			break
		}
		err = c.withStore(ctx, func(s account.Store) error {
			h, err := s.RatingHistory(ctx, cmd[1], *game, *limit)
			return c.ratingHistory(h, err, *asJSON)
		})
	case cmd[0] == "ratings":
		err = c.withStore(ctx, func(s account.Store) error {
			rs, err := s.Ratings(ctx, cmd[1])
			if err == nil && len(rs) == 0 && !*asJSON {
				fmt.Fprintf(stderr, "bomberctl: %s has played no rated game\n", cmd[1])
			}
			return c.ratings(rs, err, *asJSON, false)
		})
	case cmd[0] == "leaderboard":
		if *limit <= 0 {
			err = errors.New("--limit must be at least 1")
			break
		}
		err = c.withStore(ctx, func(s account.Store) error {
			rs, err := s.Leaderboard(ctx, cmd[1], *limit)
			return c.ratings(rs, err, *asJSON, true)
		})
	case cmd[0] == "online" && len(cmd) == 1:
		err = c.online(ctx, *asJSON)
	case cmd[0] == "kick" && len(cmd) == 2:
		err = c.admin(ctx, http.MethodPost, "/kick", url.Values{"user": {cmd[1]}})
	default:
		return cli.Fail(stderr, "bomberctl", fmt.Sprintf("wrong arguments for %s: %q", cmd[0], strings.Join(cmd[1:], " ")), usage)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bomberctl:", err)
		return 1
	}
	return 0
}

type ctl struct {
	cfg     *config.Config
	cfgFile string // the configuration file read, "" for none
	out     io.Writer
	stdin   io.Reader
}

func (c *ctl) dialect() (account.Dialect, string) {
	if c.cfg.Store.Driver == "mysql" {
		return account.DialectMySQL, c.cfg.Store.MySQLDSN
	}
	return account.DialectSQLite, c.cfg.Store.SQLitePath
}

// withStore runs f on the store as it is: neither created nor migrated.
func (c *ctl) withStore(ctx context.Context, f func(account.Store) error) error {
	d, where := c.dialect()
	h := account.NewHasher(account.Params{
		Memory: c.cfg.Hashing.MemoryKiB, Time: c.cfg.Hashing.Iterations, Threads: c.cfg.Hashing.Parallelism,
		SaltLen: account.OWASPParams().SaltLen, KeyLen: account.OWASPParams().KeyLen,
	}, c.cfg.Hashing.MaxConcurrent)
	s, err := account.OpenExisting(ctx, d, where, h)
	if err != nil {
		return c.storeError(err)
	}
	defer s.Close()
	return f(s)
}

// storeError says what to do about a store that is missing or at another
// schema version.
func (c *ctl) storeError(err error) error {
	switch {
	case errors.Is(err, account.ErrNoStore):
		from := "no configuration file"
		if c.cfgFile != "" {
			from = "configuration " + c.cfgFile
		}
		return fmt.Errorf("%w (store.sqlite_path, %s): bomberd creates the store at its first start, "+
			"bomberctl migrate before it; to reach bomberd's store, give its configuration with --config", err, from)
	case errors.Is(err, account.ErrSchema):
		return fmt.Errorf("%w: only bomberctl migrate and bomberd's start change the schema (bomberctl migrate brings it to this build's)", err)
	}
	return err
}

func (c *ctl) done(err error, format string, a ...any) error {
	if err == nil {
		fmt.Fprintf(c.out, format+"\n", a...)
	}
	return err
}

func (c *ctl) password(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	line, err := bufio.NewReader(c.stdin).ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		if err == nil {
			err = errors.New("empty password")
		}
		return "", fmt.Errorf("reading the password from stdin: %w", err)
	}
	return line, nil
}

func (c *ctl) listUsers(ctx context.Context, s account.Store) error {
	users, err := s.List(ctx)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tCREATED\tLEGACY HASH")
	for _, u := range users {
		fmt.Fprintf(w, "%s\t%s\t%v\n", u.Name, u.Created.Format(time.RFC3339), u.Legacy)
	}
	return w.Flush()
}

func (c *ctl) importLegacy(ctx context.Context, s account.Store, file, dsn, table string) error {
	var rows []account.LegacyAccount
	var err error
	switch {
	case file != "" && dsn == "":
		f, ferr := os.Open(file)
		if ferr != nil {
			return ferr
		}
		defer f.Close()
		rows, err = account.ReadLegacy(f)
	case dsn != "" && file == "":
		db, derr := account.OpenDB(ctx, account.DialectMySQL, dsn)
		if derr != nil {
			return derr
		}
		defer db.Close()
		rows, err = account.ReadLegacyMySQL(ctx, db, table)
	default:
		return errors.New("import-legacy needs exactly one of --file and --from-dsn")
	}
	if err != nil {
		return err
	}
	n, err := s.ImportLegacy(ctx, rows)
	var skipped *account.SkippedError
	if errors.As(err, &skipped) {
		fmt.Fprintf(c.out, "skipped %d existing: %s\n", len(skipped.Names), strings.Join(skipped.Names, ", "))
		err = nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "imported %d of %d accounts; each becomes argon2id(password) at its next login\n", n, len(rows))
	return nil
}

// migrate brings the schema to version to (-1: the latest), creating a
// SQLite store that does not exist yet; a way down that deletes data needs
// yes.
func (c *ctl) migrate(ctx context.Context, to int64, yes bool) error {
	d, where := c.dialect()
	db, err := account.OpenExistingDB(ctx, d, where)
	if errors.Is(err, account.ErrNoStore) {
		fmt.Fprintf(c.out, "creating a new store at %s\n", where)
		db, err = account.OpenDB(ctx, d, where)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	loss, err := account.DownLoss(ctx, db, d, to)
	if err != nil {
		return err
	}
	if len(loss) > 0 && !yes {
		return fmt.Errorf("migrate --to %d deletes data (%s); nothing was changed: copy the store first, then add --yes",
			to, strings.Join(loss, "; "))
	}
	done, err := account.MigrateTo(ctx, db, d, to)
	if err != nil {
		return err
	}
	if len(done) > 0 && done[0] > to && to >= 0 { // going up applies nothing above to
		fmt.Fprintf(c.out, "undid %d migrations %v: schema version %d\n", len(done), done, to)
		return nil
	}
	fmt.Fprintf(c.out, "applied %d migrations %v\n", len(done), done)
	return nil
}

func (c *ctl) checkSchema(ctx context.Context) error {
	d, where := c.dialect()
	db, err := account.OpenExistingDB(ctx, d, where)
	if err != nil {
		return c.storeError(err)
	}
	defer db.Close()
	cur, latest, err := account.SchemaVersion(ctx, db, d)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "schema version %d, this build's latest %d\n", cur, latest)
	return account.CheckSchema(ctx, db, d)
}

func (c *ctl) games(ctx context.Context, s account.Store, f account.GameFilter, asJSON bool) error {
	if f.Limit <= 0 {
		return errors.New("--limit must be at least 1")
	}
	gs, err := s.Games(ctx, f)
	if err != nil {
		return err
	}
	if asJSON {
		if gs == nil {
			gs = []record.Game{}
		}
		return c.writeJSON(gs)
	}
	w := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tGAME\tPLAYERS\tRESULT\tREASON\tMOVES\tSTART\tDURATION")
	for _, g := range gs {
		var players []string
		for _, st := range g.Seats {
			players = append(players, gamerec.SeatName(st))
		}
		start, end := time.Unix(0, g.Start).UTC(), time.Unix(0, g.End).UTC()
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", g.ID, g.Game, strings.Join(players, ", "), gamerec.Result(&g),
			g.Reason, g.MoveCount, start.Format(time.RFC3339), end.Sub(start).Round(time.Second))
	}
	return w.Flush()
}

// ratingJSON is a rating as ratings and leaderboard --json write it.
type ratingJSON struct {
	Game        string    `json:"game"`
	Name        string    `json:"name"`
	Rating      float64   `json:"rating"`
	Deviation   float64   `json:"deviation"`
	Volatility  float64   `json:"volatility"`
	Games       int       `json:"games"`
	Provisional bool      `json:"provisional"`
	Updated     time.Time `json:"updated"`
}

// ratings writes rs (or err): a table, ranked for a leaderboard, with a
// provisional rating marked "?" after it as lichess does, or JSON.
func (c *ctl) ratings(rs []account.Rating, err error, asJSON, ranked bool) error {
	if err != nil {
		return err
	}
	if asJSON {
		out := []ratingJSON{}
		for _, r := range rs {
			out = append(out, ratingJSON{r.Game, r.Name, r.Rating, r.Deviation, r.Volatility, r.Games, r.Provisional(), r.Updated})
		}
		return c.writeJSON(out)
	}
	w := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	if ranked {
		fmt.Fprintln(w, "RANK\tNAME\tRATING\tDEVIATION\tGAMES\tLAST GAME")
	} else {
		fmt.Fprintln(w, "GAME\tRATING\tDEVIATION\tGAMES\tLAST GAME")
	}
	for i, r := range rs {
		rating := fmt.Sprintf("%.0f", r.Rating)
		if r.Provisional() {
			rating += "?"
		}
		if ranked {
			fmt.Fprintf(w, "%d\t%s\t", i+1, r.Name)
		} else {
			fmt.Fprintf(w, "%s\t", r.Game)
		}
		fmt.Fprintf(w, "%s\t%.0f\t%d\t%s\n", rating, r.Deviation, r.Games, r.Updated.Format(time.RFC3339))
	}
	return w.Flush()
}

// ratingHistory writes what rated games did to a rating: a table, or JSON.
func (c *ctl) ratingHistory(h []account.RatingChange, err error, asJSON bool) error {
	if err != nil {
		return err
	}
	if asJSON {
		type change struct {
			GameID    uint64    `json:"game_id"`
			Game      string    `json:"game"`
			Before    float64   `json:"before"`
			Rating    float64   `json:"rating"`
			Deviation float64   `json:"deviation"`
			Ended     time.Time `json:"ended"`
		}
		out := []change{}
		for _, x := range h {
			out = append(out, change{x.GameID, x.Game, x.Before, x.Rating, x.Deviation, x.Ended})
		}
		return c.writeJSON(out)
	}
	w := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tGAME\tRATING\tCHANGE\tDEVIATION\tENDED")
	for _, x := range h {
		fmt.Fprintf(w, "%d\t%s\t%.0f\t%+.0f\t%.0f\t%s\n", x.GameID, x.Game, x.Rating, x.Rating-x.Before, x.Deviation, x.Ended.Format(time.RFC3339))
	}
	return w.Flush()
}

// export writes one game in its notation, or as the record itself in JSON.
func (c *ctl) export(ctx context.Context, s account.Store, id uint64, asJSON bool) error {
	g, err := s.Game(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		return c.writeJSON(g)
	}
	text, err := gamerec.Export(&g)
	if err != nil {
		return fmt.Errorf("%w (--json exports the record as it is)", err)
	}
	_, err = io.WriteString(c.out, text)
	return err
}

func (c *ctl) writeJSON(v any) error {
	enc := json.NewEncoder(c.out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// online prints the admin listener's connections as a table, or its JSON
// as it is for scripts.
func (c *ctl) online(ctx context.Context, asJSON bool) error {
	var buf bytes.Buffer
	if err := c.adminTo(ctx, &buf, http.MethodGet, "/users", nil); err != nil {
		return err
	}
	if asJSON {
		_, err := c.out.Write(buf.Bytes())
		return err
	}
	var conns []struct {
		Conn     uint64 `json:"conn"`
		User     string `json:"user"`
		State    string `json:"state"`
		Opponent string `json:"opponent"`
	}
	if err := json.Unmarshal(buf.Bytes(), &conns); err != nil {
		return fmt.Errorf("admin listener: /users: %w", err)
	}
	w := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "CONN\tUSER\tSTATE\tOPPONENT")
	for _, u := range conns {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\n", u.Conn, orDash(u.User), u.State, orDash(u.Opponent))
	}
	fmt.Fprintf(w, "%d connection(s)\n", len(conns))
	return w.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// admin calls bomberd's admin listener and prints its answer.
func (c *ctl) admin(ctx context.Context, method, path string, form url.Values) error {
	return c.adminTo(ctx, c.out, method, path, form)
}

// adminTo calls bomberd's admin listener and writes its answer to out.
func (c *ctl) adminTo(ctx context.Context, out io.Writer, method, path string, form url.Values) error {
	if c.cfg.Admin.Listen == "" {
		return errors.New("admin.listen is empty: the admin listener is disabled")
	}
	host := c.cfg.Admin.Listen
	if strings.HasPrefix(host, ":") {
		host = "127.0.0.1" + host
	}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://"+host+path, body)
	if err != nil {
		return err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	token := c.cfg.Admin.Token
	if token == "" {
		token, err = config.ReadAdminToken(c.cfg.Admin)
		if err != nil && method != http.MethodGet {
			return fmt.Errorf("%w (bomberd writes it on its first start; give bomberd's configuration with --config, or set admin.token_file or BOMBER_ADMIN_TOKEN)", err)
		}
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("admin listener: %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, strings.TrimSpace(string(b)))
	}
	_, err = out.Write(b)
	return err
}
