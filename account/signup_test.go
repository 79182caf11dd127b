package account

import (
	"errors"
	"sync"
	"testing"
)

func TestSignupRules(t *testing.T) {
	for _, n := range []string{"Bob", "alice_99", "Zed-x", "a23456789012345678_0"} {
		if err := CheckSignupName(n); err != nil {
			t.Errorf("%q refused: %v", n, err)
		}
	}
	for _, n := range []string{"", "ab", "9lives", "_under", "a b", "名前です", "Zoë", "a234567890123456789_0", "tab\tx", "semi;colon"} {
		if err := CheckSignupName(n); !errors.Is(err, ErrBadName) {
			t.Errorf("%q: %v, want ErrBadName", n, err)
		}
	}
	for _, c := range []struct{ name, pw string }{{"Bob", "short"}, {"Bobby123", "bobby123"}, {"Bob", "123456789012345678901234567890"}} {
		if err := CheckSignupPassword(c.name, c.pw); !errors.Is(err, ErrBadPassword) {
			t.Errorf("%s/%q: %v, want ErrBadPassword", c.name, c.pw, err)
		}
	}
	if err := CheckSignupPassword("Bob", "correct horse"); err != nil {
		t.Error(err)
	}
	same := [][]string{{"Alice", "alice", "ALICE", "AIice", "A1ice", "Al1ce"}, {"modern", "modem"}, {"wave", "vvave"}, {"b0b", "bob", "BOB"}, {"x_y", "x-y"}}
	for _, group := range same {
		for _, n := range group[1:] {
			if NameKey(n) != NameKey(group[0]) {
				t.Errorf("%q and %q look alike but have keys %q and %q", n, group[0], NameKey(n), NameKey(group[0]))
			}
		}
	}
	if NameKey("Alice") == NameKey("Alicia") || NameKey("bob") == NameKey("bab") {
		t.Error("different names share a key")
	}
}

// testRegister: sign-up makes an account its maker logs in with; a name
// taken, or one that looks like it, is refused as taken (also when an
// operator made the first, and when two sign-ups race); a deleted
// account's name is free again.
func testRegister(t *testing.T, open opener) {
	s := open(t, cheapHasher())
	ctx := t.Context()
	if err := s.Register(ctx, "Alice9", "longenough"); err != nil {
		t.Fatal(err)
	}
	if err := s.Verify(ctx, "Alice9", "longenough"); err != nil {
		t.Fatalf("logging in with a new account: %v", err)
	}
	for _, n := range []string{"Alice9", "alice9", "AIice9", "Al1ce9", "ALICE9"} {
		if err := s.Register(ctx, n, "longenough"); !errors.Is(err, ErrExists) {
			t.Errorf("Register(%q) after Alice9: %v, want ErrExists", n, err)
		}
	}
	if err := s.Register(ctx, "x", "longenough"); !errors.Is(err, ErrBadName) {
		t.Errorf("a bad name: %v", err)
	}
	if err := s.Register(ctx, "Bobby", "short"); !errors.Is(err, ErrBadPassword) {
		t.Errorf("a short password: %v", err)
	}
	if err := s.Add(ctx, "Carol", "pw"); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(ctx, "car0l", "longenough"); !errors.Is(err, ErrExists) {
		t.Errorf("a name like an operator's account: %v, want ErrExists", err)
	}
	if n, _ := s.Count(ctx); n != 2 {
		t.Errorf("%d accounts, want 2", n)
	}
	if err := s.Delete(ctx, "Alice9"); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(ctx, "alice9", "longenough2"); err != nil {
		t.Errorf("a deleted account's name: %v", err)
	}

	// two people sign up at once with names that look alike: one gets it
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Register(ctx, []string{"Dora_1", "dora-l", "D0ra_I", "DORA-1"}[i%4], "longenough")
		}()
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		switch {
		case err == nil:
			made++
		case !errors.Is(err, ErrExists):
			t.Errorf("racing sign-up: %v", err)
		}
	}
	if made != 1 {
		t.Errorf("%d of the racing look-alike sign-ups made an account, want 1", made)
	}
}

func TestNameKeysMigrationSQLite(t *testing.T) { testNameKeysMigration(t, DialectSQLite) }
func TestNameKeysMigrationMySQL(t *testing.T)  { testNameKeysMigration(t, DialectMySQL) }

// testNameKeysMigration: accounts made before name keys existed get theirs
// when the schema goes up (the oldest of two that look alike keeps it), so
// sign-up refuses names like theirs; down and up again keeps that.
func testNameKeysMigration(t *testing.T, d Dialect) {
	ctx := t.Context()
	db, s := emptyDB(t, d)
	if _, err := MigrateTo(ctx, db, d, nameKeysVersion-1); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Albert", "albert", "Zoë"} {
		if err := s.insert(ctx, db, n, "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if _, err := Migrate(ctx, db, d); err != nil {
			t.Fatal(err)
		}
		var holder string
		if err := db.QueryRowContext(ctx, "SELECT name FROM name_keys WHERE name_key = ?", NameKey("ALBERT")).Scan(&holder); err != nil || holder != "Albert" {
			t.Errorf("the key of albert is held by %q (%v), want the oldest, Albert", holder, err)
		}
		s.h = cheapHasher()
		if err := s.Register(ctx, "A1bert", "longenough"); !errors.Is(err, ErrExists) {
			t.Errorf("a name like an account made before the migration: %v, want ErrExists", err)
		}
		if _, err := MigrateTo(ctx, db, d, nameKeysVersion-1); err != nil {
			t.Fatal(err)
		}
	}
}
