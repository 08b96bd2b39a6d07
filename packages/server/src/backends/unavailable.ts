/**
 * A backing service (PostgreSQL, Redis) that cannot answer right now: not a bug of the request
 * and not the client's fault. The error boundary turns it into `503 service_unavailable` with
 * `Retry-After`, so a client backs off and retries; the cause stays in the logs only.
 */
export class BackendUnavailableError extends Error {
  override name = 'BackendUnavailableError'

  constructor(
    /** `postgres` or `redis`: which service, for the logs and `/readyz`. */
    readonly backend: string,
    options?: { cause?: unknown },
  ) {
    super(`${backend} is not reachable`, options)
  }
}
