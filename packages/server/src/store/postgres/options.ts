/**
 * What `openPostgresStore` takes. Public (re-exported by the package's index) and kept apart from
 * connection.ts on purpose: its declaration must not import `pg`, whose types are a
 * devDependency, so a consumer type-checking with `skipLibCheck: false` needs no `@types/pg`.
 */
export interface PostgresStoreOptions {
  /** `postgres://…` */
  url: string
  /** Connections at most (`PETSTORE_DB_POOL`). */
  size: number
  /** Schema to work in (tests use a fresh one each); the URL's default (`public`) when unset. */
  schema?: string
  /** Longest wait for a connection or for one query, in milliseconds. */
  timeoutMs?: number
}
