-- Records of finished games of every kind (package rules/record): one row per
-- game, one per seat, one per move in the game's notation. They replace the
-- Bomber-only games table, whose rows are copied over with the same ids:
-- player1 and player2 become seats 0 and 1, the winner the winning seat,
-- "abandoned by inviter/invitee" the reason "abandoned" with seat 0 or 1 as
-- the leaver. Their guess counts are not kept: those games recorded no moves.
--
-- status is rules.Status (0: no result, 1: won, 2: drawn); winners and
-- scores are comma-separated seat numbers and scores; seed is the table's
-- seed in hex (NULL when unknown, as for the copied games) and unique, so a
-- record stored twice is recognised; detail is the outcome's own reason;
-- leaver is the seat that left an abandoned game, else -1. Moves' times are
-- nanoseconds. Idempotent, like every MySQL migration.

-- +goose Up
CREATE TABLE IF NOT EXISTS game_records (
    id         BIGINT UNSIGNED  NOT NULL AUTO_INCREMENT,
    game       VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    options    TEXT             NOT NULL,
    seed       CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
    status     TINYINT UNSIGNED NOT NULL,
    winners    VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    scores     VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    reason     VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    detail     VARCHAR(64)      NOT NULL,
    leaver     TINYINT          NOT NULL,
    moves      INT UNSIGNED     NOT NULL,
    started_at DATETIME(6)      NOT NULL,
    ended_at   DATETIME(6)      NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY game_records_seed (seed),
    KEY game_records_ended (ended_at, id),
    KEY game_records_game (game, ended_at, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS game_seats (
    game_id BIGINT UNSIGNED  NOT NULL,
    seat    TINYINT UNSIGNED NOT NULL,
    name    VARBINARY(29)    NOT NULL,
    bot     BOOLEAN          NOT NULL,
    PRIMARY KEY (game_id, seat),
    KEY game_seats_name (name, game_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS game_moves (
    game_id  BIGINT UNSIGNED  NOT NULL,
    ply      INT UNSIGNED     NOT NULL,
    seat     TINYINT UNSIGNED NOT NULL,
    notation VARBINARY(64)    NOT NULL,
    at       BIGINT           NOT NULL,
    PRIMARY KEY (game_id, ply)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- (Only so that a rerun after a half-applied migration finds the table it copies.)
CREATE TABLE IF NOT EXISTS games (
    id         BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    player1    VARBINARY(29)   NOT NULL,
    player2    VARBINARY(29)   NOT NULL,
    winner     VARBINARY(29)   NULL,
    reason     VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    guesses    INT UNSIGNED    NOT NULL,
    started_at DATETIME(6)     NOT NULL,
    ended_at   DATETIME(6)     NOT NULL,
    PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO game_records (id, game, options, seed, status, winners, scores, reason, detail, leaver, moves, started_at, ended_at)
SELECT g.id, 'bomber', '{}', NULL,
       CASE WHEN g.winner IS NULL THEN 0 ELSE 1 END,
       CASE WHEN g.winner IS NULL THEN '' WHEN g.winner = g.player1 THEN '0' ELSE '1' END,
       '',
       CASE WHEN g.reason IN ('abandoned by inviter', 'abandoned by invitee') THEN 'abandoned' ELSE g.reason END,
       '',
       CASE g.reason WHEN 'abandoned by inviter' THEN 0 WHEN 'abandoned by invitee' THEN 1 ELSE -1 END,
       0, g.started_at, g.ended_at
  FROM games g
 WHERE NOT EXISTS (SELECT 1 FROM game_records r WHERE r.id = g.id);

INSERT INTO game_seats (game_id, seat, name, bot)
SELECT g.id, 0, g.player1, FALSE FROM games g
 WHERE NOT EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.seat = 0);

INSERT INTO game_seats (game_id, seat, name, bot)
SELECT g.id, 1, g.player2, FALSE FROM games g
 WHERE NOT EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.seat = 1);

DROP TABLE IF EXISTS games;

-- +goose Down
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

-- Only two-seat Bomber games fit the old table.
INSERT INTO games (id, player1, player2, winner, reason, guesses, started_at, ended_at)
SELECT r.id, s0.name, s1.name,
       CASE r.winners WHEN '0' THEN s0.name WHEN '1' THEN s1.name END,
       CASE WHEN r.reason = 'abandoned' AND r.leaver = 0 THEN 'abandoned by inviter'
            WHEN r.reason = 'abandoned' AND r.leaver = 1 THEN 'abandoned by invitee'
            ELSE r.reason END,
       r.moves, r.started_at, r.ended_at
  FROM game_records r
  JOIN game_seats s0 ON s0.game_id = r.id AND s0.seat = 0
  JOIN game_seats s1 ON s1.game_id = r.id AND s1.seat = 1
 WHERE r.game = 'bomber'
   AND NOT EXISTS (SELECT 1 FROM game_seats s2 WHERE s2.game_id = r.id AND s2.seat = 2);

DROP TABLE IF EXISTS game_moves;
DROP TABLE IF EXISTS game_seats;
DROP TABLE IF EXISTS game_records;
