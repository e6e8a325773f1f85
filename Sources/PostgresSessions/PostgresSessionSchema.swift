import Foundation
import PostgresIndex
import PostgresNIO

/// The picker servers' shared state on PostgreSQL — sessions, their picks and the person's
/// sign-ins — as versioned migrations of their own (table `picker_state_version`), beside the
/// index's tables in the same database or in another one.
///
/// Every change to one session locks that session's row (`SELECT … FOR UPDATE`), so changes made
/// through several servers take turns: one pick order (`picker_pick.position` from the row's
/// counter), no asset twice (the primary key), never more than `max_items`. Times are the
/// database's (`now()`), so expiry has one clock whichever server checks it. Sign-ins keep a
/// SHA-256 digest of each secret, never the secret. Never edit a shipped migration: add the next one.
package enum PostgresSessionSchema {
    /// The channel a committed change to a session notifies, with `"<id> <version>"`.
    static let sessionsChannel = "assets_picker_sessions"

    /// The key of the advisory lock migrations and session creation take (capacity is counted
    /// over every server).
    static let createLock: Int64 = 0x4153_5345_5453_5353 // "ASSETSSS"

    /// The migrations, in order; the schema version is their count.
    static let migrations: [String] = [version1]

    /// Brings the database's session tables to the current version.
    /// - Throws: ``PostgresIndexError/newerSchema(_:version:known:)`` for tables a newer program migrated.
    package static func migrate(_ database: PostgresPool) async throws {
        try await database.transaction(statementDeadline: nil) { session in
            try await session.execute("SELECT pg_advisory_xact_lock(\(createLock))")
            try await session.execute("CREATE TABLE IF NOT EXISTS picker_state_version (version bigint NOT NULL)")
            let version = try await session.value("SELECT MAX(version) FROM picker_state_version", as: Int.self) ?? 0
            guard version <= migrations.count else {
                throw PostgresIndexError.newerSchema(database.address, version: version, known: migrations.count)
            }
            for (index, migration) in migrations.enumerated().dropFirst(version) {
                for statement in PostgresSchema.statements(of: migration) { try await session.execute(PostgresQuery(unsafeSQL: statement)) }
                try await session.execute("INSERT INTO picker_state_version (version) VALUES (\(index + 1))")
            }
        }
    }

    /// Sessions, picks and sign-ins.
    private static let version1 = """
        CREATE TABLE picker_session (
            id text PRIMARY KEY,
            picker_token text NOT NULL,
            max_items integer NOT NULL,
            media_filter text NOT NULL,
            pick_order text NOT NULL,
            own boolean NOT NULL,
            state text NOT NULL DEFAULT 'picking',
            create_time timestamptz NOT NULL,
            expire_time timestamptz NOT NULL,
            forget_time timestamptz NOT NULL,
            pending_preselection text[] NOT NULL DEFAULT '{}',
            dropped_preselected text[] NOT NULL DEFAULT '{}',
            next_position bigint NOT NULL DEFAULT 0,
            base_url_expiry bigint,
            version bigint NOT NULL DEFAULT 0
        );
        CREATE INDEX picker_session_forget ON picker_session (forget_time);
        CREATE INDEX picker_session_live_own ON picker_session (expire_time) WHERE own;
        CREATE TABLE picker_pick (
            session_id text NOT NULL REFERENCES picker_session (id) ON DELETE CASCADE,
            asset_uuid uuid NOT NULL,
            position bigint NOT NULL,
            media_type smallint NOT NULL,
            byte_size bigint NOT NULL,
            creation_date double precision NOT NULL,
            filename text NOT NULL,
            PRIMARY KEY (session_id, asset_uuid)
        );
        CREATE UNIQUE INDEX picker_pick_order ON picker_pick (session_id, position);
        CREATE TABLE person_sign_in (
            kind text NOT NULL,
            id text NOT NULL,
            secret_sha256 bytea NOT NULL,
            expires timestamptz NOT NULL,
            PRIMARY KEY (kind, id)
        );
        CREATE INDEX person_sign_in_expires ON person_sign_in (kind, expires);
        """
}
