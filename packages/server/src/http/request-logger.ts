/**
 * Per-request loggers that cost nothing until used. Fastify's default builds a pino child
 * logger for every request (its bindings serialized up front); yet a request rarely logs, and
 * its completion line is written on the root logger with the request id (completion-log.ts). So
 * each request gets this thin logger, and the child logger carrying `requestId` is built the
 * first time the request logs at an enabled level.
 *
 * Fastify asks the root logger's `child` for a request's logger, so that is where the thin one is
 * handed out. Its `childLoggerFactory` option would do the same, but Fastify checks each logger a
 * factory of the application's returns for seven methods, on every request (a filter and a
 * closure, more work than building this logger); it skips the check only for its own factory,
 * which calls `child`.
 */
import type { FastifyBaseLogger } from 'fastify'

type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type RootLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean }
type PinoChild = FastifyBaseLogger['child']

/** Methods on the prototype, not per-instance closures: one small object per request. */
class RequestLogger {
  #child: FastifyBaseLogger | undefined
  readonly #parent: RootLogger
  readonly #bindings: Bindings
  readonly #options: ChildLoggerOptions
  readonly #pinoChild: PinoChild

  constructor(
    parent: RootLogger,
    bindings: Bindings,
    options: ChildLoggerOptions,
    pinoChild: PinoChild,
  ) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
    this.#pinoChild = pinoChild
  }

  get level(): string {
    return (this.#child ?? this.#parent).level
  }

  set level(level: string) {
    this.#logger().level = level
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args)
  }
  error(...args: unknown[]): void {
    this.#write('error', args)
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args)
  }
  info(...args: unknown[]): void {
    this.#write('info', args)
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args)
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args)
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options)
  }

  #logger(): FastifyBaseLogger {
    this.#child ??= this.#pinoChild.call(this.#parent, this.#bindings, this.#options)
    return this.#child
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !this.#parent.isLevelEnabled(level)) return
    const log = this.#logger()[level] as (...values: unknown[]) => void
    log.apply(this.#child, args)
  }
}

/**
 * Makes `root.child`, and so every request's logger, a RequestLogger. pino's children inherit
 * `child` from their parent, so a child built when a request logs hands out thin ones too.
 */
export function lazyRequestLoggers(root: FastifyBaseLogger): void {
  const pinoChild: PinoChild = root.child
  root.child = function (this: RootLogger, bindings: Bindings, options?: ChildLoggerOptions) {
    return new RequestLogger(
      this,
      bindings,
      options ?? {},
      pinoChild,
    ) as unknown as FastifyBaseLogger
  }
}
