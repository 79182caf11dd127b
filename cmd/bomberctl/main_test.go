package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bomber-game/bomber/account"
	"github.com/bomber-game/bomber/cmd/internal/gamerec"
	"github.com/bomber-game/bomber/internal/mysqltest"
	"github.com/bomber-game/bomber/rules"
	"github.com/bomber-game/bomber/rules/checkers"
	"github.com/bomber-game/bomber/rules/record"
)

// TestMain fails the run when a test left one of its databases behind.
func TestMain(m *testing.M) { os.Exit(mysqltest.CheckMain(m)) }

// ctlRun runs bomberctl on a temporary SQLite store with cheap hashing.
func ctlRun(t *testing.T, db, stdin string, args ...string) (int, string) {
	t.Helper()
	t.Setenv("BOMBER_STORE_SQLITE_PATH", db)
	t.Setenv("BOMBER_HASHING_MEMORY_KIB", "64")
	t.Setenv("BOMBER_HASHING_ITERATIONS", "1")
	cfg := filepath.Join(t.TempDir(), "empty.yaml")
	os.WriteFile(cfg, []byte("# defaults\n"), 0o644)
	return runCtl(stdin, append([]string{"--config", cfg}, args...)...)
}

// runCtl runs bomberctl as it is given, in this process's environment.
func runCtl(stdin string, args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String() + errb.String()
}

// newStore creates the schema of a fresh store at db, as bomberd's first
// start or bomberctl migrate does.
func newStore(t *testing.T, db string) {
	t.Helper()
	if code, out := ctlRun(t, db, "", "migrate"); code != 0 || !strings.Contains(out, "creating a new store at "+db) {
		t.Fatalf("migrate on a fresh path: exit %d\n%s", code, out)
	}
}

func TestAccounts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	steps := []struct {
		stdin string
		args  []string
		code  int
		want  string
	}{
		// no store yet: said so, and nothing created
		{"", []string{"user", "add", "Alice", "--password", "s3cret"}, 1, "no store at " + db},
		{"", []string{"user", "list"}, 1, "bomberd creates the store at its first start"},
		{"", []string{"migrate"}, 0, "applied 7 migrations"},
		{"", []string{"user", "add", "Alice", "--password", "s3cret"}, 0, "added Alice"},
		{"pw-from-stdin\n", []string{"user", "add", "Bob"}, 0, "added Bob"},
		{"", []string{"user", "add", "Alice", "--password", "x"}, 1, "exists"},
		{"", []string{"user", "passwd", "Nobody", "--password", "x"}, 1, ""},
		{"", []string{"user", "list"}, 0, "Alice"},
		{"", []string{"user", "delete", "Bob"}, 0, "deleted Bob"},
		{"", []string{"check-schema"}, 0, "schema version"},
		{"", []string{"migrate"}, 0, "applied 0 migrations"},
		{"", []string{"games"}, 0, "PLAYERS"},
		{"", []string{"games", "export", "1"}, 1, "no such game"},
		{"", []string{"frobnicate"}, 2, "Usage"},
	}
	for _, s := range steps {
		code, out := ctlRun(t, db, s.stdin, s.args...)
		if code != s.code || !strings.Contains(out, s.want) {
			t.Fatalf("bomberctl %v: exit %d, output %q; want %d and %q", s.args, code, out, s.code, s.want)
		}
	}
	if _, out := ctlRun(t, db, "", "user", "list"); strings.Contains(out, "Bob") {
		t.Fatalf("deleted user still listed:\n%s", out)
	}
}

