/**
 * The node flags and entry of the server package's `start` script (start-command.js).
 *
 * @example
 * ```ts
 * const { nodeArgs, entry } = startCommand('packages/server')
 * spawn(process.execPath, [...nodeArgs, entry])
 * ```
 */
export function startCommand(serverDir: string): {
  /** The script as written, e.g. `node --max-semi-space-size=16 dist/server.js`. */
  script: string
  /** The flags between `node` and the file. */
  nodeArgs: string[]
  /** The file, joined to `serverDir`. */
  entry: string
}
