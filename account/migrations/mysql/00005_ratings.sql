-- Players' Glicko-2 ratings (package account/glicko2), one row per game
-- and player: the rating, its deviation and volatility, the number of rated
-- games it counts, and when the last of them ended (UTC). A player with no
-- row has the default rating. ratings_board orders a game's leaderboard.
-- Idempotent, like every MySQL migration.

-- +goose Up
CREATE TABLE IF NOT EXISTS ratings (
    game       VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    name       VARBINARY(29)    NOT NULL,
    rating     DOUBLE           NOT NULL,
    deviation  DOUBLE           NOT NULL,
    volatility DOUBLE           NOT NULL,
    games      INT UNSIGNED     NOT NULL,
    updated_at DATETIME(6)      NOT NULL,
    PRIMARY KEY (game, name),
    KEY ratings_name (name),
    KEY ratings_board (game, rating)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE IF EXISTS ratings;
