-- Each rated game's rating changes, a row per rated player: the rating
-- before and after the game (game_id, a game_records id), the deviation
-- after, and when the game ended (UTC), for a player's history. Deleting
-- an account deletes its rows. Idempotent, like every MySQL migration.

-- +goose Up
CREATE TABLE IF NOT EXISTS rating_history (
    name          VARBINARY(29)   NOT NULL,
    game_id       BIGINT UNSIGNED NOT NULL,
    game          VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    rating_before DOUBLE          NOT NULL,
    rating        DOUBLE          NOT NULL,
    deviation     DOUBLE          NOT NULL,
    ended_at      DATETIME(6)     NOT NULL,
    PRIMARY KEY (name, game_id),
    KEY rating_history_game (name, game, ended_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE IF EXISTS rating_history;
