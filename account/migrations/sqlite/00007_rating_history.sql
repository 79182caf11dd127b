-- Each rated game's rating changes (see the MySQL migration of the same
-- number). ended_at is UTC Unix microseconds.

-- +goose Up
CREATE TABLE rating_history (
    name          TEXT    NOT NULL,
    game_id       INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    rating_before REAL    NOT NULL,
    rating        REAL    NOT NULL,
    deviation     REAL    NOT NULL,
    ended_at      INTEGER NOT NULL,
    PRIMARY KEY (name, game_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX rating_history_game ON rating_history (name, game, ended_at);

-- +goose Down
DROP TABLE rating_history;
