/** Pets, API keys (hashed), idempotency records and settings. */
export const initial = `
CREATE TABLE pets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  category_id INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
);
CREATE INDEX pets_status_id ON pets (status, id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  name TEXT,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
  per_minute INTEGER NOT NULL CHECK (per_minute > 0),
  per_day INTEGER NOT NULL CHECK (per_day > 0),
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE idempotency_records (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
  claimed_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  fingerprint TEXT,
  response TEXT,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at);

CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
`
