package account

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzReadLegacy checks that any input either fails with ErrBadLegacy or
// yields only valid accounts that survive a round trip through the
// tab-separated format.
func FuzzReadLegacy(f *testing.F) {
	h := MD5Hex("123")
	for _, s := range []string{
		"Novate\t" + h + "\n",
		"username,password\nBeth," + h + "\n",
		"INSERT INTO `account` VALUES ('Novate','" + h + "'),('Beth','" + h + "');",
		"CREATE TABLE account (id int, username varchar(30), password char(32));\nINSERT INTO account VALUES (1,'x','" + h + "');",
		"/*!40101 SET NAMES utf8 */;\nINSERT INTO account (password, username) VALUES (0x" + strings.Repeat("41", 16) + ", _binary'a\\'b');",
		"-- c\nINSERT INTO account VALUES ('a", "\"a,b\"," + h,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadLegacy(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrBadLegacy) {
				t.Fatalf("error %v does not wrap ErrBadLegacy", err)
			}
			if got != nil {
				t.Fatal("accounts returned with an error")
			}
			return
		}
		var tsv strings.Builder
		for _, a := range got {
			if !ValidName(a.Name) {
				t.Fatalf("invalid name %q accepted", a.Name)
			}
			if n, err := normalizeMD5(a.MD5Hex); err != nil || n != a.MD5Hex {
				t.Fatalf("MD5 %q not normalised", a.MD5Hex)
			}
			tsv.WriteString(strings.ReplaceAll(a.Name, `\`, `\\`) + "\t" + a.MD5Hex + "\n")
		}
		if len(got) == 0 || looksLikeSQL(firstLine([]byte(tsv.String()))) || strings.EqualFold(got[0].Name, "username") || strings.EqualFold(got[0].Name, "name") || strings.EqualFold(got[0].Name, "user") {
			return // nothing, or a first row that reads as a header or as SQL
		}
		again, err := ReadLegacy(strings.NewReader(tsv.String()))
		if err != nil || len(again) != len(got) {
			t.Fatalf("TSV round trip: %v, %d accounts, want %d", err, len(again), len(got))
		}
		for i := range got {
			if again[i] != got[i] {
				t.Fatalf("TSV round trip: %q became %q", got[i], again[i])
			}
		}
	})
}

// FuzzParsePHC checks that the stored-hash parser never panics, rejects
// with ErrBadHash, and that what it accepts formats back to the same string
// with parameters inside the bounds.
func FuzzParsePHC(f *testing.F) {
	f.Add("$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("A", 42) + "Q")
	f.Add("$bomber-md5-argon2id$v=19$m=64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$" + strings.Repeat("B", 42) + "A")
	f.Add("$argon2id$v=19$m=4294967295,t=2,p=1$c2FsdA$AAAA")
	f.Add("$argon2i$v=19$m=1,t=1,p=1$$")
	f.Add("$$$$$")
	f.Fuzz(func(t *testing.T, s string) {
		ph, err := parsePHC(s)
		if err != nil {
			if !errors.Is(err, ErrBadHash) {
				t.Fatalf("error %v does not wrap ErrBadHash", err)
			}
			return
		}
		if ph.String() != s {
			t.Fatalf("accepted %q but formats as %q", s, ph.String())
		}
		if ph.p.check() != nil || ph.p.Memory > maxMemoryKiB {
			t.Fatalf("accepted out-of-bounds parameters %+v", ph.p)
		}
	})
}