func TestImportLegacy(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "bomber.db")
	file := filepath.Join(dir, "account.tsv")
	newStore(t, db)
	// MD5("123"), as the reference server's Database.sql stores it
	os.WriteFile(file, []byte("Novate\t202cb962ac59075b964b07152d234b70\nLarry\t202cb962ac59075b964b07152d234b70\n"), 0o644)
	code, out := ctlRun(t, db, "", "import-legacy", "--file", file)
	if code != 0 || !strings.Contains(out, "imported 2 of 2") {
		t.Fatalf("import: %d %s", code, out)
	}
	code, out = ctlRun(t, db, "", "import-legacy", "--file", file)
	if code != 0 || !strings.Contains(out, "skipped 2 existing") {
		t.Fatalf("second import: %d %s", code, out)
	}
	if _, out := ctlRun(t, db, "", "user", "list"); !strings.Contains(out, "true") {
		t.Fatalf("imported accounts not marked legacy:\n%s", out)
	}
	if code, _ := ctlRun(t, db, "", "import-legacy"); code != 1 {
		t.Fatal("import-legacy without a source accepted")
	}
}

// TestImportReferenceDatabaseSQL imports the reference server's own
// Database.sql form (create database, use, MD5('123') rows) as it is, and
// the CSV form docs/operations.md shows, header included.
func TestImportReferenceDatabaseSQL(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "bomber.db")
	newStore(t, db)
	code, out := ctlRun(t, db, "", "import-legacy", "--file", "../../account/testdata/reference-database.sql")
	if code != 0 || !strings.Contains(out, "imported 7 of 7") {
		t.Fatalf("import of Database.sql: %d %s", code, out)
	}
	csv := filepath.Join(dir, "account.csv")
	os.WriteFile(csv, []byte("name,md5hex\nErin,202cb962ac59075b964b07152d234b70\n"), 0o644)
	code, out = ctlRun(t, db, "", "import-legacy", "--file", csv)
	if code != 0 || !strings.Contains(out, "imported 1 of 1") {
		t.Fatalf("import of the documented CSV: %d %s", code, out)
	}
	if _, out := ctlRun(t, db, "", "user", "list"); !strings.Contains(out, "Erin") || !strings.Contains(out, "Dora") {
		t.Fatalf("imported accounts not listed:\n%s", out)
	}
}

func TestKickAndOnlineTalkToTheAdminListener(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.Path+" "+r.FormValue("user")+" "+r.Header.Get("Authorization"))
		if r.FormValue("user") == "Ghost" {
			http.Error(w, "not online: Ghost", http.StatusNotFound)
			return
		}
		w.Write([]byte(`[{"conn":7,"user":"Albert","state":"ClientWaiting"},{"conn":9,"state":"GatherUserInfo"}]` + "\n"))
	}))
	defer srv.Close()
	t.Setenv("BOMBER_ADMIN_LISTEN", strings.TrimPrefix(srv.URL, "http://"))
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	// the token bomberd wrote on its first start
	t.Setenv("BOMBER_ADMIN_TOKEN_FILE", filepath.Join(dir, "admin.token"))
	if code, out := ctlRun(t, db, "", "kick", "Alice"); code != 1 || !strings.Contains(out, "admin token") {
		t.Fatalf("kick without a token file: %d %s", code, out)
	}
	os.WriteFile(filepath.Join(dir, "admin.token"), []byte("s3cret\n"), 0o600)
	if code, out := ctlRun(t, db, "", "kick", "Alice"); code != 0 {
		t.Fatalf("kick: %d %s", code, out)
	}
	if code, out := ctlRun(t, db, "", "kick", "Ghost"); code != 1 || !strings.Contains(out, "not online") {
		t.Fatalf("kick of an offline user: %d %s", code, out)
	}
	// online prints a table like the other listing commands, --json the JSON.
	code, out := ctlRun(t, db, "", "online")
	table := regexp.MustCompile(`(?m)^CONN +USER +STATE +OPPONENT\n7 +Albert +ClientWaiting +-\n9 +- +GatherUserInfo +-\n2 connection\(s\)\n$`)
	if code != 0 || !table.MatchString(out) {
		t.Fatalf("online: %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "online", "--json"); code != 0 || !strings.HasPrefix(out, `[{"conn":7,"user":"Albert"`) {
		t.Fatalf("online --json: %d %q", code, out)
	}
	want := "POST /kick Alice Bearer s3cret|POST /kick Ghost Bearer s3cret|GET /users  Bearer s3cret|GET /users  Bearer s3cret"
	if strings.Join(got, "|") != want {
		t.Fatalf("requests %q, want %q", got, want)
	}
}

