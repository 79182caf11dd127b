package account

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

const md5of123 = "202cb962ac59075b964b07152d234b70"

func TestReadLegacyDumpFile(t *testing.T) {
	f, err := os.Open("testdata/reference-dump.sql")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ReadLegacy(f)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range got {
		names = append(names, a.Name)
		if a.MD5Hex != md5of123 {
			t.Errorf("%s: MD5 %q, want %s", a.Name, a.MD5Hex, md5of123)
		}
	}
	want := []string{"Novate", "Twofyw", "Larry", "Albert", "Beth", `O'Brien; "x"`}
	if !slices.Equal(names, want) {
		t.Errorf("names %q, want %q (rows of other tables must be ignored)", names, want)
	}
}

// TestReadLegacyReferenceDatabaseSQL reads a copy of the form of the
// reference server's own Database.sql: create database, use, and rows
// written as MD5('123') expressions.
func TestReadLegacyReferenceDatabaseSQL(t *testing.T) {
	f, err := os.Open("testdata/reference-database.sql")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := ReadLegacy(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []LegacyAccount{{"Novate", md5of123}, {"Twofyw", md5of123}, {"Larry", md5of123}, {"Albert", md5of123},
		{"Beth", md5of123}, {"Cindy", md5of123}, {"Dora", "33e1b232a4e6fa0028a6670753749a17"}} // Dora: MD5("s3cret")
	if !slices.Equal(got, want) {
		t.Errorf("ReadLegacy = %q, want %q", got, want)
	}
}

func TestReadLegacyFormats(t *testing.T) {
	h1, h2 := MD5Hex("123"), MD5Hex("secret")
	two := []LegacyAccount{{"Novate", h1}, {"Beth", h2}}
	cases := []struct {
		name string
		in   string
		want []LegacyAccount
	}{
		{"empty", "", nil},
		{"blank lines", "\n \n", nil},
		{"tsv", "Novate\t" + h1 + "\nBeth\t" + h2 + "\n", two},
		{"tsv crlf with header", "username\tpassword\r\nNovate\t" + h1 + "\r\nBeth\t" + h2 + "\r\n", two},
		{"tsv header picks columns", "id\tpassword\tusername\n1\t" + h1 + "\tNovate\n2\t" + h2 + "\tBeth\n", two},
		{"tsv escapes", `back\\slash` + "\t" + h1 + "\n", []LegacyAccount{{`back\slash`, h1}}},
		{"tsv upper-case md5", "Novate\t" + strings.ToUpper(h1) + "\n", []LegacyAccount{{"Novate", h1}}},
		{"csv", "Novate," + h1 + "\nBeth," + h2 + "\n", two},
		{"csv header as docs/operations.md shows it", "name,md5hex\nNovate," + h1 + "\nBeth," + h2 + "\n", two},
		{"sql md5 expressions", "use bomber;\ninsert into account values ('Novate', MD5('123')), ('Beth', lower(MD5('secret')));", two},
		{"sql upper md5", "INSERT INTO account VALUES ('Novate', UPPER(MD5('123')));", []LegacyAccount{{"Novate", h1}}},
		{"csv header and quotes", "USERNAME,PASSWORD\n\"Novate\"," + h1 + "\n\"Beth\", " + h2 + "\n", two},
		{"csv quoted comma", `"a,b",` + h1 + "\n", []LegacyAccount{{"a,b", h1}}},
		{"bom", "\xef\xbb\xbfNovate," + h1 + "\nBeth," + h2, two},
		{"sql two columns", "INSERT INTO account VALUES ('Novate','" + h1 + "'),('Beth','" + h2 + "');", two},
		{"sql column list", "INSERT INTO `bomber`.`account` (`password`,`username`) VALUES ('" + h1 + "','Novate'),('" + h2 + "','Beth')", two},
		{"sql create then insert", "CREATE TABLE IF NOT EXISTS account (uid INT, password CHAR(32), username VARCHAR(30), PRIMARY KEY (uid));\n" +
			"insert ignore into Account values (1, '" + h1 + "', 'Novate'), (2, '" + h2 + "', 'Beth');", two},
		{"sql hex and binary literals", "INSERT INTO account VALUES (0x4E6F76617465, _binary'" + h1 + "'),(X'42657468','" + h2 + "');", two},
		{"sql escapes", `INSERT INTO account VALUES ('It''s \\ \'me\'','` + h1 + `');`, []LegacyAccount{{`It's \ 'me'`, h1}}},
		{"sql comments", "# hash comment\n-- dash comment\n/* block; with ; */ REPLACE INTO account VALUES ('Novate', '" + h1 + "');", []LegacyAccount{{"Novate", h1}}},
		{"sql other tables only", "INSERT INTO users VALUES ('Novate','" + h1 + "');", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadLegacy(strings.NewReader(c.in))
			if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("ReadLegacy = %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestReadLegacyRejects(t *testing.T) {
	h := MD5Hex("123")
	cases := []struct{ name, in, wantInMsg string }{
		{"tsv short md5", "Novate\tabc\n", "line 1"},
		{"tsv one field", "Novate\t" + h + "\nBeth\n", "line 2"},
		{"csv not hex", "a,zz" + h[2:] + "\n", "line 1"},
		{"csv bad name", "ok," + h + "\n\"bad\nname\"," + h + "\n", "line 2"},
		{"csv too long name", strings.Repeat("n", 30) + "," + h + "\n", "line 1"},
		{"csv bad quoting", "\"a,b," + h + "\n", ""},
		{"sql unterminated string", "INSERT INTO account VALUES ('Novate," + h + ");", "unterminated"},
		{"sql unterminated comment", "/* INSERT INTO account VALUES ('Novate','" + h + "');", "unterminated"},
		{"sql null password", "INSERT INTO account VALUES ('Novate', NULL);", "NULL"},
		{"sql three values no columns", "INSERT INTO account VALUES (1, 'Novate', '" + h + "');", "column"},
		{"sql unknown columns", "INSERT INTO account (a, b) VALUES ('Novate', '" + h + "');", "column"},
		{"sql unknown function", "INSERT INTO account VALUES ('Novate', SHA1('123'));", "SHA1"},
		{"sql md5 of null", "INSERT INTO account VALUES ('Novate', MD5(NULL));", "NULL"},
		{"sql insert select", "INSERT INTO account SELECT * FROM other;", "VALUES"},
		{"sql bad md5", "INSERT INTO account VALUES ('Novate', 'nothex');", "line 1"},
		{"sql escaped tab in name", `INSERT INTO account VALUES ('a\tb','` + h + `');`, "bad user name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadLegacy(strings.NewReader(c.in))
			if !errors.Is(err, ErrBadLegacy) || got != nil || !strings.Contains(err.Error(), c.wantInMsg) {
				t.Errorf("ReadLegacy = %v, %v; want ErrBadLegacy mentioning %q", got, err, c.wantInMsg)
			}
		})
	}
}

func TestReadLegacyMySQL(t *testing.T) {
	dsn := newMySQLDatabase(t)
	ref, err := OpenDB(t.Context(), DialectMySQL, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	// The reference server's table, as its Database.sql would create it.
	for _, q := range []string{
		"CREATE TABLE account (username VARCHAR(30) NOT NULL PRIMARY KEY, password CHAR(32) NOT NULL) DEFAULT CHARSET=utf8",
		"INSERT INTO account VALUES ('Novate', MD5('123')), ('Beth', MD5('123')), ('Cindy', UPPER(MD5('abc')))",
	} {
		if _, err := ref.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadLegacyMySQL(t.Context(), ref, "account")
	want := []LegacyAccount{{"Beth", md5of123}, {"Cindy", MD5Hex("abc")}, {"Novate", md5of123}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ReadLegacyMySQL = %v, %v; want %v", got, err, want)
	}
	if _, err := ReadLegacyMySQL(t.Context(), ref, "account`; DROP TABLE account; --"); !errors.Is(err, ErrBadLegacy) {
		t.Errorf("hostile table name: %v, want ErrBadLegacy", err)
	}
	if _, err := ReadLegacyMySQL(t.Context(), ref, "missing"); err == nil {
		t.Error("missing table: no error")
	}

	// End to end: the imported accounts log in with the reference passwords.
	s, err := OpenSQLite(t.Context(), t.TempDir()+"/bomber.db", cheapHasher())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, err := s.ImportLegacy(t.Context(), got); n != 3 || err != nil {
		t.Fatalf("ImportLegacy = %d, %v", n, err)
	}
	for name, pw := range map[string]string{"Novate": "123", "Beth": "123", "Cindy": "abc"} {
		if err := s.Verify(t.Context(), name, pw); err != nil {
			t.Errorf("Verify(%s) after import: %v", name, err)
		}
	}
}
