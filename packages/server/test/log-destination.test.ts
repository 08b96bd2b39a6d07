/**
 * The server's log destination: lines in blocks, in order, whole, and a stalled reader costs
 * lines, never the process.
 */
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createLogDestination } from '../src/log-destination.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'petstore-logdest-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const line = (n: number, pad = 0) => `${JSON.stringify({ n, pad: 'x'.repeat(pad) })}\n`
const options = { minBytes: 1024, maxDelayMs: 60_000, maxPendingBytes: 64 * 1024 }

it('keeps lines until a block is full, then writes them in order', () => {
  const path = join(dir, 'log')
  const fd = openSync(path, 'w')
  const log = createLogDestination(fd, options)
  log.write(line(1))
  log.write(line(2))
  expect(readFileSync(path, 'utf8')).toBe('')
  for (let n = 3; n <= 100; n++) log.write(line(n))
  const written = readFileSync(path, 'utf8')
  expect(written.length).toBeGreaterThanOrEqual(options.minBytes)
  log.flush()
  const all = readFileSync(path, 'utf8').trimEnd().split('\n')
  expect(all.map((text) => (JSON.parse(text) as { n: number }).n)).toEqual(
    Array.from({ length: 100 }, (_, index) => index + 1),
  )
  closeSync(fd)
})

it('drops lines while the reader stalls, never blocks, and writes whole lines once it reads', async () => {
  const out = join(dir, 'out')
  // A pipe whose reader (cat) is stopped: writes to it fail with EAGAIN once it is full.
  const reader = spawn('sh', ['-c', `exec cat > ${out}`], { stdio: ['pipe', 'ignore', 'inherit'] })
  const pipe = reader.stdin as unknown as { _handle: { fd: number } }
  reader.kill('SIGSTOP')
  const log = createLogDestination(pipe._handle.fd, options)
  const started = Date.now()
  for (let n = 1; n <= 2000; n++) log.write(line(n, 200))
  log.flush()
  expect(Date.now() - started).toBeLessThan(5000)
  reader.kill('SIGCONT')
  for (let tries = 0; tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    log.flush()
  }
  log.write(line(2001))
  log.flush()
  reader.stdin?.end()
  await new Promise((resolve) => reader.once('exit', resolve))
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n')
  const parsed = lines.map((text) => JSON.parse(text) as { n?: number; msg?: string })
  const numbers = parsed.flatMap((entry) => (entry.n === undefined ? [] : [entry.n]))
  expect(numbers.length).toBeLessThan(2000)
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
  expect(numbers.at(-1)).toBe(2001)
  expect(
    parsed.some((entry) =>
      /log output stalled: \d+ bytes of log lines dropped/.test(entry.msg ?? ''),
    ),
  ).toBe(true)
})
