-- Finished games. Players are names, not account ids, so that the history
-- outlives deleted accounts. winner is NULL when nobody won.

-- +goose Up
CREATE TABLE IF NOT EXISTS games (
    id         BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    player1    VARBINARY(29)   NOT NULL,
    player2    VARBINARY(29)   NOT NULL,
    winner     VARBINARY(29)   NULL,
    reason     VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    guesses    INT UNSIGNED    NOT NULL,
    started_at DATETIME(6)     NOT NULL,
    ended_at   DATETIME(6)     NOT NULL,
    PRIMARY KEY (id),
    KEY games_ended (ended_at, id),
    KEY games_player1 (player1, ended_at),
    KEY games_player2 (player2, ended_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE IF EXISTS games;
