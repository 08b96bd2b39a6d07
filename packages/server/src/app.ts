/**
 * Builds the service: a Fastify instance configured from `Config`, with its dependencies
 * (the store, the rate-limit hook) injected so tests can pass their own. Boot order: Fastify
 * and its options, then services, then the request pipeline (http/), then routes. Nothing here
 * listens (see server.ts) and the store is closed by whoever opened it.
 */
import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { createCallerIdentifier, createKnownKeyCheck } from './auth/authenticate.js'
import { registerOutages } from './backend-failure.js'
import { createRateLimiter } from './backends.js'
import type { Config } from './config.js'
import { bodyLimit, maxParamLength } from './errors.js'
import {
  type ConnectionBudget,
  capConnectionsPerAddress,
  createConnectionBudget,
  trustedProxyPeers,
} from './http/connection-cap.js'
import { createCorsPolicy } from './http/cors.js'
import {
  createClientErrorHandler,
  createDeprecationLookup,
  createFrameworkErrorHandler,
  createHeldRequests,
  type EdgeOptions,
  refuseBeforeV1Hooks,
} from './http/edge.js'
import { registerLingering } from './http/linger.js'
import { answerOtherMethods } from './http/methods.js'
import { registerOperations } from './http/operations.js'
import { registerPipeline } from './http/pipeline.js'
import { answerInTurn } from './http/pipelining.js'
import { parseQueryString } from './http/querystring.js'
import { requestIdFor } from './http/request-id.js'
import { lazyRequestLoggers } from './http/request-logger.js'
import { v1Pipeline } from './http/v1.js'
import { createIdempotency } from './idempotency/idempotency.js'
import { schedulePurge } from './idempotency/purge.js'
import { lateBound } from './late-bound.js'
import { appMetrics } from './metrics/index.js'
import { createRateLimitHook, type RateLimitHook } from './rate-limit/hook.js'
import type { RateLimiter } from './rate-limit/limiter.js'
import { registerDocsRoutes } from './routes/docs.js'
import { registerHealthRoutes } from './routes/health.js'
import { resourceRoutes } from './routes/index.js'
import { createOpenApiRoute } from './routes/openapi.js'
import { specDocument } from './spec/document.js'
import { readOperations, specBasePath, specOperations } from './spec/operations.js'
import type { Store } from './store/store.js'
import { type Tracing, tracedLimiter, tracedStore } from './tracing/index.js'
import { docsPath } from './urls.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's open connections, shared by its listeners. */
    connections: ConnectionBudget
  }
}

export interface AppDeps {
  store: Store
  /**
   * Where rate-limit counts live (default: the configured one, see backends.ts, closed with the
   * app); whoever passes one closes it.
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
  /** Traces (tracing/index.ts `startTracing`); none when absent. Whoever passes it shuts it down. */
  tracing?: Tracing | undefined
}

/** The spec the app serves: the bundled one, or a test's edited copy. */
interface ServedSpec {
  document: Readonly<Record<string, unknown>>
  operations: typeof specOperations
  basePath: string
}

/**
 * Boot order, one named step each: Fastify and its options (with the edge handlers, which
 * answer what the router or Node's parser refuses), connection limits, services (outages, the
 * limiter and its hook, the route handlers' dependencies), then the request pipeline and the
 * routes.
 *
 * @example
 * ```ts
 * const app = await buildApp(config, { store: await openStore(config, { server: true }) })
 * await app.listen({ host: config.host, port: config.port })
 * ```
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const metrics = await appMetrics(config)
  // Store calls are timed (metrics/) and, with tracing on, spans (tracing/).
  const store = tracedStore(deps.tracing, metrics?.timeStore(deps.store) ?? deps.store, config)
  const spec = servedSpec(deps.document)
  const rateLimit = lateBound<RateLimitHook>('the rate-limit hook')
  const edge = {
    ...edgeOptions(config, store, spec, rateLimit.call),
    answered: metrics?.answeredBelow,
  }
  const held = createHeldRequests()
  const app = Fastify({
    ...fastifyOptions(config, deps.logStream),
    frameworkErrors: createFrameworkErrorHandler(edge),
    clientErrorHandler: createClientErrorHandler(edge, held),
  })
  if (logs(config)) lazyRequestLoggers(app.log)
  deps.tracing?.instrument(
    app,
    config.traceSamplingFrom === 'keys' ? createKnownKeyCheck(store.keys) : undefined,
  )
  limitConnections(app, config)
  registerOutages(app)
  registerLingering(app)
  const limiter = tracedLimiter(
    deps.tracing,
    deps.limiter ?? (await ownLimiter(app, config)),
    config,
  )
  const rateLimitHook = deps.rateLimitHook ?? createRateLimitHook(limiter, config)
  rateLimit.bind(metrics?.countRefusals(rateLimitHook) ?? rateLimitHook)
  metrics?.observe(app, { store, limiter })
  const handlers = await operationHandlers(app, config, { ...deps, store }, spec)

  registerPipeline(app, {
    held,
    refuseHead: (problem, request, reply) => refuseBeforeV1Hooks(edge, problem, request, reply),
  })
  registerHealthRoutes(app, store, limiter)
  registerDocsRoutes(app, config.docsDir, (request, reply) =>
    rateLimit.call(request, reply, { kind: 'ip', ip: request.ip }),
  )
  await registerV1(app, config, spec, edge, handlers)
  return app
}

function servedSpec(document: AppDeps['document']): ServedSpec {
  return document === undefined
    ? { document: specDocument, operations: specOperations, basePath: specBasePath(specDocument) }
    : { document, operations: readOperations(document), basePath: specBasePath(document) }
}

/** What the edge handlers need to answer a refusal as the /v1 pipeline would. */
function edgeOptions(
  config: Config,
  store: Store,
  spec: ServedSpec,
  rateLimit: RateLimitHook,
): EdgeOptions {
  return {
    cors: createCorsPolicy(config.corsOrigins, spec.document),
    identifyCaller: createCallerIdentifier(store.keys),
    rateLimit,
    basePath: spec.basePath,
    deprecationOf: createDeprecationLookup(spec.operations, {
      docsPath,
      basePath: spec.basePath,
    }),
    behindProxy: config.trustProxy !== false,
  }
}

