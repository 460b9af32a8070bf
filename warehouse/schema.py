"""The warehouse tables (DDL), documented column by column in docs/warehouse.md."""

from __future__ import annotations

import pyarrow as pa

from engine.events import SCHEMA as EVENT_SCHEMA

# 2: game-neutral results (no deciding_seat / deciding columns); 3: any number of seats, sides
# from the game (games.seats, winning_side, winners; seats.side, place); 4: the decisions
# table (engine.decisions, docs/decisions.md); 5: tendency_counts (every player's counts of
# the tendency catalog) and result_counts (everyone's results by seat and by side), written by
# each ingest run (warehouse.tendencies.write_counts); 6: the facts table (engine.facts,
# docs/facts.md); 7: the reviews table (engine.review, docs/review.md), filled by
# `liujia ingest --review`
SCHEMA_VERSION = 7

TABLES = ("meta", "ingest_runs", "games", "seats", "events", "quarantine", "ingested_files",
          "decisions", "tendency_counts", "result_counts", "facts", "reviews")

DDL = (
    """CREATE TABLE IF NOT EXISTS meta (
        key VARCHAR PRIMARY KEY,
        value VARCHAR NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS ingest_runs (
        run_id INTEGER PRIMARY KEY,
        command VARCHAR NOT NULL,
        started TIMESTAMPTZ NOT NULL,
        finished TIMESTAMPTZ NOT NULL,
        files INTEGER NOT NULL,
        games_read INTEGER NOT NULL,
        loaded INTEGER NOT NULL,
        already_present INTEGER NOT NULL,
        quarantined INTEGER NOT NULL,
        files_quarantined INTEGER NOT NULL,
        events_read BIGINT NOT NULL,
        events_loaded BIGINT NOT NULL,
        seconds DOUBLE NOT NULL,
        paths VARCHAR[] NOT NULL,
        liujia_version VARCHAR NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS games (
        game_id VARCHAR PRIMARY KEY,
        game VARCHAR NOT NULL,
        rules_version VARCHAR NOT NULL,
        options VARCHAR NOT NULL,
        players VARCHAR[] NOT NULL,
        session VARCHAR,
        previous_game VARCHAR,
        opener TINYINT,
        started TIMESTAMPTZ NOT NULL,
        ended TIMESTAMPTZ NOT NULL,
        events INTEGER NOT NULL,
        seats TINYINT NOT NULL,
        reason VARCHAR,
        winning_side VARCHAR,
        winners TINYINT[] NOT NULL,
        result VARCHAR,
        final_digest BLOB NOT NULL,
        source_file VARCHAR NOT NULL,
        run_id INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS seats (
        game_id VARCHAR NOT NULL,
        seat TINYINT NOT NULL,
        player_id VARCHAR NOT NULL,
        side VARCHAR,
        place TINYINT,
        result VARCHAR NOT NULL,
        score INTEGER NOT NULL,
        cards_left SMALLINT,
        PRIMARY KEY (game_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS events (
        game_id VARCHAR NOT NULL,
        seq UINTEGER NOT NULL,
        ts TIMESTAMPTZ NOT NULL,
        seat TINYINT NOT NULL,
        kind VARCHAR NOT NULL,
        cards UTINYINT[] NOT NULL,
        target TINYINT NOT NULL,
        value SMALLINT NOT NULL,
        tag VARCHAR NOT NULL,
        payload VARCHAR,
        digest BLOB NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS quarantine (
        qkey VARCHAR PRIMARY KEY,
        file VARCHAR NOT NULL,
        file_offset BIGINT,
        game_id VARCHAR,
        seq INTEGER,
        seat TINYINT,
        stage VARCHAR NOT NULL,
        code VARCHAR NOT NULL,
        rule_id VARCHAR,
        reason VARCHAR NOT NULL,
        events INTEGER,
        final_digest BLOB,
        raw BLOB,
        run_id INTEGER NOT NULL,
        first_seen TIMESTAMPTZ NOT NULL
    )""",
    # Files whose every game was loaded or already present, keyed by the SHA-256 of their
    # seal: a later run skips a file that still hashes to it (its games are already here).
    """CREATE TABLE IF NOT EXISTS ingested_files (
        sha256 BLOB PRIMARY KEY,
        file VARCHAR NOT NULL,
        bytes BIGINT NOT NULL,
        games INTEGER NOT NULL,
        events BIGINT NOT NULL,
        run_id INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS decisions (
        game_id VARCHAR NOT NULL,
        game VARCHAR NOT NULL,
        seq UINTEGER NOT NULL,
        seat TINYINT NOT NULL,
        player_id VARCHAR NOT NULL,
        options VARCHAR[] NOT NULL,
        chosen VARCHAR NOT NULL,
        cards UTINYINT[] NOT NULL,
        hand SMALLINT NOT NULL,
        phase VARCHAR NOT NULL,
        side VARCHAR,
        can_answer BOOLEAN NOT NULL,
        top_seat TINYINT NOT NULL,
        top_relation VARCHAR NOT NULL,
        tags VARCHAR[] NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS facts (
        game_id VARCHAR NOT NULL,
        game VARCHAR NOT NULL,
        seat TINYINT NOT NULL,
        player_id VARCHAR NOT NULL,
        fact VARCHAR NOT NULL,
        count INTEGER NOT NULL,
        first_seq UINTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS reviews (
        game_id VARCHAR NOT NULL,
        game VARCHAR NOT NULL,
        seq UINTEGER NOT NULL,
        seat TINYINT NOT NULL,
        player_id VARCHAR NOT NULL,
        options INTEGER NOT NULL,
        worlds INTEGER NOT NULL,
        chosen VARCHAR NOT NULL,
        best VARCHAR NOT NULL,
        rank INTEGER NOT NULL,
        candidates STRUCT(text VARCHAR, kind VARCHAR, cards UTINYINT[], value DOUBLE,
                          se DOUBLE, p_best DOUBLE)[] NOT NULL,
        loss DOUBLE,
        loss_se DOUBLE,
        grade VARCHAR,
        withheld VARCHAR,
        flag BOOLEAN NOT NULL,
        scale VARCHAR NOT NULL,
        review_version SMALLINT NOT NULL,
        seed BIGINT NOT NULL,
        max_worlds INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS tendency_counts (
        game VARCHAR NOT NULL,
        tendency VARCHAR NOT NULL,
        player_id VARCHAR NOT NULL,
        n BIGINT NOT NULL,
        k BIGINT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS result_counts (
        game VARCHAR NOT NULL,
        dimension VARCHAR NOT NULL,
        grp VARCHAR,
        wins BIGINT NOT NULL,
        decided BIGINT NOT NULL
    )""",
)

