/**
 * A working container of the built image, run with `buildah run --isolation chroot`: no daemon,
 * the host's network (a server in it answers on 127.0.0.1) and the host's process table, as
 * buildah's chroot isolation gives them. Each command runs with the image's own user, working
 * directory and environment, plus what a test passes, and `/data` bound to a host directory.
 *
 * `buildah run` does not pass a SIGTERM on to its command (it kills the command), so a test stops
 * the service as a container runtime does: it signals the image's process itself, found among the
 * descendants of `buildah run` in /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { cleanEnv, mustRun, outcome, type RunResult, run } from '../release/processes.js'
import { repoRoot } from './base.js'

export interface RunOptions {
  env?: Record<string, string>
  /** host directory -> path in the container */
  volumes?: Record<string, string>
}

function runArgs(container: string, command: readonly string[], options: RunOptions): string[] {
  return [
    'run',
    '--isolation=chroot',
    ...Object.entries(options.volumes ?? {}).map(([host, path]) => `--volume=${host}:${path}`),
    ...Object.entries(options.env ?? {}).map(([name, value]) => `--env=${name}=${value}`),
    container,
    '--',
    ...command,
  ]
}

export interface Service {
  /** Everything it printed on stdout so far (the service's JSON log lines). */
  stdout(): string
  stderr(): string
  /** The exit code of `buildah run`, which is the command's. */
  exited: Promise<number>
  /** The host pid of the image's process (not `buildah run`'s). */
  pid(): number
  waitFor(text: string, timeoutMs?: number): Promise<void>
}

let created = 0

export class WorkingContainer {
  /** `buildah run` processes still running, stopped by `remove`. */
  private readonly running = new Set<ChildProcess>()

  private constructor(readonly name: string) {}

  /**
   * A container of `image` whose declared `volumes` the tests bind to host directories: they are
   * dropped from its configuration, as `buildah run` would otherwise mount a directory of its own
   * over any bind there (a runtime mounts the volume it is given).
   */
  static async create(image: string, volumes: readonly string[]): Promise<WorkingContainer> {
    const name = `petstore-image-test-${process.pid}-${Date.now()}-${++created}`
    await mustRun('buildah', ['from', '--pull-never', `--name=${name}`, image], { cwd: repoRoot })
    for (const volume of volumes) {
      await mustRun('buildah', ['config', `--volume=${volume}-`, name], { cwd: repoRoot })
    }
    return new WorkingContainer(name)
  }

  /** Runs `command` to its end in the container, or stops it after `timeoutMs`. */
  async exec(
    command: readonly string[],
    options: RunOptions & { timeoutMs?: number } = {},
  ): Promise<RunResult> {
    const child = spawn('buildah', runArgs(this.name, command, options), {
      cwd: repoRoot,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.running.add(child)
    // `buildah run` kills its command when it gets SIGTERM.
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs ?? 120_000)
    try {
      return await outcome(child)
    } finally {
      clearTimeout(timer)
      this.running.delete(child)
    }
  }

  /** Starts `command` (the image's own, for the service) and resolves once a stdout line says `ready`. */
  async start(command: readonly string[], ready: string, options: RunOptions): Promise<Service> {
    const child = spawn('buildah', runArgs(this.name, command, options), {
      cwd: repoRoot,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk
    })
    this.running.add(child)
    const exited = new Promise<number>((resolve) =>
      child.on('exit', (code, signal) => {
        this.running.delete(child)
        resolve(code ?? (signal ? 128 : 1))
      }),
    )
    const waitFor = async (text: string, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs
      let done = false
      void exited.then(() => {
        done = true
      })
      while (!out.includes(text)) {
        if (done) throw new Error(`exited before printing "${text}":\n${out}${err}`)
        if (Date.now() > deadline)
          throw new Error(`no "${text}" within ${timeoutMs} ms:\n${out}${err}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    await waitFor(ready)
    const pid = imageProcess(child, command)
    return { stdout: () => out, stderr: () => err, exited, pid: () => pid, waitFor }
  }

  /** What the container's processes changed in its own filesystem (outside bound volumes). */
  async changes(): Promise<string[]> {
    const { stdout } = await mustRun('podman', ['diff', this.name], { cwd: repoRoot })
    return stdout.split('\n').filter((line) => line.trim() !== '')
  }

  /** Stops whatever still runs in it (SIGTERM to `buildah run` kills its command), then removes it. */
  async remove(): Promise<void> {
    await Promise.all(
      [...this.running].map(
        (child) =>
          new Promise((resolve) => {
            child.once('close', resolve)
            child.kill('SIGTERM')
          }),
      ),
    )
    await run('buildah', ['rm', this.name], { cwd: repoRoot })
  }
}

/** The descendant of `buildah run` that runs `command`: its argv after the program is `command`'s. */
function imageProcess(child: ChildProcess, command: readonly string[]): number {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
    } catch {
      // It exited while we looked.
    }
  }
  const queue = [child.pid ?? -1]
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const argv = argvOf(pid)
    if (
      argv.length === command.length &&
      argv.slice(1).join('\0') === command.slice(1).join('\0')
    ) {
      if (argv[0]?.split('/').at(-1) === command[0]?.split('/').at(-1)) return pid
    }
    queue.push(...(children.get(pid) ?? []))
  }
  throw new Error(`no process running ${command.join(' ')} under buildah run (pid ${child.pid})`)
}

export function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1)
  } catch {
    return []
  }
}

/** The real, effective, saved and filesystem uids of a process, from /proc/<pid>/status. */
export function uidsOf(pid: number): number[] {
  const line = /^Uid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? ''
  return line.trim().split(/\s+/).map(Number)
}