// recordGames stores real games in a fresh SQLite store: a checkers game
// played to its end with random legal moves, and a Bomber record as the
// hub makes them today (two seats, no moves).
func recordGames(t *testing.T, db string) (checkersGame, bomberGame record.Game) {
	t.Helper()
	ctx := t.Context()
	s, err := account.OpenSQLite(ctx, db, account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var seed record.Seed
	seed[0] = 7
	start := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	checkersGame, err = gamerec.PlayRandom("checkers", []record.Seat{{Name: "Beth"}, {Name: "Cindy"}}, nil, seed, start, 1000)
	if err != nil || checkersGame.Reason != "won" {
		t.Fatalf("checkers game: %s, %v", checkersGame.Reason, err)
	}
	bomberGame = record.Game{Game: "bomber", Seats: []record.Seat{{Name: "Albert"}, {Name: "Larry"}},
		Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{1}}, Reason: "won", Leaver: rules.Spectator,
		Start: start.Add(time.Hour).UnixNano(), End: start.Add(time.Hour + 90*time.Second).UnixNano()}
	for _, g := range []*record.Game{&checkersGame, &bomberGame} {
		if g.ID, err = s.RecordGame(ctx, *g); err != nil {
			t.Fatal(err)
		}
	}
	return checkersGame, bomberGame
}

func TestGamesListAndFilters(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	ch, bo := recordGames(t, db)
	code, out := ctlRun(t, db, "", "games")
	if code != 0 {
		t.Fatalf("games: %d %s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("games: want a header and two rows:\n%s", out)
	}
	for _, f := range []string{"GAME", "PLAYERS", "RESULT", "REASON", "MOVES", "START", "DURATION"} {
		if !strings.Contains(lines[0], f) {
			t.Errorf("header lacks %s: %q", f, lines[0])
		}
	}
	// newest first: the Bomber game started an hour later
	wantRows := []struct {
		line string
		want []string
	}{
		{lines[1], []string{fmt.Sprint(bo.ID), "bomber", "Albert, Larry", "Larry won", " 0 ", "2025-02-03T05:05:06Z", "1m30s"}},
		{lines[2], []string{fmt.Sprint(ch.ID), "checkers", "Beth, Cindy", gamerec.Result(&ch), fmt.Sprintf(" %d ", len(ch.Moves)), "2025-02-03T04:05:06Z"}},
	}
	for _, r := range wantRows {
		for _, w := range r.want {
			if !strings.Contains(r.line, w) {
				t.Errorf("row %q lacks %q", r.line, w)
			}
		}
	}
	for _, c := range []struct {
		args []string
		ids  []uint64
	}{
		{[]string{"--game", "checkers"}, []uint64{ch.ID}},
		{[]string{"--user", "Larry"}, []uint64{bo.ID}},
		{[]string{"--user", "Nobody"}, nil},
		{[]string{"--limit", "1"}, []uint64{bo.ID}},
		{nil, []uint64{bo.ID, ch.ID}},
	} {
		code, out := ctlRun(t, db, "", append([]string{"games", "--json"}, c.args...)...)
		var got []record.Game
		if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
			t.Fatalf("games --json %v: %d %v\n%s", c.args, code, err, out)
		}
		var ids []uint64
		for _, g := range got {
			ids = append(ids, g.ID)
			if g.Moves != nil || (g.ID == ch.ID && g.MoveCount != len(ch.Moves)) {
				t.Errorf("listed game %d: %d moves loaded, MoveCount %d", g.ID, len(g.Moves), g.MoveCount)
			}
		}
		if !slices.Equal(ids, c.ids) {
			t.Errorf("games --json %v: ids %v, want %v", c.args, ids, c.ids)
		}
	}
	if code, out := ctlRun(t, db, "", "games", "--limit", "0"); code != 1 {
		t.Errorf("--limit 0: %d %s", code, out)
	}
}

