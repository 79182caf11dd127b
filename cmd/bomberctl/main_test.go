package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bomber-game/bomber/internal/mysqltest"
)

// TestMain fails the run when a test left one of its databases behind.
func TestMain(m *testing.M) { os.Exit(mysqltest.CheckMain(m)) }

// ctlRun runs bomberctl on a temporary SQLite store with cheap hashing.
func ctlRun(t *testing.T, db, stdin string, args ...string) (int, string) {
	t.Helper()
	t.Setenv("BOMBER_STORE_SQLITE_PATH", db)
	t.Setenv("BOMBER_HASHING_MEMORY_KIB", "64")
	t.Setenv("BOMBER_HASHING_ITERATIONS", "1")
	var out, errb bytes.Buffer
	cfg := filepath.Join(t.TempDir(), "empty.yaml")
	os.WriteFile(cfg, []byte("# defaults\n"), 0o644)
	code := run(append([]string{"--config", cfg}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String() + errb.String()
}

func TestAccounts(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	steps := []struct {
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"", []string{"user", "add", "Alice", "--password", "s3cret"}, 0, "added Alice"},
		{"pw-from-stdin\n", []string{"user", "add", "Bob"}, 0, "added Bob"},
		{"", []string{"user", "add", "Alice", "--password", "x"}, 1, "exists"},
		{"", []string{"user", "passwd", "Nobody", "--password", "x"}, 1, ""},
		{"", []string{"user", "list"}, 0, "Alice"},
		{"", []string{"user", "delete", "Bob"}, 0, "deleted Bob"},
		{"", []string{"check-schema"}, 0, "schema version"},
		{"", []string{"migrate"}, 0, "applied 0 migrations"},
		{"", []string{"games"}, 0, "PLAYERS"},
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
		got = append(got, r.Method+" "+r.URL.Path+" "+r.FormValue("user"))
		if r.FormValue("user") == "Ghost" {
			http.Error(w, "not online: Ghost", http.StatusNotFound)
			return
		}
		w.Write([]byte(`[{"conn":7,"user":"Albert","state":"ClientWaiting"},{"conn":9,"state":"GatherUserInfo"}]` + "\n"))
	}))
	defer srv.Close()
	t.Setenv("BOMBER_ADMIN_LISTEN", strings.TrimPrefix(srv.URL, "http://"))
	db := filepath.Join(t.TempDir(), "x.db")
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
	want := "POST /kick Alice|POST /kick Ghost|GET /users |GET /users "
	if strings.Join(got, "|") != want {
		t.Fatalf("requests %q, want %q", got, want)
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
	if code != 0 || !strings.Contains(out, "schema version 2, this build's latest 2") {
		t.Fatalf("check-schema after schema.sql: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, "", "", "migrate"); code != 0 || !strings.Contains(out, "applied 0 migrations") {
		t.Fatalf("migrate after schema.sql: exit %d\n%s", code, out)
	}
}

// TestSchemaInAdvanceSQLite follows the documented path for the embedded
// store: bomberctl migrate creates the schema, check-schema agrees.
func TestSchemaInAdvanceSQLite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "bomber.db")
	if code, out := ctlRun(t, db, "", "check-schema"); code != 1 || !strings.Contains(out, "schema version 0") {
		t.Fatalf("check-schema on a fresh file: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "migrate"); code != 0 || !strings.Contains(out, "applied 2 migrations") {
		t.Fatalf("migrate: exit %d\n%s", code, out)
	}
	if code, out := ctlRun(t, db, "", "check-schema"); code != 0 || !strings.Contains(out, "schema version 2, this build's latest 2") {
		t.Fatalf("check-schema after migrate: exit %d\n%s", code, out)
	}
}
