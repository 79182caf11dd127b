-- Bomber: the complete MySQL/MariaDB schema (schema version 2).
--
-- bomberd creates and upgrades these tables itself at start (versioned
-- migrations embedded in package account, recorded in bomber_schema_version);
-- this file is for operators who review the schema or create it in advance.
-- It records the version it creates in bomber_schema_version (the table the
-- daemon's migrations keep), so `bomberctl check-schema` reports version 2
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
    SELECT v.version_id, TRUE FROM (SELECT 0 AS version_id UNION ALL SELECT 1 UNION ALL SELECT 2) AS v
    WHERE NOT EXISTS (SELECT 1 FROM bomber_schema_version s WHERE s.version_id = v.version_id)
    ORDER BY v.version_id;
