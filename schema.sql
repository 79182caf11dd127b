-- Bomber: the complete MySQL/MariaDB schema (schema version 7).
--
-- bomberd creates and upgrades these tables itself at start (versioned
-- migrations embedded in package account, recorded in bomber_schema_version);
-- this file is for operators who review the schema or create it in advance.
-- It records the version it creates in bomber_schema_version (the table the
-- daemon's migrations keep), so `bomberctl check-schema` reports version 7
-- afterwards and the daemon applies nothing more. Every statement is
-- idempotent, and so are the daemon's MySQL migrations, so starting bomberd
-- on a database made from this file, or applying it twice, is safe.
-- A test (account/schema_mysql_test.go) checks on MariaDB that this file and
-- the migrations produce the same tables, columns and indexes.
--
--   mysql -u root -e 'CREATE DATABASE bomber'
--   mysql -u root bomber < schema.sql
--   bomberctl --store-driver mysql --mysql-dsn 'root@tcp(127.0.0.1:3306)/bomber' check-schema

-- Accounts. Names are compared byte for byte (VARBINARY: no collation, no
-- trailing-space padding); password_hash is a PHC string
-- ($argon2id$... or $bomber-md5-argon2id$... for a not yet upgraded import).
CREATE TABLE IF NOT EXISTS accounts (
    id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    name          VARBINARY(29)   NOT NULL,
    password_hash VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at    DATETIME(6)     NOT NULL,
    updated_at    DATETIME(6)     NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY accounts_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Finished games of every kind (package rules/record): one row per game
-- and one per seat. Seats hold names, not account ids, so that the history
-- outlives deleted accounts. status is rules.Status (0: no result, 1: won,
-- 2: drawn); winners and scores are comma-separated seat numbers and
-- scores; seed is the table's seed in hex (NULL when unknown) and unique, so
-- a record stored twice is recognised; detail is the outcome's own reason;
-- leaver is the seat that left an abandoned game, else -1; moves is the
-- number of moves and move_log the moves themselves, one line each, "seat
-- at notation", at in nanoseconds since the previous move (the first's
-- since the Unix epoch). Times are UTC.
-- (Schema version 3 replaced the Bomber-only games table with these;
-- version 4 replaced the table game_moves, a row a move, with move_log.)
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
    move_log   MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
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

-- Players' Glicko-2 ratings, one row per game and player (a player with no
-- row has the default rating); updated_at is when the last rated game ended.
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

-- Each rated game's rating changes, a row per rated player: the rating
-- before and after the game, the deviation after, and when it ended.
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

-- The keys of names that look alike (account.NameKey: case folded, 0/o,
-- 1/i/l, rn/m, vv/w and -/_ made one), so that sign-up refuses a name like
-- one taken. The oldest account of names that look alike holds the key.
CREATE TABLE IF NOT EXISTS name_keys (
    name_key VARBINARY(120) NOT NULL,
    name     VARBINARY(29)  NOT NULL,
    PRIMARY KEY (name_key),
    KEY name_keys_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The schema version, as the migrations record it (goose's version table):
-- version 0 is the table's creation, then one row per applied migration.
-- Rows are only added when missing, so this is idempotent too.
CREATE TABLE IF NOT EXISTS bomber_schema_version (
    id         BIGINT(20) UNSIGNED NOT NULL AUTO_INCREMENT,
    version_id BIGINT     NOT NULL,
    is_applied BOOLEAN    NOT NULL,
    tstamp     DATETIME   NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (id)
);
INSERT INTO bomber_schema_version (version_id, is_applied)
    SELECT v.version_id, TRUE FROM (SELECT 0 AS version_id UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7) AS v
    WHERE NOT EXISTS (SELECT 1 FROM bomber_schema_version s WHERE s.version_id = v.version_id)
    ORDER BY v.version_id;