func TestGamesExport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	ch, bo := recordGames(t, db)

	code, out := ctlRun(t, db, "", "games", "export", fmt.Sprint(ch.ID))
	if code != 0 {
		t.Fatalf("export: %d %s", code, out)
	}
	pdn, err := checkers.ParsePDN(out)
	if err != nil || len(pdn) != 1 {
		t.Fatalf("export is not one PDN game (%v):\n%s", err, out)
	}
	if b, _ := pdn[0].Tag("Black"); b != "Beth" {
		t.Errorf("Black = %q, want Beth", b)
	}
	if len(pdn[0].Moves) != len(ch.Moves) || pdn[0].Moves[0] != ch.Moves[0].Text {
		t.Errorf("PDN has %d moves starting %v; the game had %d starting %q", len(pdn[0].Moves), pdn[0].Moves[:1], len(ch.Moves), ch.Moves[0].Text)
	}
	g, err := pdn[0].Replay(nil)
	if err != nil || g.Outcome().Status != rules.Won || !slices.Equal(g.Outcome().Winners, ch.Outcome.Winners) {
		t.Errorf("the PDN replays to %+v, %v; the game ended %+v", g.Outcome(), err, ch.Outcome)
	}

	code, out = ctlRun(t, db, "", "games", "export", fmt.Sprint(ch.ID), "--json")
	var back record.Game
	if err := json.Unmarshal([]byte(out), &back); code != 0 || err != nil {
		t.Fatalf("export --json: %d %v\n%s", code, err, out)
	}
	if back.ID != ch.ID || back.Seed != ch.Seed || len(back.Moves) != len(ch.Moves) || back.Moves[3] != ch.Moves[3] {
		t.Errorf("export --json gave %+v", back)
	}
	if _, err := gamerec.Replay(&back); err != nil {
		t.Errorf("the JSON export does not replay: %v", err)
	}

	code, out = ctlRun(t, db, "", "games", "export", fmt.Sprint(bo.ID))
	if code != 0 || !strings.HasPrefix(out, "[Game \"bomber\"]\n") || !strings.Contains(out, "[Seat1 \"Larry\"]\n[Start") || !strings.Contains(out, `[Result "Larry won"]`) {
		t.Errorf("bomber export: %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "games", "export", "999"); code != 1 || !strings.Contains(out, "no such game") {
		t.Errorf("export of an unknown id: %d %s", code, out)
	}
	if code, _ := ctlRun(t, db, "", "games", "export", "x"); code != 2 {
		t.Errorf("export of a non-number: %d", code)
	}
}