/** Whether Fastify gets a logger at all: `silent` gives it none (its null logger). */
function logs(config: Config): boolean {
  return config.logLevel !== 'silent'
}

/** Fastify's options from the config: logging, limits, ids, timeouts, proxies, routing. */
function fastifyOptions(config: Config, logStream: AppDeps['logStream']) {
  return {
    logger: logs(config)
      ? {
          level: config.logLevel,
          redact: {
            paths: [
              'req.headers.authorization',
              'req.headers["idempotency-key"]',
              'headers.authorization',
            ],
            censor: '[redacted]',
          },
          ...(logStream ? { stream: logStream } : {}),
        }
      : false,
    bodyLimit,
    genReqId: requestIdFor,
    requestIdHeader: false as const,
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: true,
    }),
    // A request that arrives while the app closes (on a kept-alive connection) is answered as
    // any other, with `Connection: close` (http/shutdown.ts), not with Fastify's own 503 body.
    return503OnClosing: false,
    forceCloseConnections: 'idle' as const,
    ...connectionLimits(config),
    trustProxy: trustedProxies(config.trustProxy),
    routerOptions: { querystringParser: parseQueryString, maxParamLength },
  }
}

/**
 * Open connections at most, in all (a budget the metrics listener shares: metrics/index.ts)
 * and per client address (trusted proxies exempt), and one answer in flight on each.
 */
function limitConnections(app: FastifyInstance, config: Config): void {
  answerInTurn(app.server)
  const connections = createConnectionBudget(config.maxConnections)
  connections.admit(app.server)
  app.decorate('connections', connections)
  capConnectionsPerAddress(app.server, {
    max: config.maxConnectionsPerAddress,
    exempt: trustedProxyPeers(config.trustProxy),
  })
}

/**
 * The handler of every operation, with what they share: the store, the cursor secret (the
 * configured one, else the one kept in the store), idempotency (whose expired records are purged
 * on a schedule) and the API's base path.
 */
async function operationHandlers(
  app: FastifyInstance,
  config: Config,
  deps: AppDeps,
  spec: ServedSpec,
) {
  const { store } = deps
  app.decorateRequest('caller', null as never)
  app.decorateRequest('idempotency', null)
  schedulePurge(app, store.idempotency)
  return {
    ...resourceRoutes({
      store,
      cursorSecret:
        config.cursorSecret ??
        (await store.setting('cursor-secret', () => randomBytes(32).toString('base64url'))),
      idempotency: createIdempotency({ store: store.idempotency, now: deps.now }),
      basePath: spec.basePath,
    }),
    getOpenApiDocument: createOpenApiRoute(spec.document),
  }
}

/** The /v1 scope: its pipeline, the methods a path does not support, and the operations. */
async function registerV1(
  app: FastifyInstance,
  config: Config,
  spec: ServedSpec,
  edge: EdgeOptions,
  handlers: Parameters<typeof registerOperations>[2],
): Promise<void> {
  await app.register(
    async (scope) => {
      v1Pipeline(scope, edge)
      answerOtherMethods(scope, spec.operations, edge.cors, spec.basePath)
      registerOperations(
        scope,
        spec.operations,
        handlers,
        { docsPath, basePath: spec.basePath },
        config.responseCheck,
      )
    },
    { prefix: spec.basePath },
  )
}

/**
 * Time limits on a connection: a request (headers and body) must arrive within the request
 * timeout, or it is answered `408` through the clientError handler (http/edge.ts); Node looks
 * for late requests every `connectionsCheckingInterval`, so that is kept well below the timeout.
 */
function connectionLimits(config: Config) {
  const requestTimeout = config.requestTimeoutSeconds * 1000
  return {
    requestTimeout,
    keepAliveTimeout: config.keepAliveSeconds * 1000,
    http: {
      // Refused with the Error body by http/request-head-checks.ts, not Node's bare 400.
      requireHostHeader: false,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(1000, requestTimeout / 4),
    },
  }
}

/**
 * Fastify's `trustProxy`: off, the addresses/CIDRs of the proxies, or a hop count (the nearest
 * `n` addresses of the chain, the peer first, are proxies).
 */
function trustedProxies(
  trust: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust
  return trust === false ? false : [...trust]
}

/** The configured limiter, opened here and closed with the app. */
async function ownLimiter(app: FastifyInstance, config: Config): Promise<RateLimiter> {
  const limiter = await createRateLimiter(config, app.outages)
  app.addHook('onClose', async () => limiter.close())
  return limiter
}
