-- Accounts. TEXT compares byte for byte (BINARY collation). Times are UTC
-- Unix microseconds.

-- +goose Up
CREATE TABLE accounts (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    password_hash TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX accounts_name ON accounts (name);

-- +goose Down
DROP TABLE accounts;