// TestSchemaByHandMySQL follows docs/operations.md: create the database,
// apply schema.sql with the mysql client, then check-schema reports the
// current version (it said 0 before schema.sql recorded it).
func TestSchemaByHandMySQL(t *testing.T) {
	mysqlCLI, err := exec.LookPath("mysql")
	if err != nil {
		t.Skip("no mysql client")
	}
	name, dsn := mysqltest.NewDatabase(t, "schema")
	host, port := "127.0.0.1", "3306"
	if i, j := strings.Index(dsn, "tcp("), strings.Index(dsn, ")"); i >= 0 && j > i {
		host, port, _ = strings.Cut(dsn[i+4:j], ":")
	}
	user := dsn[:strings.IndexAny(dsn, ":@")]
	schema, err := os.Open("../../schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	defer schema.Close()
	cmd := exec.Command(mysqlCLI, "-h", host, "-P", port, "-u", user, "--protocol=tcp", name)
	cmd.Stdin = schema
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mysql %s < schema.sql: %v\n%s", name, err, out)
	}
	t.Setenv("BOMBER_STORE_DRIVER", "mysql")
	t.Setenv("BOMBER_STORE_MYSQL_DSN", dsn)
	code, out := ctlRun(t, filepath.Join(t.TempDir(), "unused.db"), "", "check-schema")
	if code != 0 || !strings.Contains(out, "schema version 7, this build's latest 7") {
		t.Fatalf("check-schema after schema.sql: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, "", "", "migrate"); code != 0 || !strings.Contains(out, "applied 0 migrations") {
		t.Fatalf("migrate after schema.sql: exit %d\n%s", code, out)
	}
}

// TestSchemaInAdvanceSQLite follows the documented path for the embedded
// store: bomberctl migrate creates the store and its schema, check-schema
// agrees (and before, says there is no store, creating none).
func TestSchemaInAdvanceSQLite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	if code, out := ctlRun(t, db, "", "check-schema"); code != 1 || !strings.Contains(out, "no store at "+db) {
		t.Fatalf("check-schema on a missing file: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("check-schema created the store")
	}
	if code, out := ctlRun(t, db, "", "migrate"); code != 0 || !strings.Contains(out, "creating a new store at "+db) || !strings.Contains(out, "applied 7 migrations") {
		t.Fatalf("migrate: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "check-schema"); code != 0 || !strings.Contains(out, "schema version 7, this build's latest 7") {
		t.Fatalf("check-schema after migrate: exit %d\n%s", code, out)
	}
}

// TestMigrateDownForAnOlderBuild follows the documented way back to an
// older build: migrate --to its version keeps every recorded move (the
// older build reads them from game_moves), check-schema then says the
// database is behind this build, and migrating up again exports the same
// game.
func TestMigrateDownForAnOlderBuild(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	ch, _ := recordGames(t, db)
	code, before := ctlRun(t, db, "", "games", "export", fmt.Sprint(ch.ID))
	if code != 0 {
		t.Fatalf("games export: %d %s", code, before)
	}
	if code, out := ctlRun(t, db, "", "migrate", "--to", "9"); code != 1 || !strings.Contains(out, "no version 9") {
		t.Errorf("migrate --to 9: exit %d\n%s", code, out)
	}
	// going back deletes the ratings (the older build has none), so it needs --yes
	if code, out := ctlRun(t, db, "", "migrate", "--to", "3"); code != 1 || !strings.Contains(out, "undoing version 5 deletes every rating") {
		t.Fatalf("migrate --to 3 without --yes: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "migrate", "--to", "3", "--yes"); code != 0 || !strings.Contains(out, "undid 4 migrations [7 6 5 4]: schema version 3") {
		t.Fatalf("migrate --to 3: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "check-schema"); code != 1 || !strings.Contains(out, "schema version 3, this build's latest 7") {
		t.Errorf("check-schema at version 3: exit %d\n%s", code, out)
	}
	// the other commands leave the older schema as it is, and say why
	for _, args := range [][]string{{"user", "list"}, {"games"}, {"user", "add", "Erin", "--password", "x"}} {
		if code, out := ctlRun(t, db, "", args...); code != 1 || !strings.Contains(out, "database is at version 3, this build expects 7") ||
			!strings.Contains(out, "only bomberctl migrate and bomberd's start change the schema") {
			t.Errorf("%v at version 3: exit %d\n%s", args, code, out)
		}
	}
	if code, out := ctlRun(t, db, "", "check-schema"); !strings.Contains(out, "schema version 3,") {
		t.Fatalf("after the other commands the schema is no longer at version 3: exit %d\n%s", code, out)
	}
	sqldb, err := account.OpenDB(t.Context(), account.DialectSQLite, db)
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	err = sqldb.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM game_moves WHERE game_id = ?", ch.ID).Scan(&rows)
	sqldb.Close()
	if err != nil || rows != len(ch.Moves) {
		t.Errorf("version 3 has %d game_moves rows of game %d (%v); want its %d moves", rows, ch.ID, err, len(ch.Moves))
	}
	if code, out := ctlRun(t, db, "", "migrate"); code != 0 || !strings.Contains(out, "applied 4 migrations [4 5 6 7]") {
		t.Fatalf("migrate up again: exit %d\n%s", code, out)
	}
	if code, after := ctlRun(t, db, "", "games", "export", fmt.Sprint(ch.ID)); code != 0 || after != before {
		t.Errorf("games export after down and up: exit %d\n%s\nwant\n%s", code, after, before)
	}
}

// TestMigrateDownThatDeletesNeedsYes: going below version 3 deletes
// recorded games (and, at 0, every account; below 5, every rating), so migrate refuses it without
// --yes and changes nothing; with --yes it goes down.
func TestMigrateDownThatDeletesNeedsYes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	recordGames(t, db)
	for _, to := range []string{"2", "0"} {
		code, out := ctlRun(t, db, "", "migrate", "--to", to)
		if code != 1 || !strings.Contains(out, "migrate --to "+to+" deletes data") || !strings.Contains(out, "--yes") ||
			!strings.Contains(out, "undoing version 3 deletes every recorded game but two-seat Bomber games") {
			t.Fatalf("migrate --to %s without --yes: exit %d\n%s", to, code, out)
		}
	}
	code, out := ctlRun(t, db, "", "migrate", "--to", "0")
	if !strings.Contains(out, "undoing version 1 deletes every account") {
		t.Errorf("migrate --to 0 does not say the accounts go: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "check-schema"); code != 0 || !strings.Contains(out, "schema version 7,") {
		t.Fatalf("a refused migrate changed the schema: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "migrate", "--to", "0", "--yes"); code != 0 || !strings.Contains(out, "undid 7 migrations [7 6 5 4 3 2 1]: schema version 0") {
		t.Fatalf("migrate --to 0 --yes: exit %d\n%s", code, out)
	}
}

// TestFromAnotherDirectoryWithTheDaemonsConfig: bomberd started from one
// directory on a configuration with relative paths, and bomberctl run from
// another with the same --config, see the same store and admin token; run
// without it there, bomberctl says it finds no store, and creates none.
func TestFromAnotherDirectoryWithTheDaemonsConfig(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "bomberd")
	if out, err := exec.Command("go", "build", "-o", bin, "../bomberd").CombinedOutput(); err != nil {
		t.Fatalf("building bomberd: %v\n%s", err, out)
	}
	etc := t.TempDir()
	cfg := filepath.Join(etc, "bomber.yaml")
	os.WriteFile(cfg, []byte("log:\n  format: console\nstore:\n  sqlite_path: var/bomber.db\n"+
		"admin:\n  listen: 127.0.0.1:0\n  token_file: var/admin.token\n"), 0o644)
	d := exec.Command(bin, "--config", cfg)
	d.Dir = t.TempDir() // neither the configuration's directory nor bomberctl's
	d.Env = append(os.Environ(), "BOMBER_LISTEN=127.0.0.1:0", "BOMBER_WEB_LISTEN=",
		"BOMBER_HASHING_MEMORY_KIB=64", "BOMBER_HASHING_ITERATIONS=1")
	logs, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	d.Stdout, d.Stderr = w, w
	err = d.Start()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Process.Signal(syscall.SIGTERM); d.Wait(); logs.Close() })
	// the admin listener's port, which the kernel picked
	var log strings.Builder
	var admin string
	adminLine := regexp.MustCompile(`\tadmin listening\t\{"addr": "([^"]+)"\}`)
	for sc := bufio.NewScanner(logs); admin == ""; {
		if !sc.Scan() {
			t.Fatalf("bomberd exited before listening:\n%s", log.String())
		}
		log.WriteString(sc.Text() + "\n")
		if m := adminLine.FindStringSubmatch(sc.Text()); m != nil {
			admin = m[1]
		}
	}
	go io.Copy(io.Discard, logs)

	t.Chdir(t.TempDir())
	if code, out := runCtl("", "--config", cfg, "user", "list"); code != 0 || !strings.Contains(out, "Novate") {
		t.Errorf("user list with the daemon's --config: exit %d\n%s", code, out)
	}
	// kick reads the token bomberd wrote beside the store: not online, but
	// authorised (without the token: 401)
	if code, out := runCtl("", "--config", cfg, "--admin-listen", admin, "kick", "Ghost"); code != 1 || !strings.Contains(out, "not online") {
		t.Errorf("kick with the daemon's --config: exit %d\n%s", code, out)
	}
	if code, out := runCtl("", "user", "list"); code != 1 || !strings.Contains(out, "no store at var/bomber.db") {
		t.Errorf("user list without --config elsewhere: exit %d\n%s", code, out)
	}
	if _, err := os.Stat("var"); err == nil {
		t.Error("bomberctl without --config created a store where it ran")
	}
}

// TestRatingsAndLeaderboard: after rated games, ratings shows a player's
// rating per game (a provisional one marked "?") and leaderboard ranks a
// game's settled ratings; a player without rated games is told so.
func TestRatingsAndLeaderboard(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	ctx := t.Context()
	s, err := account.OpenSQLite(ctx, db, account.NewHasher(account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Beth", "Cindy", "Dora"} {
		if err := s.Add(ctx, n, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	game := func(i int, g string, a, b string, winner rules.Player) record.Game {
		r := record.Game{Game: g, Seats: []record.Seat{{Name: a}, {Name: b}}, Options: rules.Options{record.RatedOption: "true"},
			Outcome: rules.Outcome{Status: rules.Won, Winners: []rules.Player{winner}}, Reason: "won", Leaver: rules.Spectator,
			Start: start.Add(time.Duration(i) * time.Hour).UnixNano(), End: start.Add(time.Duration(i)*time.Hour + time.Minute).UnixNano()}
		r.Seed[0], r.Seed[1] = byte(i), 1
		return r
	}
	for i := range 40 {
		winner := rules.Player(0)
		if i%4 == 3 {
			winner = 1
		}
		if _, err := s.RecordGame(ctx, game(i, "checkers", "Beth", "Cindy", winner)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RecordGame(ctx, game(100, "dots", "Beth", "Dora", 1)); err != nil {
		t.Fatal(err)
	}
	s.Close()

	code, out := ctlRun(t, db, "", "ratings", "Beth")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[1], "checkers") || strings.Contains(lines[1], "?") ||
		!strings.HasPrefix(lines[2], "dots") || !strings.Contains(lines[2], "?") {
		t.Fatalf("ratings Beth: exit %d\n%s", code, out)
	}
	code, out = ctlRun(t, db, "", "leaderboard", "checkers")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[1], "1  ") || !strings.Contains(lines[1], "Beth") || !strings.Contains(lines[2], "Cindy") {
		t.Fatalf("leaderboard checkers: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "leaderboard", "dots"); code != 0 || strings.Contains(out, "Dora") {
		t.Errorf("a provisional rating on the leaderboard: exit %d\n%s", code, out)
	}
	code, out = ctlRun(t, db, "", "leaderboard", "checkers", "--limit", "1", "--json")
	var board []struct {
		Name        string
		Rating      float64
		Provisional bool
	}
	if err := json.Unmarshal([]byte(out), &board); code != 0 || err != nil || len(board) != 1 || board[0].Name != "Beth" || board[0].Rating <= 1500 || board[0].Provisional {
		t.Fatalf("leaderboard --json --limit 1: exit %d, %v\n%s", code, err, out)
	}
	code, out = ctlRun(t, db, "", "ratings", "Beth", "--history", "--limit", "3")
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || !strings.Contains(lines[1], "dots") || !strings.Contains(lines[2], "checkers") || !strings.Contains(lines[2], " -") || !strings.Contains(lines[3], "+") {
		t.Fatalf("ratings Beth --history --limit 3: exit %d\n%s", code, out)
	}
	code, out = ctlRun(t, db, "", "ratings", "Beth", "--history", "--game", "checkers", "--json", "--limit", "1000")
	var changes []struct {
		Game           string
		Before, Rating float64
	}
	if err := json.Unmarshal([]byte(out), &changes); code != 0 || err != nil || len(changes) != 40 || changes[39].Before != 1500 {
		t.Fatalf("ratings Beth --history --game checkers --json: exit %d, %v, %d changes\n%.300s", code, err, len(changes), out)
	}
	if code, out := ctlRun(t, db, "", "ratings", "Erin"); code != 0 || !strings.Contains(out, "Erin has played no rated game") {
		t.Errorf("ratings of a player without rated games: exit %d\n%s", code, out)
	}
}
