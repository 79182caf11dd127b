-- Records of finished games of every kind; see the MySQL migration of the
-- same number. The Bomber-only games table is copied over and dropped (guess
-- counts are not kept). Times: started_at and ended_at Unix microseconds,
-- moves' at nanoseconds.

-- +goose Up
CREATE TABLE game_records (
    id         INTEGER PRIMARY KEY,
    game       TEXT    NOT NULL,
    options    TEXT    NOT NULL,
    seed       TEXT,
    status     INTEGER NOT NULL,
    winners    TEXT    NOT NULL,
    scores     TEXT    NOT NULL,
    reason     TEXT    NOT NULL,
    detail     TEXT    NOT NULL,
    leaver     INTEGER NOT NULL,
    moves      INTEGER NOT NULL CHECK (moves >= 0),
    started_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX game_records_seed ON game_records (seed);
CREATE INDEX game_records_ended ON game_records (ended_at, id);
CREATE INDEX game_records_game ON game_records (game, ended_at, id);

CREATE TABLE game_seats (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    name    TEXT    NOT NULL,
    bot     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;
CREATE INDEX game_seats_name ON game_seats (name, game_id);

CREATE TABLE game_moves (
    game_id  INTEGER NOT NULL,
    ply      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    notation TEXT    NOT NULL,
    at       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) STRICT, WITHOUT ROWID;

INSERT INTO game_records (id, game, options, seed, status, winners, scores, reason, detail, leaver, moves, started_at, ended_at)
SELECT id, 'bomber', '{}', NULL,
       CASE WHEN winner IS NULL THEN 0 ELSE 1 END,
       CASE WHEN winner IS NULL THEN '' WHEN winner = player1 THEN '0' ELSE '1' END,
       '',
       CASE WHEN reason IN ('abandoned by inviter', 'abandoned by invitee') THEN 'abandoned' ELSE reason END,
       '',
       CASE reason WHEN 'abandoned by inviter' THEN 0 WHEN 'abandoned by invitee' THEN 1 ELSE -1 END,
       0, started_at, ended_at
  FROM games;
INSERT INTO game_seats (game_id, seat, name, bot) SELECT id, 0, player1, 0 FROM games;
INSERT INTO game_seats (game_id, seat, name, bot) SELECT id, 1, player2, 0 FROM games;
DROP TABLE games;

-- +goose Down
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    player1    TEXT    NOT NULL,
    player2    TEXT    NOT NULL,
    winner     TEXT,
    reason     TEXT    NOT NULL,
    guesses    INTEGER NOT NULL CHECK (guesses >= 0),
    started_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX games_ended ON games (ended_at, id);
CREATE INDEX games_player1 ON games (player1, ended_at);
CREATE INDEX games_player2 ON games (player2, ended_at);
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
DROP TABLE game_moves;
DROP TABLE game_seats;
DROP TABLE game_records;
