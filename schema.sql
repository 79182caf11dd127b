-- Bomber: the complete MySQL/MariaDB schema (schema version 2).
--
-- bomberd creates and upgrades these tables itself at start (versioned
-- migrations embedded in package account, recorded in bomber_schema_version);
-- this file is for operators who review the schema or create it in advance.
-- Every statement is idempotent, and so are the daemon's MySQL migrations,
-- so starting bomberd on a database made from this file is safe.
-- A test (account/schema_mysql_test.go) checks on MariaDB that this file and
-- the migrations produce the same tables, columns and indexes.
--
--   mysql -u root -e 'CREATE DATABASE bomber'
--   mysql -u root bomber < schema.sql

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

-- Finished games. Players are names, not account ids, so that the history
-- outlives deleted accounts. winner is NULL when nobody won. Times are UTC.
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
