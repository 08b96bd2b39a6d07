/**
 * An environment for a child process that must not inherit where the service stores its data.
 * The README's two-instance setup has `DATABASE_URL` and `REDIS_URL` exported in the shell that
 * runs the tests; a test or tool that starts the service (or its CLI) on a file of its own would
 * otherwise send it to that PostgreSQL and Redis. Whoever means a variable passes it in `extra`.
 */

/**
 * What the service reads: `PORT`, `HOST`, `LOG_LEVEL`, `DATABASE_URL`, `REDIS_URL`, `PETSTORE_*`,
 * and `OTEL_*` (a collector in the shell's environment would otherwise receive a test's spans).
 */
export const SERVICE_VARIABLE =
  /^(PORT|HOST|LOG_LEVEL|DATABASE_URL|REDIS_URL|PETSTORE_\w+|OTEL_\w+)$/

/**
 * `env` less the service's variables, then `extra`.
 *
 * @example
 * ```ts
 * spawn('petstore', ['keys', 'create'], { env: withoutServiceVariables(process.env, { PETSTORE_DB: db }) })
 * ```
 */
export function withoutServiceVariables(
  env: NodeJS.ProcessEnv = process.env,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const kept = Object.entries(env).filter(([name]) => !SERVICE_VARIABLE.test(name))
  return { ...Object.fromEntries(kept), ...extra }
}
