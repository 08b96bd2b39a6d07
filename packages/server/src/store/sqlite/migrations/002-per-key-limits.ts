/**
 * Only keys of a per-key plan (enterprise) keep numbers: a fixed plan's limits are read from the
 * spec when enforced, so the copies made at issue time are cleared, and the CHECKs (plan names
 * included) are derived from the spec's `x-rate-limit-plans`. SQLite cannot change a CHECK in
 * place, so the table is rebuilt, keeping rowids (the list order).
 * @see https://www.sqlite.org/lang_altertable.html#otheralter
 */
import { perKeyPlanValues, planValues } from '@petstore/types'

const list = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ')
const perKey = `plan IN (${list(perKeyPlanValues)})`

export const perKeyLimits = `
CREATE TABLE api_keys_next (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  name TEXT,
  plan TEXT NOT NULL CHECK (plan IN (${list(planValues)})),
  per_minute INTEGER CHECK (per_minute > 0),
  per_day INTEGER CHECK (per_day > 0),
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  CHECK ((${perKey}) = (per_minute IS NOT NULL AND per_day IS NOT NULL)),
  CHECK ((per_minute IS NULL) = (per_day IS NULL))
);
INSERT INTO api_keys_next
  (rowid, id, key_hash, name, plan, per_minute, per_day, created_at, revoked_at)
SELECT rowid, id, key_hash, name, plan,
  CASE WHEN ${perKey} THEN per_minute END,
  CASE WHEN ${perKey} THEN per_day END,
  created_at, revoked_at
FROM api_keys ORDER BY rowid;
DROP TABLE api_keys;
ALTER TABLE api_keys_next RENAME TO api_keys;
`
