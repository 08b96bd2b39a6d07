/**
 * Where the server's log lines go (standard output): kept in memory and written in blocks of at
 * least `minBytes`, at most `maxDelayMs` late, and at exit. At info level every request writes
 * a line, so how a line is kept is on every request's path.
 *
 * pino's own destination (sonic-boom) appends each line to the last pending string and measures
 * that string's byte length again on every write, which flattens a growing string per request,
 * and its asynchronous writes wake libuv's thread pool. Here a line is pushed onto an
 * array, and a block is one synchronous `write(2)` of a few KiB every few dozen requests.
 *
 * A full pipe (`EAGAIN`, its reader is slow) keeps the block for the next write rather than
 * blocking the event loop, up to `maxPendingBytes`; past that, new lines are dropped (a block
 * that was partly written must end whole) and counted in a line once there is room again, so a
 * stalled log reader costs log lines, never requests.
 */
import { writeSync } from 'node:fs'

/** pino's number for `warn`, so that the line reads like the others. */
const warn = 40

export interface LogDestinationOptions {
  minBytes: number
  maxDelayMs: number
  maxPendingBytes: number
}

export interface LogDestination {
  write(line: string): void
  /** Writes what is pending now (after start-up lines, and at exit). */
  flush(): void
}

export function createLogDestination(fd: number, options: LogDestinationOptions): LogDestination {
  let lines: string[] = []
  let pendingLength = 0
  /** The unwritten end of a block the descriptor did not take whole. */
  let unwritten: Buffer | undefined
  let dropped = 0

  const flush = () => {
    if (lines.length === 0 && unwritten === undefined) return
    let block = Buffer.from(lines.join(''))
    if (unwritten !== undefined) block = Buffer.concat([unwritten, block])
    lines = []
    pendingLength = 0
    unwritten = undefined
    try {
      const written = writeSync(fd, block)
      if (written < block.length) unwritten = block.subarray(written)
    } catch (error) {
      // The reader is gone (EPIPE, a closed descriptor): the lines are lost, not the process.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return
      unwritten = block
    }
  }
  const timer = setInterval(flush, options.maxDelayMs)
  timer.unref()
  process.on('exit', flush)

  const push = (line: string) => {
    lines.push(line)
    pendingLength += line.length
  }
  return {
    write(line) {
      if (unwritten !== undefined && unwritten.length + pendingLength > options.maxPendingBytes) {
        dropped += line.length
        return
      }
      if (dropped > 0) {
        const msg = `log output stalled: ${dropped} bytes of log lines dropped`
        push(`${JSON.stringify({ level: warn, time: Date.now(), msg })}\n`)
        dropped = 0
      }
      push(line)
      // While the descriptor is full, only the timer tries again: a retry copies the backlog.
      if (pendingLength >= options.minBytes && unwritten === undefined) flush()
    },
    flush,
  }
}
