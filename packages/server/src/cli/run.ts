/**
 * Runs one CLI command against the configured store. Output contract: `keys create` writes the
 * raw key alone on stdout (so `KEY=$(petstore keys create --plan free)` works) and everything
 * else on stderr; `keys list` writes its table or JSON on stdout. `serve` hands the process to
 * the service (`server.ts`), exactly as `pnpm start` runs it.
 */
import type { Pet, PetStatus } from '@petstore/types'
import { petStatusValues } from '@petstore/types'
import { issueApiKey, keyLimits } from '../auth/api-key.js'
import { openStore, StartError } from '../backends.js'
import { ConfigError, loadConfig } from '../config.js'
import type { Store } from '../store/store.js'
import { type Command, parseCommand, UsageError, usage } from './args.js'

export interface CliIo {
  env: Readonly<Record<string, string | undefined>>
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
}

/** Exit codes: 0 done, 1 failed (config, unknown key id), 2 bad arguments. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length === 0) {
    io.stderr.write(`${usage}\n`)
    return 2
  }
  let command: Command
  try {
    command = parseCommand(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr.write(`petstore: ${error.message}\n`)
    return 2
  }
  if (command.name === 'help') {
    io.stderr.write(`${usage}\n`)
    return 0
  }
  if (command.name === 'serve') {
    // Loaded here so that key commands do not load Fastify.
    const { serve } = await import('../server.js')
    await serve({ ...io.env, ...command.env })
    return 0
  }
  let store: Store
  try {
    store = await openStore(loadConfig(io.env))
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartError) {
      io.stderr.write(`petstore: ${error.message}\n`)
      return 1
    }
    throw error
  }
  try {
    return await execute(command, store, io)
  } finally {
    await store.close()
  }
}

async function execute(
  command: Exclude<Command, { name: 'help' | 'serve' }>,
  store: Store,
  io: CliIo,
): Promise<number> {
  switch (command.name) {
    case 'keys create': {
      const { rawKey, record } = await issueApiKey(store.keys, {
        plan: command.plan,
        name: command.keyName,
        perMinute: command.perMinute,
        perDay: command.perDay,
      })
      const { perMinute, perDay } = keyLimits(record)
      io.stderr.write(
        `created key ${record.id} (plan ${record.plan}: ${perMinute}/minute, ${perDay}/day); it is shown once, store it now\n`,
      )
      const unreachable = unreachableLimit(perMinute, perDay)
      if (unreachable !== undefined) io.stderr.write(`note: ${unreachable}\n`)
      io.stdout.write(`${rawKey}\n`)
      return 0
    }
    case 'keys list': {
      // The limits enforced now: a fixed plan's are the spec's, not stored with the key.
      const keys = (await store.keys.list()).map((key) => ({ ...key, ...keyLimits(key) }))
      if (command.json) {
        io.stdout.write(`${JSON.stringify(keys, null, 2)}\n`)
        return 0
      }
      const rows = keys.map((key) => [
        key.id,
        key.name === null ? '-' : printable(key.name),
        key.plan,
        String(key.perMinute),
        String(key.perDay),
        key.createdAt,
        key.revokedAt ?? '-',
      ])
      io.stdout.write(
        table(['ID', 'NAME', 'PLAN', 'PER MINUTE', 'PER DAY', 'CREATED', 'REVOKED'], rows),
      )
      if (keys.length === 0) io.stderr.write('no keys yet: petstore keys create --plan free\n')
      return 0
    }
    case 'keys revoke': {
      const revoked = await store.keys.revoke(command.id)
      if (revoked === undefined) {
        io.stderr.write(`petstore: no key with id ${command.id} (see keys list)\n`)
        return 1
      }
      io.stderr.write(`revoked key ${revoked.id} at ${revoked.revokedAt}\n`)
      return 0
    }
    case 'seed': {
      const created = await store.seed('pets', demoPets(command.pets))
      io.stderr.write(`created ${created} demo pets\n`)
      return 0
    }
  }
}

/**
 * Which of a key's two limits can never be reached because of the other, said plainly. The spec
 * lets an enterprise key have any numbers ("the day may be below the minute"), so such a key is
 * made as asked; the operator is told what it means.
 */
function unreachableLimit(perMinute: number, perDay: number): string | undefined {
  if (perDay < perMinute) {
    return `the day's ${perDay} is below the minute's ${perMinute}: no minute can use more than ${perDay}`
  }
  const minutesPerDay = 24 * 60
  if (perDay > perMinute * minutesPerDay) {
    return `the day's ${perDay} is above what ${perMinute} a minute allows in a day (${perMinute * minutesPerDay}): the day's limit is never reached`
  }
  return undefined
}

/**
 * A name as the table shows it: control characters escaped (`\u001b`), so that a name stored
 * before they were refused cannot forge rows or drive the terminal.
 */
function printable(text: string): string {
  return text.replace(
    /\p{Cc}/gu,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  )
}

const names = [
  'Rex',
  'Whiskers',
  'Bella',
  'Milo',
  'Luna',
  'Charlie',
  'Nala',
  'Rocky',
  'Coco',
  'Ziggy',
]

/** `count` demo pets, made as they are stored (Store.seed iterates them once). */
function* demoPets(count: number): Generator<Omit<Pet, 'id'>> {
  for (let index = 0; index < count; index++) {
    const name = `${names[index % names.length]} ${Math.floor(index / names.length) + 1}`
    const status = petStatusValues[index % petStatusValues.length] as PetStatus
    yield { name, categoryId: (index % 5) + 1, status }
  }
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  )
  const line = (cells: readonly string[]) =>
    `${cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()}\n`
  return [header, ...rows].map(line).join('')
}
