/**
 * A TCP port on 127.0.0.1 that was free a moment ago (free-port.js).
 *
 * @example
 * ```ts
 * const port = await freePort()
 * spawn('redis-server', ['--port', String(port)])
 * ```
 */
export function freePort(): Promise<number>