# Arrow schemas of the rows ingest appends (same column order as the tables above).
GAMES_ARROW = pa.schema([
    ("game_id", pa.string()), ("game", pa.string()), ("rules_version", pa.string()),
    ("options", pa.string()), ("players", pa.list_(pa.string())), ("session", pa.string()),
    ("previous_game", pa.string()), ("opener", pa.int8()),
    ("started", pa.timestamp("us", tz="UTC")), ("ended", pa.timestamp("us", tz="UTC")),
    ("events", pa.int32()), ("seats", pa.int8()), ("reason", pa.string()),
    ("winning_side", pa.string()), ("winners", pa.list_(pa.int8())),
    ("result", pa.string()), ("final_digest", pa.binary()),
    ("source_file", pa.string()), ("run_id", pa.int32()),
])
SEATS_ARROW = pa.schema([
    ("game_id", pa.string()), ("seat", pa.int8()), ("player_id", pa.string()),
    ("side", pa.string()), ("place", pa.int8()), ("result", pa.string()), ("score", pa.int32()),
    ("cards_left", pa.int16()),
])
EVENTS_ARROW = pa.schema([
    f.with_type(pa.string()) if pa.types.is_dictionary(f.type) else
    f.with_type(pa.binary()) if pa.types.is_fixed_size_binary(f.type) else f
    for f in EVENT_SCHEMA
])
QUARANTINE_ARROW = pa.schema([
    ("qkey", pa.string()), ("file", pa.string()), ("file_offset", pa.int64()),
    ("game_id", pa.string()), ("seq", pa.int32()), ("seat", pa.int8()), ("stage", pa.string()),
    ("code", pa.string()), ("rule_id", pa.string()), ("reason", pa.string()),
    ("events", pa.int32()), ("final_digest", pa.binary()), ("raw", pa.binary()),
    ("run_id", pa.int32()), ("first_seen", pa.timestamp("us", tz="UTC")),
])
