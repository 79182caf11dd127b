-- Finished games; see the MySQL migration of the same number.

-- +goose Up
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    player1    TEXT    NOT NULL,
    player2    TEXT    NOT NULL,
    winner     TEXT,
    reason     TEXT    NOT NULL,
    guesses    INTEGER NOT NULL CHECK (guesses >= 0),
    started_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX games_ended ON games (ended_at, id);
CREATE INDEX games_player1 ON games (player1, ended_at);
CREATE INDEX games_player2 ON games (player2, ended_at);

-- +goose Down
DROP TABLE games;
