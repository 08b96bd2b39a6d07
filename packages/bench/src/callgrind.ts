/**
 * Node under valgrind's callgrind, counting the instructions a process executes, and where they
 * go. A count does not depend on how fast the machine is that minute; it is not time either (a
 * cache miss costs more than an add, and the kernel's side of a system call is not counted), so
 * it stands beside the CPU pairs (paired.ts), not in their place.
 *
 * The process starts with collection off; `countWindow` turns it on around one stretch of load
 * and writes that stretch's counts to a file of its own. Node runs with `--perf-basic-prof`, so
 * that the JIT's code, which callgrind knows only by address, is named by its JavaScript
 * function from the map file V8 writes (/tmp/perf-PID.map).
 * @see https://valgrind.org/docs/manual/cl-manual.html
 */
import { execFile } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Launcher } from './targets.js'

const run = promisify(execFile)

/**
 * A launcher (targets.ts) that runs Node under callgrind, writing counts and valgrind's own log
 * into `dir`. Under valgrind a start takes 20-50 times as long.
 */
export function callgrindLauncher(dir: string): Launcher {
  const execPath = join(dir, 'node-under-callgrind')
  const options = [
    '--tool=callgrind',
    '--instr-atstart=no',
    `--callgrind-out-file=${join(dir, 'callgrind.%p.out')}`,
    `--log-file=${join(dir, 'valgrind.%p.log')}`,
  ]
  // --perf-basic-prof also turns on V8's log, written to the working directory unless told.
  const node = [
    process.execPath,
    '--perf-basic-prof',
    '--no-logfile-per-isolate',
    `--logfile=${join(dir, 'v8.log')}`,
  ]
  const quoted = (args: string[]) => args.map((arg) => `'${arg}'`).join(' ')
  writeFileSync(execPath, `#!/bin/sh\nexec valgrind ${quoted(options)} ${quoted(node)} "$@"\n`)
  chmodSync(execPath, 0o755)
  return { execPath, startWithinMs: 300_000 }
}

/**
 * One process under the launcher above: `pid` and the `HOST` it was started with (valgrind
 * names its control pipe after the user and `HOST`, and callgrind_control finds it by the same).
 */
export interface Counted {
  pid: number
  host: string | undefined
  dir: string
}

/**
 * Counts the instructions of `work` alone: collection on, `work`, the counts dumped to a file of
 * their own, collection off. Resolves with that file.
 */
export async function countWindow(target: Counted, work: () => Promise<unknown>): Promise<string> {
  const env = { ...process.env, HOST: target.host }
  if (target.host === undefined) delete env.HOST
  const control = (...args: string[]) =>
    run('callgrind_control', [...args, String(target.pid)], { env })
  await control('--instr=on')
  await control('--zero')
  await work()
  const before = dumpNumbers(target)
  await control('--dump')
  await control('--instr=off')
  const dump = dumpNumbers(target).find((n) => !before.includes(n))
  if (dump === undefined) throw new Error(`callgrind wrote no dump for ${target.pid}`)
  return join(target.dir, `callgrind.${target.pid}.out.${dump}`)
}

function dumpNumbers(target: Counted): number[] {
  const numbers: number[] = []
  for (let n = 1; existsSync(join(target.dir, `callgrind.${target.pid}.out.${n}`)); n++) {
    numbers.push(n)
  }
  return numbers
}

/** Where code comes from, in the order a name is tested against them. */
export const origins = [
  'the service',
  'the ceiling',
  'npm packages (Fastify, its router, ajv, pino)',
  'code generated at run time (validators, serializers)',
  "Node's JavaScript",
  'regular expressions',
  'V8 property access (inline caches)',
  'V8 promises and microtasks',
  'V8 builtins, other',
  'garbage collection',
  'compilers',
  'V8 runtime, other',
  'SQLite',
  "Node's C++, libuv, llhttp",
  'OpenSSL',
  'libc',
  'other',
] as const
export type Origin = (typeof origins)[number]

/**
 * What JavaScript file names start with in place of the server package's directory and the
 * bench's, so that two builds of the server in different directories name a function alike.
 */
const serverRoot = '<server>'
const benchRoot = '<bench>'
const benchDir = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')

