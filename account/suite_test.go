package account

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSQLiteStore(t *testing.T) { runStoreSuite(t, openSQLiteForTest) }

func TestMySQLStore(t *testing.T) { runStoreSuite(t, openMySQLForTest) }

// runStoreSuite runs the same behaviour checks against one implementation;
// each case gets a fresh, empty store.
func runStoreSuite(t *testing.T, open opener) {
	cases := []struct {
		name string
		run  func(t *testing.T, open opener)
	}{
		{"AccountLifecycle", testAccountLifecycle},
		{"NamesAreExactBytes", testNamesAreExactBytes},
		{"BadNamesAndPasswords", testBadNamesAndPasswords},
		{"ListAndCount", testListAndCount},
		{"LegacyImportUpgradesAtLogin", testLegacyImportUpgrades},
		{"DuplicateImportSkipped", testDuplicateImportSkipped},
		{"ImportRejectsBadInput", testImportRejectsBadInput},
		{"DemoSeedOnlyWhenEmpty", testDemoSeed},
		{"GamesRecordedNewestFirst", testGames},
		{"GameFilters", testGameFilters},
		{"GameStoredOnceOnRetry", testGameStoredOnce},
		{"GamesRecordedInOneBatch", testGamesInOneBatch},
		{"LongestGame", testLongestGame},
		{"GamesOfEveryLength", testGamesOfEveryLength},
		{"BadGamesRejected", testBadGames},
		{"ConcurrentLoginsBoundedHashing", testConcurrentLogins},
		{"OutdatedParamsUpgradedAtLogin", testOutdatedParamsUpgraded},
		{"ClosedStoreUnavailable", testClosedStoreUnavailable},
		{"ReadsBesideAnOpenWrite", testReadsBesideAnOpenWrite},
		{"Ratings", testRatings},
		{"RatingsRecordedAtOnce", testRatingsRecordedAtOnce},
		{"Register", testRegister},
		{"GamePages", testGamePages},
		{"DeleteAnonymises", testDeleteAnonymises},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

// step is one call in a scripted sequence and the error it must give.
type step struct {
	op       string // add, verify, exists, notexists, setpw, delete
	name, pw string
	want     error
}

func runSteps(t *testing.T, s Store, steps []step) {
	t.Helper()
	ctx := t.Context()
	for i, st := range steps {
		var err error
		switch st.op {
		case "add":
			err = s.Add(ctx, st.name, st.pw)
		case "verify":
			err = s.Verify(ctx, st.name, st.pw)
		case "setpw":
			err = s.SetPassword(ctx, st.name, st.pw)
		case "delete":
			err = s.Delete(ctx, st.name)
		case "exists", "notexists":
			ok, e := s.Exists(ctx, st.name)
			err = e
			if e == nil && ok != (st.op == "exists") {
				t.Errorf("step %d: Exists(%q) = %v", i, st.name, ok)
			}
		default:
			t.Fatalf("step %d: unknown op %q", i, st.op)
		}
		if !errors.Is(err, st.want) || (st.want == nil && err != nil) {
			t.Errorf("step %d: %s(%q, %q) = %v, want %v", i, st.op, st.name, st.pw, err, st.want)
		}
	}
}

func testAccountLifecycle(t *testing.T, open opener) {
	runSteps(t, open(t, cheapHasher()), []step{
		{"notexists", "alice", "", nil},
		{"verify", "alice", "pw1", ErrNoUser},
		{"add", "alice", "pw1", nil},
		{"exists", "alice", "", nil},
		{"add", "alice", "other", ErrExists},
		{"verify", "alice", "pw1", nil},
		{"verify", "alice", "pw2", ErrWrongPassword},
		{"verify", "alice", "", ErrWrongPassword},
		{"verify", "alice", strings.Repeat("x", 30), ErrWrongPassword},
		{"verify", "bob", "pw1", ErrNoUser},
		{"setpw", "alice", "pw2", nil},
		{"verify", "alice", "pw1", ErrWrongPassword},
		{"verify", "alice", "pw2", nil},
		{"setpw", "bob", "pw2", ErrNoUser},
		{"setpw", "alice", "", ErrBadPassword},
		{"verify", "alice", "pw2", nil},
		{"delete", "alice", "", nil},
		{"notexists", "alice", "", nil},
		{"verify", "alice", "pw2", ErrNoUser},
		{"delete", "alice", "", ErrNoUser},
		{"add", "alice", "pw3", nil},
		{"verify", "alice", "pw3", nil},
	})
}

func testNamesAreExactBytes(t *testing.T, open opener) {
	runSteps(t, open(t, cheapHasher()), []step{
		{"add", "Novate", "a", nil},
		{"add", "novate", "b", nil},
		{"add", "Novate ", "c", nil},
		{"add", "玩家", "d", nil},
		{"verify", "Novate", "a", nil},
		{"verify", "novate", "b", nil},
		{"verify", "Novate ", "c", nil},
		{"verify", "novate", "a", ErrWrongPassword},
		{"verify", "NOVATE", "a", ErrNoUser},
		{"verify", "玩家", "d", nil},
	})
}

func testBadNamesAndPasswords(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	cases := []struct {
		name, pw string
		want     error
	}{
		{"", "pw", ErrBadName},
		{strings.Repeat("n", 30), "pw", ErrBadName},
		{strings.Repeat("é", 15), "pw", ErrBadName}, // 30 bytes
		{"a\x00b", "pw", ErrBadName},
		{"a\nb", "pw", ErrBadName},
		{"tab\t", "pw", ErrBadName},
		{"del\x7f", "pw", ErrBadName},
		{"\xff\xfe", "pw", ErrBadName},
		{"ok", "", ErrBadPassword},
		{"ok", strings.Repeat("p", 30), ErrBadPassword},
		{strings.Repeat("n", 29), strings.Repeat("p", 29), nil},
		{"x", "1", nil},
	}
	for _, c := range cases {
		if err := s.Add(ctx, c.name, c.pw); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("Add(%q, %d-byte password) = %v, want %v", c.name, len(c.pw), err, c.want)
		}
	}
	if n, err := s.Count(ctx); err != nil || n != 2 {
		t.Errorf("Count = %d, %v; want the 2 valid accounts only", n, err)
	}
	if ok, err := s.Exists(ctx, "a\x00b"); ok || err != nil {
		t.Errorf("Exists(bad name) = %v, %v; want false, nil", ok, err)
	}
}

func testListAndCount(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	if users, err := s.List(ctx); err != nil || len(users) != 0 {
		t.Fatalf("List on empty store = %v, %v", users, err)
	}
	before := time.Now().UTC().Truncate(time.Microsecond)
	for _, n := range []string{"Larry", "Albert", "Cindy"} {
		if err := s.Add(ctx, n, "pw"); err != nil {
			t.Fatal(err)
		}
	}
	after := time.Now().UTC()
	if n, err := s.Count(ctx); err != nil || n != 3 {
		t.Errorf("Count = %d, %v; want 3", n, err)
	}
	users, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range users {
		names = append(names, u.Name)
		if u.Legacy {
			t.Errorf("%s listed as legacy", u.Name)
		}
		if u.Created.Before(before) || u.Created.After(after) || u.Created.Location() != time.UTC {
			t.Errorf("%s created %v, want UTC within [%v, %v]", u.Name, u.Created, before, after)
		}
	}
	if want := []string{"Albert", "Cindy", "Larry"}; !slices.Equal(names, want) {
		t.Errorf("List names = %v, want %v", names, want)
	}
	if err := s.Delete(ctx, "Cindy"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Count(ctx); err != nil || n != 2 {
		t.Errorf("Count after delete = %d, %v; want 2", n, err)
	}
}

func legacyFlags(t *testing.T, s Store) map[string]bool {
	t.Helper()
	users, err := s.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, u := range users {
		m[u.Name] = u.Legacy
	}
	return m
}

func testLegacyImportUpgrades(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	n, err := s.ImportLegacy(ctx, []LegacyAccount{
		{Name: "Novate", MD5Hex: MD5Hex("123")},
		{Name: "Beth", MD5Hex: strings.ToUpper(MD5Hex("abc"))},
	})
	if n != 2 || err != nil {
		t.Fatalf("ImportLegacy = %d, %v; want 2, nil", n, err)
	}
	if got := legacyFlags(t, s); !got["Novate"] || !got["Beth"] {
		t.Fatalf("after import, legacy flags = %v, want both true", got)
	}
	wrapped, err := s.storedHash(ctx, "Novate")
	if err != nil || !strings.HasPrefix(wrapped, LegacyPrefix) {
		t.Fatalf("stored hash %q, %v; want prefix %s", wrapped, err, LegacyPrefix)
	}
	if strings.Contains(wrapped, MD5Hex("123")) {
		t.Fatal("the raw MD5 is stored")
	}

	// A wrong password fails and leaves the legacy hash alone.
	if err := s.Verify(ctx, "Novate", "124"); !errors.Is(err, ErrWrongPassword) {
		t.Fatalf("Verify wrong password = %v", err)
	}
	if h, _ := s.storedHash(ctx, "Novate"); h != wrapped {
		t.Fatal("a failed login changed the stored hash")
	}
	// The right one logs in and replaces the wrap by argon2id(password).
	if err := s.Verify(ctx, "Novate", "123"); err != nil {
		t.Fatalf("first login after import: %v", err)
	}
	upgraded, _ := s.storedHash(ctx, "Novate")
	if upgraded == wrapped || !strings.HasPrefix(upgraded, "$argon2id$v=19$") {
		t.Fatalf("after login stored hash = %q, want a fresh $argon2id$ hash", upgraded)
	}
	if ok, rehash, err := s.h.Verify(ctx, upgraded, "123"); !ok || rehash || err != nil {
		t.Fatalf("upgraded hash is not argon2id(password): %v %v %v", ok, rehash, err)
	}
	if got := legacyFlags(t, s); got["Novate"] || !got["Beth"] {
		t.Errorf("after Novate's login, legacy flags = %v", got)
	}
	runSteps(t, s, []step{
		{"verify", "Novate", "123", nil},
		{"verify", "Novate", "1234", ErrWrongPassword},
		{"verify", "Novate", MD5Hex("123"), ErrWrongPassword}, // knowing the old MD5 is no password
		{"verify", "Beth", "abd", ErrWrongPassword},
		{"verify", "Beth", "abc", nil},
	})
	if h, _ := s.storedHash(ctx, "Novate"); h != upgraded {
		t.Error("a second login rehashed an up-to-date hash")
	}
}

func testDuplicateImportSkipped(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	if err := s.Add(ctx, "Larry", "mine"); err != nil {
		t.Fatal(err)
	}
	n, err := s.ImportLegacy(ctx, []LegacyAccount{
		{Name: "Larry", MD5Hex: MD5Hex("123")},
		{Name: "Cindy", MD5Hex: MD5Hex("123")},
		{Name: "Cindy", MD5Hex: MD5Hex("456")},
	})
	var skipped *SkippedError
	if n != 1 || !errors.As(err, &skipped) || !errors.Is(err, ErrExists) {
		t.Fatalf("ImportLegacy = %d, %v; want 1 and a SkippedError", n, err)
	}
	if want := []string{"Larry", "Cindy"}; !slices.Equal(skipped.Names, want) {
		t.Errorf("skipped %v, want %v", skipped.Names, want)
	}
	runSteps(t, s, []step{
		{"verify", "Larry", "mine", nil},
		{"verify", "Larry", "123", ErrWrongPassword},
		{"verify", "Cindy", "123", nil},
		{"verify", "Cindy", "456", ErrWrongPassword},
	})
	// Importing the same file again imports nothing and changes nothing.
	n, err = s.ImportLegacy(ctx, []LegacyAccount{{Name: "Cindy", MD5Hex: MD5Hex("789")}})
	if n != 0 || !errors.Is(err, ErrExists) {
		t.Errorf("re-import = %d, %v; want 0 and ErrExists", n, err)
	}
}

func testImportRejectsBadInput(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	cases := []struct {
		name string
		in   []LegacyAccount
		want error
	}{
		{"bad name", []LegacyAccount{{"ok", MD5Hex("1")}, {"bad\nname", MD5Hex("1")}}, ErrBadName},
		{"short md5", []LegacyAccount{{"ok", "202cb962ac59075b964b07152d234b7"}}, ErrBadHash},
		{"not hex", []LegacyAccount{{"ok", "202cb962ac59075b964b07152d234bzz"}}, ErrBadHash},
	}
	for _, c := range cases {
		if n, err := s.ImportLegacy(ctx, c.in); n != 0 || !errors.Is(err, c.want) {
			t.Errorf("%s: ImportLegacy = %d, %v; want 0, %v", c.name, n, err, c.want)
		}
	}
	if n, err := s.Count(ctx); n != 0 || err != nil {
		t.Errorf("Count after rejected imports = %d, %v; want 0", n, err)
	}
}

func testDemoSeed(t *testing.T, open opener) {
	ctx := t.Context()
	s := open(t, cheapHasher())
	created, err := SeedDemo(ctx, s)
	if !created || err != nil {
		t.Fatalf("SeedDemo on empty store = %v, %v", created, err)
	}
	for _, n := range DemoAccounts() {
		if err := s.Verify(ctx, n, "123"); err != nil {
			t.Errorf("demo account %s with password 123: %v", n, err)
		}
	}
	if created, err := SeedDemo(ctx, s); created || err != nil {
		t.Errorf("second SeedDemo = %v, %v; want false", created, err)
	}

	other := open(t, cheapHasher())
	if err := other.Add(ctx, "operator", "secret"); err != nil {
		t.Fatal(err)
	}
	if created, err := SeedDemo(ctx, other); created || err != nil {
		t.Errorf("SeedDemo on a store with an account = %v, %v; want false", created, err)
	}
	if n, _ := other.Count(ctx); n != 1 {
		t.Errorf("Count = %d after SeedDemo on a non-empty store, want 1", n)
	}
}

func testConcurrentLogins(t *testing.T, open opener) {
	const limit = 2
	h := NewHasher(Params{Memory: 256, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}, limit)
	s := open(t, h)
	ctx := t.Context()
	for _, n := range DemoAccounts() {
		if err := s.Add(ctx, n, "pw-"+n); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 48 {
		wg.Go(func() {
			n := DemoAccounts()[i%len(DemoAccounts())]
			pw := "pw-" + n
			want := error(nil)
			if i%3 == 0 {
				pw, want = "nope", ErrWrongPassword
			}
			if err := s.Verify(ctx, n, pw); !errors.Is(err, want) || (want == nil && err != nil) {
				errs <- fmt.Errorf("Verify(%s) = %v, want %v", n, err, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if p := h.Peak(); p > limit || p < 1 {
		t.Errorf("peak concurrent hashes = %d, want 1..%d", p, limit)
	}
}

func testOutdatedParamsUpgraded(t *testing.T, open opener) {
	ctx := t.Context()
	old := NewHasher(Params{Memory: 32, Time: 1, Threads: 1, SaltLen: 8, KeyLen: 16}, 1)
	s := open(t, old)
	if err := s.Add(ctx, "Albert", "pw"); err != nil {
		t.Fatal(err)
	}
	before, _ := s.storedHash(ctx, "Albert")
	s.h = cheapHasher() // the operator raised the parameters
	if err := s.Verify(ctx, "Albert", "pw"); err != nil {
		t.Fatal(err)
	}
	after, _ := s.storedHash(ctx, "Albert")
	info, err := ParsePHC(after)
	if after == before || err != nil || info.Params != cheapParams {
		t.Errorf("hash after login %q (%v), want one with the new parameters", after, err)
	}
}

func testClosedStoreUnavailable(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	if err := s.Add(ctx, "Beth", "pw"); err != nil {
		t.Fatal(err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	s.Close()
	calls := map[string]func() error{
		"Verify":      func() error { return s.Verify(ctx, "Beth", "pw") },
		"Exists":      func() error { _, err := s.Exists(ctx, "Beth"); return err },
		"Add":         func() error { return s.Add(ctx, "Cindy", "pw") },
		"Delete":      func() error { return s.Delete(ctx, "Beth") },
		"SetPassword": func() error { return s.SetPassword(ctx, "Beth", "pw2") },
		"List":        func() error { _, err := s.List(ctx); return err },
		"Count":       func() error { _, err := s.Count(ctx); return err },
		"Import":      func() error { _, err := s.ImportLegacy(ctx, []LegacyAccount{{"x", MD5Hex("1")}}); return err },
		"RecordGame": func() error {
			_, err := s.RecordGame(ctx, sampleGames(time.Now())[0])
			return err
		},
		"RecordGames": func() error {
			_, err := s.RecordGames(ctx, sampleGames(time.Now()))
			return err
		},
		"Games": func() error { _, err := s.Games(ctx, GameFilter{}); return err },
		"Game":  func() error { _, err := s.Game(ctx, 1); return err },
		"Ping":  func() error { return s.Ping(ctx) },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s on a closed store = %v, want ErrUnavailable", name, err)
		}
	}
}

// testReadsBesideAnOpenWrite holds a write transaction open on the store's
// own connection, as the recorder does while it stores a batch of games: a
// login, and the other reads, are answered meanwhile (the embedded store's
// one write connection made them wait for the whole batch), and what the
// transaction wrote is seen once it commits.
func testReadsBesideAnOpenWrite(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	for _, name := range []string{"Albert", "Zed"} {
		if err := s.Add(ctx, name, "123"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.RecordGames(ctx, sampleGames(time.Now())); err != nil {
		t.Fatal(err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM accounts WHERE name = ?", "Zed"); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx, "Albert", "123"); err != nil {
		t.Errorf("a login while a write is open = %v", err)
	}
	if ok, err := s.Exists(ctx, "Zed"); err != nil || !ok {
		t.Errorf("Exists(Zed) while its delete is uncommitted = %v, %v; want true", ok, err)
	}
	if n, err := s.Count(ctx); err != nil || n != 2 {
		t.Errorf("Count while a write is open = %d, %v; want 2", n, err)
	}
	if gs, err := s.Games(ctx, GameFilter{}); err != nil || len(gs) == 0 {
		t.Errorf("Games while a write is open = %d games, %v", len(gs), err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx, "Zed", "123"); !errors.Is(err, ErrNoUser) {
		t.Errorf("a login after the delete committed = %v, want ErrNoUser", err)
	}
}
