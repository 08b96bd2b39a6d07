/**
 * The operator CLI's grammar. Parsing is separate from running so that every bad argument is
 * reported as one line (UsageError, exit 2) before anything touches the database.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util'
import { type Plan, perKeyPlanValues, planValues } from '@petstore/types'
import { keyNameProblem } from '../auth/api-key.js'
import { ConfigError, configTable } from '../config.js'

export type Command =
  | { name: 'help' }
  | { name: 'serve'; env: ServeEnv }
  | { name: 'keys create'; plan: Plan; keyName?: string; perMinute?: number; perDay?: number }
  | { name: 'keys list'; json: boolean }
  | { name: 'keys revoke'; id: string }
  | { name: 'seed'; pets: number }

/** What `serve`'s flags set: the same variables as the environment, which they override. */
export type ServeEnv = Record<string, string>

/** `serve`'s flags, each standing for the configuration row (config.ts) whose variable it sets. */
const serveFlags = {
  port: configTable.port,
  host: configTable.host,
  db: configTable.dbPath,
  workers: configTable.workers,
} as const

const overridden = Object.values(serveFlags).map((row) => row.variable)

/** A command line that cannot be run; the message is one line for stderr. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export const usage = `usage: petstore <command>
  serve [--port N] [--host H] [--db FILE] [--workers N]
  keys create --plan ${planValues.join('|')} [--name N] [--per-minute N --per-day N]
  keys list [--json]
  keys revoke <id>
  seed --pets N
serve runs the service as pnpm start does, configured by the same environment (PORT, HOST,
PETSTORE_*, DATABASE_URL, REDIS_URL, LOG_LEVEL); its flags override ${overridden.slice(0, -1).join(', ')} and ${overridden.at(-1)}.`

export function parseCommand(argv: readonly string[]): Command {
  const [first, second] = argv
  // Asked for, help is an answer; without a command it is a mistake a script must see.
  if (first === undefined) throw new UsageError('a command is needed: serve, keys or seed')
  if (first === '--help' || first === '-h' || first === 'help') return { name: 'help' }
  if (first === 'keys') {
    if (second === 'create') return keysCreate(argv.slice(2))
    if (second === 'list') return keysList(argv.slice(2))
    if (second === 'revoke') return keysRevoke(argv.slice(2))
    throw new UsageError(
      second === undefined
        ? 'keys needs a subcommand: create, list or revoke'
        : `unknown keys subcommand "${second}"; use create, list or revoke`,
    )
  }
  if (first === 'serve') return serve(argv.slice(1))
  if (first === 'seed') return seed(argv.slice(1))
  throw new UsageError(`unknown command "${first}"; use serve, keys or seed (see petstore --help)`)
}

function parse(args: readonly string[], options: ParseArgsConfig['options'], positionals = 0) {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...args],
      options,
      allowPositionals: positionals > 0,
      strict: true,
      tokens: true,
    })
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments')
  }
  if (parsed.positionals.length > positionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals]}"`)
  }
  // parseArgs keeps the last of a repeated option: `--plan free --plan pro` would make a pro key.
  const seen = new Set<string>()
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once`)
    seen.add(token.name)
  }
  return parsed
}

function keysCreate(args: readonly string[]): Command {
  const { values } = parse(args, {
    plan: { type: 'string' },
    name: { type: 'string' },
    'per-minute': { type: 'string' },
    'per-day': { type: 'string' },
  })
  const plan = values.plan as string | undefined
  if (plan === undefined) throw new UsageError(`keys create needs --plan ${planValues.join('|')}`)
  if (!planValues.includes(plan as Plan)) {
    throw new UsageError(`--plan must be one of ${planValues.join(', ')}, got "${plan}"`)
  }
  const perMinute = positiveInteger('--per-minute', values['per-minute'] as string | undefined)
  const perDay = positiveInteger('--per-day', values['per-day'] as string | undefined)
  const perKey = perKeyPlanValues.includes(plan as Plan)
  if (perKey && (perMinute === undefined || perDay === undefined)) {
    throw new UsageError(`--plan ${plan} needs both --per-minute and --per-day`)
  }
  if (!perKey && (perMinute !== undefined || perDay !== undefined)) {
    throw new UsageError(
      `--per-minute and --per-day are for --plan ${perKeyPlanValues.join('|')} only; ${plan} has fixed limits`,
    )
  }
  const name = values.name as string | undefined
  const nameProblem = name === undefined ? undefined : keyNameProblem(name)
  if (nameProblem !== undefined) throw new UsageError(`--name ${nameProblem}`)
  return { name: 'keys create', plan: plan as Plan, keyName: name, perMinute, perDay }
}

function keysList(args: readonly string[]): Command {
  const { values } = parse(args, { json: { type: 'boolean' } })
  return { name: 'keys list', json: values.json === true }
}

function keysRevoke(args: readonly string[]): Command {
  const { positionals } = parse(args, {}, 1)
  const id = positionals[0]
  if (id === undefined) throw new UsageError('keys revoke needs the id of a key (see keys list)')
  return { name: 'keys revoke', id }
}

/**
 * Flags become the variables they stand for, so the config validates both the same way (a
 * worker count, with the store and Redis it needs, too). The port is checked here as well: a
 * bad one is a usage error, exit 2, like every other bad argument.
 */
function serve(args: readonly string[]): Command {
  const { values } = parse(
    args,
    Object.fromEntries(Object.keys(serveFlags).map((flag) => [flag, { type: 'string' }])),
  )
  const env: ServeEnv = {}
  for (const [flag, row] of Object.entries(serveFlags)) {
    const value = values[flag] as string | undefined
    if (value !== undefined) env[row.variable] = value
  }
  const port = values.port as string | undefined
  if (port !== undefined) {
    try {
      serveFlags.port.parser.parse(port, '--port')
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message)
      throw error
    }
  }
  return { name: 'serve', env }
}

function seed(args: readonly string[]): Command {
  const { values } = parse(args, { pets: { type: 'string' } })
  const pets = positiveInteger('--pets', values.pets as string | undefined, 100_000)
  if (pets === undefined) throw new UsageError('seed needs --pets N')
  return { name: 'seed', pets }
}

function positiveInteger(
  flag: string,
  raw: string | undefined,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (raw === undefined) return undefined
  const value = /^[1-9][0-9]*$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(value) || value > max) {
    throw new UsageError(`${flag} must be an integer from 1 to ${max}, got "${raw}"`)
  }
  return value
}
