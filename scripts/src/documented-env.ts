/**
 * The variables the server's README documents, and what a running process actually received.
 * A launcher in between (Turbo's strict environment mode drops whatever a task does not
 * declare) can silently swallow a documented setting; the tests that start the service the
 * README's way (`pnpm start`, `pnpm dev`) read the server process's own environment to prove
 * that every documented name got through.
 */
import { readdirSync, readFileSync } from 'node:fs'

/**
 * Every name in the first column of the README's tables headed `Variable` (the configuration
 * table and the tracing table), in order: `` `PORT` ``, `` `OTEL_SDK_DISABLED=true` ``,
 * `` `OTEL_EXPORTER_OTLP_PROTOCOL` (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`) ``.
 *
 * @example
 * ```ts
 * documentedVariables(readFileSync('packages/server/README.md', 'utf8')) // ['PORT', 'HOST', …, 'OTEL_SDK_DISABLED']
 * ```
 */
export function documentedVariables(readme: string): string[] {
  const names: string[] = []
  let inTable = false
  for (const line of readme.split('\n')) {
    const cells = line.startsWith('|') ? line.split('|').map((cell) => cell.trim()) : undefined
    if (cells === undefined) {
      inTable = false
    } else if (cells[1] === 'Variable') {
      inTable = true
    } else if (inTable && !/^-+$/.test(cells[1] ?? '')) {
      for (const match of (cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`/g)) {
        names.push(match[1] as string)
      }
    }
  }
  return [...new Set(names)]
}

/** The environment `pid` was started with (Linux: `/proc/<pid>/environ`). */
export function processEnvironment(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean)
  return new Map(
    entries.map((entry) => {
      const equals = entry.indexOf('=')
      return [entry.slice(0, equals), entry.slice(equals + 1)] as const
    }),
  )
}

/** The command line of `pid`, its arguments split. */
function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
}

/** Every live process under `root` (its children, theirs, …). */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses, so read after the last `)`.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(name), ppid)
    } catch {
      // Exited while we looked.
    }
  }
  const found: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift() as number
    for (const [pid, ppid] of parents) {
      if (ppid === parent) {
        found.push(pid)
        queue.push(pid)
      }
    }
  }
  return found
}

/**
 * The Node processes under `root` running `entry` (e.g. `dist/server.js`): the server a
 * launcher (`pnpm`, Turbo, a shell) started.
 */
export function nodeProcessesRunning(root: number, entry: string): number[] {
  return descendants(root).filter((pid) => {
    try {
      const [program = '', ...args] = commandLine(pid)
      return /(^|\/)node$/.test(program) && args.some((arg) => arg.endsWith(entry))
    } catch {
      return false
    }
  })
}

/** The documented names missing from `env` (or holding another value than `expected`'s). */
export function missingVariables(
  env: ReadonlyMap<string, string>,
  expected: Readonly<Record<string, string>>,
): string[] {
  return Object.entries(expected)
    .filter(([name, value]) => env.get(name) !== value)
    .map(([name]) => name)
}
