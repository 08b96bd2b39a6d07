/**
 * PostgreSQL schema migrations, applied in order at start: PostgreSQL's own first three, then the
 * ones both stores share (../migrations.ts). Append only: a released migration is
 * never edited, a change is a new entry. Applied versions are rows of `schema_migrations`; a
 * session advisory lock makes instances that start together apply them once, one after another.
 * @see https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
 */
import { perKeyPlanValues, planValues } from '@petstore/types'
import type pg from 'pg'
import {
  changedDocumentText,
  type Migration,
  type StoredDocument,
  migrations as shared,
} from '../migrations.js'

/** A migration of PostgreSQL's own (before 004), or one both stores share. */
export type PostgresMigration = { name: string; postgres: string } | Migration

const initial = `
CREATE TABLE pets (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name TEXT NOT NULL,
  category_id BIGINT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
);
CREATE INDEX pets_status_id ON pets (status, id);

CREATE TABLE api_keys (
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  name TEXT,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
  per_minute BIGINT NOT NULL CHECK (per_minute > 0),
  per_day BIGINT NOT NULL CHECK (per_day > 0),
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

-- Every instance caches active keys; this tells them all when one changes (keys.ts).
CREATE FUNCTION api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('petstore_api_keys', TG_TABLE_SCHEMA);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION api_keys_changed();

CREATE TABLE idempotency_records (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
  claimed_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  fingerprint TEXT,
  response TEXT,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`

const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ')
const perKey = `plan IN (${list(perKeyPlanValues)})`

/**
 * As SQLite's 002: only keys of a per-key plan (enterprise) keep numbers, a fixed plan's limits
 * are read from the spec when enforced, so issue-time copies are cleared; the CHECKs (plan names
 * included) come from the spec's `x-rate-limit-plans`.
 */
const perKeyLimits = `
ALTER TABLE api_keys
  DROP CONSTRAINT api_keys_plan_check,
  ALTER COLUMN per_minute DROP NOT NULL,
  ALTER COLUMN per_day DROP NOT NULL;
UPDATE api_keys SET per_minute = NULL, per_day = NULL WHERE NOT (${perKey});
ALTER TABLE api_keys
  ADD CONSTRAINT api_keys_plan_check CHECK (plan IN (${list(planValues)})),
  ADD CONSTRAINT api_keys_per_key_limits
    CHECK ((${perKey}) = (per_minute IS NOT NULL AND per_day IS NOT NULL)),
  ADD CONSTRAINT api_keys_limits_paired CHECK ((per_minute IS NULL) = (per_day IS NULL));
`

/**
 * Pets may now change (PetStore: every write but `create` invalidates), and every instance caches
 * them (../cache.ts): a trigger tells them all, as 001's does for keys, whoever wrote, a hand
 * fix in psql included. One function now serves both tables, naming the channel after the table
 * as table-changes.ts listens. Inserts are not announced: pet ids only grow, so caches keep what
 * they hold, and unknown keys are never cached.
 */
const tableChanges = `
CREATE FUNCTION announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('petstore_' || TG_TABLE_NAME, TG_TABLE_SCHEMA);
  RETURN NULL;
END
$$;
DROP TRIGGER api_keys_changed ON api_keys;
DROP FUNCTION api_keys_changed();
CREATE TRIGGER api_keys_changed AFTER UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION announce_change();
CREATE TRIGGER pets_changed AFTER UPDATE OR DELETE OR TRUNCATE ON pets
  FOR EACH STATEMENT EXECUTE FUNCTION announce_change();
`

export const postgresMigrations: readonly PostgresMigration[] = [
  { name: '001-initial', postgres: initial },
  { name: '002-per-key-limits', postgres: perKeyLimits },
  { name: '003-table-changes', postgres: tableChanges },
  ...shared,
]

/** Applies the migrations `client`'s schema lacks, under a lock scoped to that schema. */
export async function migratePostgres(
  client: pg.ClientBase,
  all: readonly PostgresMigration[] = postgresMigrations,
): Promise<void> {
  await client.query(`SELECT pg_advisory_lock(hashtext(current_schema() || '.migrations'))`)
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    )
    const { rows } = await client.query<{ version: number }>(
      'SELECT coalesce(max(version), 0) AS version FROM schema_migrations',
    )
    const applied = rows[0]?.version ?? 0
    for (const [index, migration] of all.entries()) {
      if (index < applied) continue
      await client.query('BEGIN')
      try {
        if ('postgres' in migration) await client.query(migration.postgres)
        else if ('sql' in migration) await client.query(migration.sql.postgres)
        else await changeDocuments(client, migration.documents.table, migration.documents.change)
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          index + 1,
          migration.name,
        ])
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext(current_schema() || '.migrations'))`)
  }
}

/** Documents are read in pages by id, so a large table never sits in memory whole. */
const changeBatch = 1000

/** Runs `change` over every document of `table` (../migrations.ts: `changedDocumentText`). */
async function changeDocuments(
  client: pg.ClientBase,
  table: string,
  change: (document: StoredDocument) => StoredDocument,
): Promise<void> {
  const changed = changedDocumentText(table, change)
  for (let after = 0; ; ) {
    const { rows } = await client.query<{ id: number; doc: string }>(
      `SELECT id, doc::text AS doc FROM ${table} WHERE id > $1 ORDER BY id LIMIT ${changeBatch}`,
      [after],
    )
    if (rows.length === 0) return
    const docs = rows.map((row) => changed(row.doc))
    await client.query(
      `UPDATE ${table} AS r SET doc = t.doc::json
       FROM unnest($1::bigint[], $2::text[]) AS t(id, doc) WHERE r.id = t.id`,
      [rows.map((row) => row.id), docs],
    )
    after = (rows[rows.length - 1] as { id: number }).id
  }
}
