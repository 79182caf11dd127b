// Package account stores bomberd's accounts and finished games.
//
// One Store interface has two implementations: MySQL/MariaDB for
// production (OpenMySQL, github.com/go-sql-driver/mysql) and an embedded
// SQLite file (OpenSQLite, modernc.org/sqlite, no cgo) as the default on a
// fresh machine. Both apply their versioned, embedded migrations when opened
// (see Migrate, SchemaVersion, CheckSchema); ../schema.sql is the complete
// MySQL schema for operators.
//
// Passwords are stored as argon2id in the PHC string format
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>
//
// with OWASP's parameters (OWASPParams) and compared in constant time.
// Hashing is bounded by a semaphore in Hasher because each argon2id call
// holds m KiB of memory. Accounts imported from the reference server keep
// its unsalted MD5 hash wrapped in argon2id under a distinct prefix
//
//	$bomber-md5-argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>
//
// where the argon2id input is the 32-character lowercase hex MD5 of the
// password. The first successful login replaces such a hash by
// argon2id(password). A hash made with other parameters than the Hasher's is
// upgraded the same way.
//
// User names are 1..29 bytes (the payload of one wire segment) of valid
// UTF-8 without control characters, compared byte for byte (case matters).
// Passwords are 1..29 bytes.
//
// Finished games of every kind are kept as rules/record.Game values: one
// row per game, per seat and per move (RecordGame, Games, Game). The store
// checks that a record fits its columns and is self-consistent (CheckGame),
// not that its moves are legal: bomber-replay replays records through the
// rules for that. A record's seed is unique, so storing the same record
// twice (a retry after a lost answer) keeps one copy.
//
// Every failure of the database itself (unreachable server, timeout, closed
// store, I/O error) is reported as an error wrapping ErrUnavailable, so that
// callers can tell "try again later" from a wrong password. Each database
// call is bounded by the caller's context and, when that has no earlier
// deadline, by the store's own operation timeout.
//
// All SQL is parameterized; the only identifier ever put into a query text
// (ReadLegacyMySQL's table name) is checked against a strict pattern first.
package account
