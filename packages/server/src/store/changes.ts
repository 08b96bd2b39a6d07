/**
 * What a cache needs to know of the writes to the table it caches, so that it never serves a
 * value that a write replaced (cache.ts, key-cache.ts). PostgreSQL implements it
 * with one listening connection per store (postgres/table-changes.ts), SQLite with
 * `PRAGMA data_version` (sqlite/external-changes.ts).
 */
export interface TableChanges {
  /**
   * False while a write by another instance or process could go unseen (PostgreSQL's listening
   * connection is down): a cache neither serves nor keeps entries then.
   */
  readonly listening: boolean
  /**
   * Moves on with every write seen and whenever `listening` changes. A cache drops its entries
   * when it moved, and keeps a value only if it did not move while the value was read, since a
   * read that raced with a write may return what the write replaced.
   */
  readonly generation: number
  /** A write made through this store: seen at once, without waiting for any notification. */
  changed(): void
}
