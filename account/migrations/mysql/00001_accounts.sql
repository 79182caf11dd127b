-- Accounts. Names are compared byte for byte (VARBINARY: no collation, no
-- trailing-space padding). Times are UTC. Every MySQL migration must be
-- idempotent (IF NOT EXISTS) so that it applies cleanly over ../schema.sql.

-- +goose Up
CREATE TABLE IF NOT EXISTS accounts (
    id            BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    name          VARBINARY(29)   NOT NULL,
    password_hash VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    created_at    DATETIME(6)     NOT NULL,
    updated_at    DATETIME(6)     NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY accounts_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- +goose Down
DROP TABLE IF EXISTS accounts;
