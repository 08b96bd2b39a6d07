/** Command-line flags of `pnpm bench`. */

export interface BenchArgs {
  /** A few seconds per workload: a smoke test of the harness, not numbers to keep. */
  quick: boolean
  /** Also run the soak (a minute at 70% of the maximum, 10% creates). */
  soak: boolean
  /** Measure the PostgreSQL + Redis mode instead (scale-out.ts). */
  scaleOut: boolean
  /** Measure `pnpm spec:diff` on a large generated spec instead (spec-diff.ts). */
  specDiff: boolean
  /** Run the service with `--cpu-prof` and summarize the profiles (into this directory). */
  profile: string | undefined
  /** Where the report goes; full mode defaults to the mode's own report (outputs.ts). */
  out: string | undefined
  /** Keep the scratch directory (databases, service logs). */
  keep: boolean
  /** Another build of the server package to measure (a directory with `dist/server.js`). */
  server: string | undefined
  help: boolean
}

export const usage = `usage: pnpm bench [--quick] [--soak] [--scale-out] [--spec-diff] [--profile[=DIR]] [--out=FILE] [--keep]
  --quick     one short round per workload (a smoke test; writes no report unless --out)
  --soak      then a soak: 60 s of (a) with 10% creates at 70% of the measured maximum
  --scale-out PostgreSQL + Redis instead: one and two instances against a PostgreSQL data-path
              ceiling (full mode writes packages/bench/RESULTS-SCALE-OUT.md)
  --spec-diff spec:diff of a generated spec (1,000 operations, 2,000 schemas) against a copy with
              one change, beside the spec's size (prints only, unless --out)
  --profile   run the service with --cpu-prof and print its hot spots (skips the kill -9 check)
  --out       write the Markdown report here (full mode: packages/bench/RESULTS.md; never the
              notes, BENCHMARKS.md)
  --keep      keep the scratch directory with the databases and the service logs
  --server    measure another build of the server package (a directory holding dist/server.js)`

export class UsageError extends Error {
  override name = 'UsageError'
}

export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    quick: false,
    soak: false,
    scaleOut: false,
    specDiff: false,
    profile: undefined,
    out: undefined,
    keep: false,
    server: undefined,
    help: false,
  }
  for (const arg of argv) {
    const [flag, value] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined]
    if (flag === '--') continue
    if (flag === '--quick' && value === undefined) args.quick = true
    else if (flag === '--soak' && value === undefined) args.soak = true
    else if (flag === '--scale-out' && value === undefined) args.scaleOut = true
    else if (flag === '--spec-diff' && value === undefined) args.specDiff = true
    else if (flag === '--keep' && value === undefined) args.keep = true
    else if ((flag === '--help' || flag === '-h') && value === undefined) args.help = true
    else if (flag === '--profile') args.profile = value ?? ''
    else if (flag === '--out' && value !== undefined && value !== '') args.out = value
    else if (flag === '--server' && value !== undefined && value !== '') args.server = value
    else throw new UsageError(`unknown argument ${arg}`)
  }
  return args
}

/**
 * The `--flag=value` arguments of the bench's smaller commands (paired, write-path,
 * instructions), split at the first `=`; a flag without one maps to ''. A flag the command does
 * not take is refused rather than ignored: a misspelt `--round=16` would otherwise measure the
 * default 8 rounds under a heading of 16.
 */
export function toolFlags(
  command: string,
  argv: readonly string[],
  known: readonly string[],
): Map<string, string> {
  const flags = new Map(
    argv
      .filter((arg) => arg !== '--')
      .map((arg) => {
        const at = arg.indexOf('=')
        return at === -1 ? [arg, ''] : [arg.slice(0, at), arg.slice(at + 1)]
      }),
  )
  const unknown = [...flags.keys()].filter((flag) => !known.includes(flag))
  if (unknown.length > 0) {
    throw new UsageError(`${command} takes ${known.join(', ')}; not ${unknown.join(', ')}`)
  }
  return flags
}

/** `toolFlags` of this process's arguments; a refused flag ends the process (exit code 2). */
export function commandFlags(command: string, known: readonly string[]): Map<string, string> {
  try {
    return toolFlags(command, process.argv.slice(2), known)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`${error.message}\n`)
    process.exit(2)
  }
}
