/**
 * The README's "Try it" section, as a newcomer runs it: the service started with `pnpm start`
 * (through pnpm and Turbo), then the snippets "in another terminal" pasted into a shell as they
 * are (only the port moved to a free one): a key from the operator CLI, a listing, and a pet
 * adopted through an order that ends delivered, its pet sold.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freePort } from '../src/free-port.js'
import { withoutServiceVariables } from '../src/service-env.js'
import { workspaceRoot } from '../src/workspace.js'

const readme = readFileSync(join(workspaceRoot, 'README.md'), 'utf8')
const tryIt = readme.slice(
  readme.indexOf('## Try it'),
  readme.indexOf('\n## ', readme.indexOf('## Try it') + 1),
)
/** The shell snippets after "in another terminal": every multi-line `sh` block of the section. */
const snippets = [
  ...tryIt.slice(tryIt.indexOf('in another terminal')).matchAll(/```sh\n([\s\S]*?)```/g),
].map((match) => match[1] as string)

const dir = mkdtempSync(join(tmpdir(), 'petstore-try-it-'))
let port: number
let server: ChildProcess
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  port = await freePort()
  env = {
    ...withoutServiceVariables(process.env),
    PORT: String(port),
    PETSTORE_DB: join(dir, 'petstore.db'),
  }
  // `--only` skips the builds `pnpm start` depends on: the test run has made them.
  server = spawn('pnpm', ['start', '--only'], {
    cwd: workspaceRoot,
    env,
    detached: true,
    stdio: 'ignore',
  })
  for (let i = 0; ; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) break
    if (i > 600) throw new Error('pnpm start did not serve within 60 s')
    await sleep(100)
  }
}, 90_000)

afterAll(async () => {
  if (server?.pid !== undefined) {
    const exited = new Promise((resolve) => server.once('exit', resolve))
    process.kill(-server.pid, 'SIGTERM')
    await exited
  }
  rmSync(dir, { recursive: true, force: true })
})

/** `script` run by bash from the repository root, as pasted; its stdout. */
function shell(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['-euo', 'pipefail', '-c', script],
      { cwd: workspaceRoot, env },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    )
  })
}

it('has the snippets a newcomer pastes: a key and a listing, then an adoption', () => {
  expect(snippets).toHaveLength(2)
})

it('works as pasted against pnpm start: the listing answers, the pet is adopted', async () => {
  const atPort = (snippet: string) => snippet.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`)
  const [key, adopt] = snippets.map(atPort) as [string, string]
  const listing = await shell(key)
  expect(listing).toMatch(/^HTTP\/1\.1 200 /)
  expect(listing).toMatch(/\r\nx-ratelimit-limit: 60\r\n/i)
  const answers = await shell(`${key} >/dev/null\n${adopt}`)
  const orders = [...answers.matchAll(/\{"id":\d+,"petId":(\d+),"status":"(\w+)"/g)]
  expect(orders.map((match) => match[2])).toEqual(['approved', 'delivered'])
  const petId = orders[0]?.[1]
  const sold = await fetch(`http://127.0.0.1:${port}/v1/pets?status=sold`, {
    headers: {
      authorization: `Bearer ${(await shell(key.split('\n')[0] + '\necho "$KEY"')).trim()}`,
    },
  })
  expect((await sold.json()) as { id: number }[]).toEqual([
    expect.objectContaining({ id: Number(petId) }),
  ])
}, 60_000)
