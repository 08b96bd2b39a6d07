/**
 * Per-request loggers that cost nothing until used. Fastify's default builds a pino child
 * logger for every request (its bindings serialized up front), which profiles put at about a
 * tenth of a list request; yet a request rarely logs, and its completion line is written on the
 * root logger with the request id (completion-log.ts). So each request gets this thin logger, and the child
 * logger carrying `requestId` is built the first time the request logs at an enabled level.
 */
import type { FastifyBaseLogger } from 'fastify'

type Bindings = Parameters<FastifyBaseLogger['child']>[0]
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type RootLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean }

/** Methods on the prototype, not per-instance closures: one small object per request. */
class RequestLogger {
  #child: FastifyBaseLogger | undefined
  readonly #parent: RootLogger
  readonly #bindings: Bindings
  readonly #options: ChildLoggerOptions

  constructor(parent: RootLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent
    this.#bindings = bindings
    this.#options = options
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
    this.#child ??= this.#parent.child(this.#bindings, this.#options)
    return this.#child
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !this.#parent.isLevelEnabled(level)) return
    const log = this.#logger()[level] as (...values: unknown[]) => void
    log.apply(this.#child, args)
  }
}

/** Fastify's `childLoggerFactory`. */
export function requestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(parent as RootLogger, bindings, options) as unknown as FastifyBaseLogger
}
