package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bomber-game/bomber/segment"
)

// signUp sends Hello (feature 256) and SignUp on a new connection and
// returns the code of the Error that answered it, or 0 for Ack(SignUp).
func signUp(t *testing.T, addr, name, password string) uint8 {
	t.Helper()
	c := dial(t, addr)
	c.d.SetDialect(segment.DialectExtended)
	for _, s := range segment.AppendMessage(nil, segment.Hello, segment.HelloMsg{Version: 1, Features: segment.FeatureSignUp}.Append(nil)) {
		c.send(s)
	}
	c.expect(segment.Welcome)
	for _, s := range segment.AppendMessage(nil, segment.SignUp, segment.SignUpMsg{Name: name, Password: password}.Append(nil)) {
		c.send(s)
	}
	defer c.nc.Close()
	var asm segment.Assembler
	c.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		s, ok, err := c.d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			n, err := c.nc.Read(c.d.Free())
			if err != nil {
				t.Fatalf("sign-up of %q: waiting for the answer: %v", name, err)
			}
			c.d.Commit(n)
			continue
		}
		ty, body, done, err := asm.Add(s)
		if err != nil {
			t.Fatal(err)
		}
		if !done {
			continue
		}
		switch ty {
		case segment.Ack:
			if a, err := segment.DecodeAckBody(body); err == nil && a.Req == segment.SignUp {
				return 0
			}
		case segment.ErrorMsg:
			if e, err := segment.DecodeErrorBody(body); err == nil && e.Req == segment.SignUp {
				return e.Code
			}
		}
	}
}

// TestSignUpThroughBomberd: with registration open, a person makes an
// account from a client and logs in with it from the reference protocol;
// the daemon's store refuses names like taken ones, and the sign-up limits
// refuse the sign-up past an address's allowance; with hidden user names,
// a sign-up tells a name is taken only with a password that passes the
// rules (one a prober would then have made an account with, were the name
// free). Closed registration refuses at once.
func TestSignUpThroughBomberd(t *testing.T) {
	d := startDaemon(t, "BOMBER_ACCOUNTS_REGISTRATION=open", "BOMBER_ACCOUNTS_SIGNUPS_PER_ADDRESS=5",
		"BOMBER_PROTOCOL_HIDE_UNKNOWN_USERS=true")
	if code := signUp(t, d.addr, "Ada_1", "secret-pw1"); code != 0 {
		t.Fatalf("sign-up of a free name: Error %s", segment.ErrCodeName(code))
	}
	ref := dial(t, d.addr)
	if got := ref.login("Ada_1", "secret-pw1"); got != segment.CodeOK {
		t.Fatalf("a reference client logs in with the new account: code %d", got)
	}
	for _, tt := range []struct {
		name, password string
		want           uint8
	}{
		{"ada-l", "another-pw", segment.ErrCodeNameTaken},   // looks like Ada_1
		{"Ada_1", "short", segment.ErrCodeBadPassword},      // taken, but the password fails first: no answer about the name
		{"1ada", "another-pw", segment.ErrCodeBadName},      // begins with a digit
		{"Bob_2", "another-pw", 0},                          // the fifth of this address's hour
		{"Cyd_3", "another-pw", segment.ErrCodeRateLimited}, // the sixth
	} {
		if got := signUp(t, d.addr, tt.name, tt.password); got != tt.want {
			t.Errorf("sign-up of %q: Error %s, want %s", tt.name, segment.ErrCodeName(got), segment.ErrCodeName(tt.want))
		}
	}
	// Under hidden user names a login answers an unknown name as a known
	// one: the look-alike that sign-up refused is no account.
	if got := dial(t, d.addr).login("ada-l", "another-pw"); got != segment.CodeWrongPassword {
		t.Errorf("login with the refused look-alike: code %d", got)
	}

	// The journal (the world's inputs, on disk) holds the sign-up and the
	// login, but the password of neither: both went in as stand-ins.
	var journal []byte
	filepath.WalkDir(filepath.Join(d.cmd.Dir, "var", "journal"), func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			b, _ := os.ReadFile(path)
			journal = append(journal, b...)
		}
		return nil
	})
	if !bytes.Contains(journal, []byte("Ada_1")) {
		t.Errorf("the journal (%d bytes) lacks the sign-up", len(journal))
	}
	if bytes.Contains(journal, []byte("secret-pw1")) || bytes.Contains(journal, []byte("another-pw")) {
		t.Error("a sign-up's password is in the journal")
	}

	closed := startDaemon(t, "BOMBER_ACCOUNTS_REGISTRATION=closed")
	if got := signUp(t, closed.addr, "Dee_4", "another-pw"); got != segment.ErrCodeSignUpClosed {
		t.Errorf("closed registration: Error %s", segment.ErrCodeName(got))
	}
	if got := dial(t, closed.addr).login("Dee_4", "another-pw"); got != segment.CodeNoUser {
		t.Errorf("closed registration made the account: login code %d", got)
	}
}
