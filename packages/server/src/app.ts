/**
 * Builds the service: a Fastify instance configured from `Config`, with its dependencies
 * (the store, the rate-limit hook) injected so tests can pass their own. Boot order: Fastify
 * options and parsers, then services, then routes. Nothing here listens (see server.ts) and
 * the store is closed by whoever opened it.
 */
import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { createCallerIdentifier } from './auth/authenticate.js'
import type { Config } from './config.js'
import { ApiProblem } from './errors.js'
import { createCorsPolicy } from './http/cors.js'
import { handleError } from './http/error-handler.js'
import { registerJsonBodyParser } from './http/json-body.js'
import { parseQueryString } from './http/querystring.js'
import { requestIdFor } from './http/request-id.js'
import { requestLogger } from './http/request-logger.js'
import { createIdempotency } from './idempotency/idempotency.js'
import { createRateLimitHook, type RateLimitHook } from './rate-limit/hook.js'
import type { RateLimiter } from './rate-limit/limiter.js'
import { createMemoryRateLimiter } from './rate-limit/memory.js'
import { registerDocsRoutes } from './routes/docs.js'
import { registerHealthRoutes } from './routes/health.js'
import { createCursorCodec } from './routes/pets/cursor.js'
import { createPetRoutes } from './routes/pets/handlers.js'
import { v1Scope } from './routes/v1.js'
import { createAjv } from './spec/ajv.js'
import { specDocument } from './spec/document.js'
import { readOperations, specBasePath, specOperations } from './spec/operations.js'
import { createValidatorCompiler } from './spec/request-validation.js'
import type { Store } from './store/store.js'

export interface AppDeps {
  store: Store
  /**
   * Where rate-limit counts live (default: a new memory limiter, closed with the app); whoever
   * passes one closes it.
   */
  limiter?: RateLimiter
  /** Replaces the rate-limit hook built from config (tests). */
  rateLimitHook?: RateLimitHook
  /** Where JSON logs go (default stdout). */
  logStream?: { write(line: string): void }
  /** Clock for idempotency expiry (tests). */
  now?: () => number
  /** The OpenAPI document to serve (default: the bundled spec); tests pass edited copies. */
  document?: Readonly<Record<string, unknown>>
}

/** 64 KiB, SERVICE.md: larger bodies are 413. */
export const bodyLimit = 64 * 1024

const docsPath = '/docs'
const purgeEveryMs = 10 * 60 * 1000

/**
 * @example
 * ```ts
 * const app = await buildApp(loadConfig(), { store: openSqliteStore(config.dbPath) })
 * await app.listen({ host: config.host, port: config.port })
 * ```
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers["idempotency-key"]',
                'headers.authorization',
              ],
              censor: '[redacted]',
            },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
          },
    bodyLimit,
    genReqId: requestIdFor,
    ...(config.logLevel === 'silent' ? {} : { childLoggerFactory: requestLogger }),
    requestIdHeader: false,
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: true,
    }),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { querystringParser: parseQueryString },
  })
  app.decorateRequest('caller', null as never)
  app.decorateRequest('idempotency', null)
  registerJsonBodyParser(app)
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(async (request) => {
    throw new ApiProblem('not_found', `no such path: ${request.url.split('?', 1)[0]}`)
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  // While shutting down, answer in-flight requests with `Connection: close` so that keep-alive
  // clients do not hold the server open after their response (server.close waits for them).
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
  app.addHook('onResponse', async (request, reply) => {
    // On the root logger: a request that logs nothing else never builds its child logger.
    app.log.info(
      {
        requestId: request.id,
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request completed',
    )
  })

  const { store } = deps
  const secret =
    config.cursorSecret ??
    (await store.setting('cursor-secret', () => randomBytes(32).toString('base64url')))
  const document = deps.document ?? specDocument
  const operations = deps.document === undefined ? specOperations : readOperations(document)
  const basePath = specBasePath(document)
  const links = { docsPath, basePath }
  const petRoutes = createPetRoutes({
    store,
    cursors: createCursorCodec(secret),
    idempotency: createIdempotency({ store: store.idempotency, now: deps.now }),
    basePath,
  })

  // Expired idempotency records are already ignored; this only keeps the table small.
  const purge = setInterval(() => {
    store.idempotency.purgeExpired(Date.now()).catch((error: unknown) => {
      app.log.warn({ err: error }, 'purging expired idempotency records failed')
    })
  }, purgeEveryMs)
  purge.unref()
  app.addHook('onClose', async () => clearInterval(purge))

  registerHealthRoutes(app, store, deps.limiter)
  registerDocsRoutes(app, config.docsDir)
  await app.register(
    async (scope) => {
      scope.setValidatorCompiler(createValidatorCompiler(createAjv({ useDefaults: true })))
      await v1Scope(scope, {
        operations,
        routes: petRoutes,
        links,
        cors: createCorsPolicy(config.corsOrigins),
        identifyCaller: createCallerIdentifier(store.keys),
        rateLimit: deps.rateLimitHook ?? rateLimitFromConfig(app, config, deps.limiter),
        specJson: JSON.stringify(document),
      })
    },
    { prefix: basePath },
  )
  return app
}

/** The given limiter, or a memory one closed with the app, with the configured ban. */
function rateLimitFromConfig(
  app: FastifyInstance,
  config: Config,
  given: RateLimiter | undefined,
): RateLimitHook {
  let limiter = given
  if (limiter === undefined) {
    const memory = createMemoryRateLimiter()
    app.addHook('onClose', async () => memory.close())
    limiter = memory
  }
  return createRateLimitHook({
    limiter,
    windows: config.rateLimitWindows,
    banThreshold: config.banThreshold,
    banSeconds: config.banSeconds,
  })
}
