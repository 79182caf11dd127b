-- Players' Glicko-2 ratings, one row per game and player (see the MySQL
-- migration of the same number). updated_at is the end of the last rated
-- game, UTC Unix microseconds.

-- +goose Up
CREATE TABLE ratings (
    game       TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (game, name)
) STRICT, WITHOUT ROWID;
CREATE INDEX ratings_name ON ratings (name);
CREATE INDEX ratings_board ON ratings (game, rating);

-- +goose Down
DROP TABLE ratings;