/** The origin of a function as `readWindow` names it. */
export function originOf(name: string): Origin {
  if (name.startsWith('JS:')) {
    if (name.includes(`${serverRoot}/`)) return 'the service'
    if (name.includes(`${benchRoot}/`)) return 'the ceiling'
    if (name.includes('/node_modules/')) return 'npm packages (Fastify, its router, ajv, pino)'
    if (name.includes(' node:')) return "Node's JavaScript"
    return 'code generated at run time (validators, serializers)'
  }
  if (name.startsWith('RegExp:')) return 'regular expressions'
  if (/^Builtins_\w*IC/.test(name)) return 'V8 property access (inline caches)'
  if (/^Builtins_\w*(Promise|Microtask|Await|AsyncFunction)/.test(name)) {
    return 'V8 promises and microtasks'
  }
  if (name.startsWith('Builtins_')) return 'V8 builtins, other'
  if (
    /Scaveng|heap::|Heap::|MarkCompact|Sweeper|Evacuat|Marking|GCTracer|RememberedSet/.test(name)
  ) {
    return 'garbage collection'
  }
  if (name.includes('better_sqlite3')) return 'SQLite'
  if (/sha256|sha512|aes|EVP_|OPENSSL|libcrypto/.test(name)) return 'OpenSSL'
  // Before the compilers: Node's HTTP parser is a `node::...::Parser`.
  if (/node::|uv_|llhttp/.test(name)) return "Node's C++, libuv, llhttp"
  if (/compiler::|maglev::|turboshaft::|interpreter::|Parser|Scanner|Assembler/.test(name)) {
    return 'compilers'
  }
  if (name.includes('v8::')) return 'V8 runtime, other'
  if (name.includes('libc.so')) return 'libc'
  return 'other'
}

/** One window's instructions: in all, and by function (self cost, JIT code named). */
export interface WindowCounts {
  total: number
  byFunction: Map<string, number>
}

/**
 * Reads a dump written by `countWindow`; `perfMap` is V8's map file of the same process, and
 * `serverDir` the server package it ran, if any.
 */
export async function readWindow(
  dumpFile: string,
  perfMap: string,
  serverDir?: string,
): Promise<WindowCounts> {
  const { stdout } = await run('callgrind_annotate', ['--threshold=100', dumpFile], {
    maxBuffer: 256 * 1024 * 1024,
  })
  const name = jitNames(readFileSync(perfMap, 'utf8'))
  const byFunction = new Map<string, number>()
  let total = 0
  for (const line of stdout.split('\n')) {
    const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line)
    if (match === null) continue
    const count = Number(match[1]?.replaceAll(',', ''))
    const where = match[2] as string
    if (where.startsWith('PROGRAM TOTALS')) {
      total = count
      continue
    }
    // `file:function [object]`; the JIT's code is `???:0x<address> [???]`.
    const fn = where.replace(/^[^:]*:/, '')
    const address = /^0x([0-9a-f]+)/.exec(fn)?.[1]
    let named = address === undefined ? fn : (name(Number.parseInt(address, 16)) ?? fn)
    if (named.startsWith('JS:')) named = rooted(named, serverDir)
    byFunction.set(named, (byFunction.get(named) ?? 0) + count)
  }
  return { total, byFunction }
}

/** `name` with the server's and the bench's directories written as their roots. */
function rooted(name: string, serverDir: string | undefined): string {
  let named = name.replace(`file://${benchDir}`, benchRoot).replace(benchDir, benchRoot)
  if (serverDir !== undefined) {
    const dir = serverDir.replace(/\/$/, '')
    named = named.replace(`file://${dir}`, serverRoot).replace(dir, serverRoot)
  }
  return named
}

/**
 * Looks an address up in a perf map (`start size name` per line, hexadecimal). Code freed by the
 * garbage collector leaves its line, and new code may take its place: of the lines that cover an
 * address, the last one written names what is there now.
 */
export function jitNames(map: string): (address: number) => string | undefined {
  const entries = map
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line, written) => {
      const [start = '', size = ''] = line.split(' ', 2)
      return {
        start: Number.parseInt(start, 16),
        end: Number.parseInt(start, 16) + Number.parseInt(size, 16),
        name: line.slice(start.length + size.length + 2),
        written,
      }
    })
    .sort((a, b) => a.start - b.start)
  const longest = entries.reduce((most, entry) => Math.max(most, entry.end - entry.start), 0)
  return (address) => {
    let low = 0
    let high = entries.length
    while (low < high) {
      const middle = (low + high) >> 1
      if ((entries[middle]?.start ?? 0) <= address) low = middle + 1
      else high = middle
    }
    let found: (typeof entries)[number] | undefined
    for (let i = low - 1; i >= 0; i--) {
      const entry = entries[i] as (typeof entries)[number]
      if (entry.start <= address - longest) break
      if (address < entry.end && (found === undefined || entry.written > found.written)) {
        found = entry
      }
    }
    return found?.name
  }
}

/** V8's map file of `pid`, which Node leaves behind (the caller removes it). */
export function perfMapOf(pid: number): string {
  return `/tmp/perf-${pid}.map`
}
