/**
 * What each of several instances of the service sharing one PostgreSQL and one Redis is started
 * with (README.md, "Running more than one instance"): the multi-instance suite
 * (packages/server/test/backends/multi-instance.test.ts) runs its two servers with it, and
 * compose.yaml's api services must pass exactly these variables (scripts/test/compose.test.ts),
 * so the deployment runs what the tests run.
 */
export interface SharedBackends {
  /** `postgres://…`, the same for every instance. */
  databaseUrl: string
  /** `redis://…`, the same for every instance. */
  redisUrl: string
  /** The port of the instance's metrics listener, which Prometheus scrapes. */
  metricsPort: string
}

export function instanceEnv(backends: SharedBackends): Record<string, string> {
  return {
    DATABASE_URL: backends.databaseUrl,
    REDIS_URL: backends.redisUrl,
    PETSTORE_METRICS_PORT: backends.metricsPort,
  }
}
