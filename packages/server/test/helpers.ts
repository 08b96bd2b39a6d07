/**
 * Shared test helpers: a real server on an ephemeral port with a real SQLite file, fetch
 * helpers, and `expectSpecResponse`, which checks a response's status, body and headers
 * against the bundled spec so that any drift between server and spec fails a test.
 */
import { request as httpRequest } from 'node:http'
import type { ApiError, NewPet, Pet, Plan } from '@petstore/types'
import type { ErrorObject } from 'ajv'
import { expect, type TestContext } from 'vitest'
import { runCli } from '../src/cli/run.js'
import type { Config } from '../src/config.js'
import { type RunningPetstore, startPetstore } from '../src/index.js'
import { createAjv } from '../src/spec/ajv.js'
import { componentSchema, type OperationSpec, specOperations } from '../src/spec/operations.js'

export interface TestServer extends RunningPetstore {
  /** `${url}/v1` */
  api: string
}

/**
 * Starts a server (temp SQLite file, port 0, silent logs) that fails an answer missing a header
 * the spec requires (`responseCheck`); close it in `afterAll`/`afterEach`.
 */
export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const running = await startPetstore({ responseCheck: 'fail', ...overrides })
  return Object.assign(running, { api: `${running.url}/v1` })
}

/** A server of the test's own, closed when the test ends (for tests that run concurrently). */
export async function serveForTest(
  test: TestContext,
  overrides: Partial<Config> = {},
): Promise<TestServer> {
  const server = await startTestServer(overrides)
  test.onTestFinished(() => server.close())
  return server
}

/** Requests left in the minute window of a reply's caller, from its `RateLimit` field. */
export function minuteLeft(reply: { headers: Headers }): number {
  return Number(/"minute";r=(\d+)/.exec(reply.headers.get('ratelimit') ?? '')?.[1])
}

/** A server and one key of `plan`, for the common case. */
export async function startWithKey(
  plan: Plan = 'enterprise',
  overrides: Partial<Config> = {},
): Promise<{ server: TestServer; key: string; auth: { authorization: string } }> {
  const server = await startTestServer(overrides)
  const key =
    plan === 'enterprise'
      ? await server.issueKey({ plan, perMinute: 1_000_000, perDay: 1_000_000 })
      : await server.issueKey({ plan })
  return { server, key, auth: { authorization: `Bearer ${key}` } }
}

/** Runs the CLI in process with only `env`, capturing its output. */
export async function runCliWith(args: string[], env: Record<string, string>) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  return { code, stdout, stderr }
}

export interface Reply {
  status: number
  headers: Headers
  text: string
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown
}

/** fetch, reading the whole body once. */
export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init)
  const text = await response.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, text, body }
}

/**
 * A valid NewPet (a pet named Rex) with `overrides`. Tests build createPet bodies here, typed by
 * the spec, so that renaming or retyping a property in the spec is a compile error in tests.
 */
export function newPet(overrides: Partial<NewPet> = {}): NewPet {
  return { name: 'Rex', categoryId: 1, ...overrides }
}

/** `newPet()` with `key` set to `value`, which its schema may refuse; the key is the spec's. */
export function petWith(key: keyof NewPet, value: unknown): Record<string, unknown> {
  return { ...newPet(), [key]: value }
}

/** `newPet()` without `key`. */
export function petWithout(key: keyof NewPet): Record<string, unknown> {
  const { [key]: _left, ...rest } = newPet()
  return rest
}

const slot = JSON.stringify('petJsonWith: the value goes here')

/**
 * The JSON text of `newPet()` with `key`'s value written as `literal`, raw JSON text (`1.0`,
 * `"a\u0000b"`, a deep array): for bodies that `JSON.stringify` cannot write.
 */
export function petJsonWith(key: keyof NewPet, literal: string): string {
  return JSON.stringify(petWith(key, JSON.parse(slot))).replace(slot, () => literal)
}

/** The body of a reply the spec declares as a Pet (check it with `expectSpecResponse`). */
export function petOf(reply: Reply): Pet {
  return reply.body as Pet
}

/** The body of a reply the spec declares as a page of pets. */
export function petsOf(reply: Reply): Pet[] {
  return reply.body as Pet[]
}

/** The body of a reply the spec declares as an Error. */
export function errorOf(reply: Reply): ApiError {
  return reply.body as ApiError
}

/** What a held create answered (heldCreate). */
export interface HeldAnswer {
  status: number
  connection: string | undefined
  body: string
}

/**
 * A createPet left in flight: its headers are sent and the server has asked for the body
 * (`Expect: 100-continue`, so any Idempotency-Key is claimed by then), so it counts as an
 * in-flight request until `finish` sends the body and resolves with the answer, or `abandon`
 * closes the connection without it (a client that went away).
 */
export async function heldCreate(
  baseUrl: string,
  headers: Readonly<Record<string, string>>,
  pet: NewPet,
): Promise<{ finish(): Promise<HeldAnswer>; abandon(): void }> {
  const body = JSON.stringify(pet)
  const url = new URL(`${baseUrl}/v1/pets`)
  const held = httpRequest({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  })
  const answer = new Promise<HeldAnswer>((resolve, reject) => {
    held.on('response', (response) => {
      let text = ''
      response.on('data', (chunk) => {
        text += chunk
      })
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          connection: response.headers.connection,
          body: text,
        }),
      )
    })
    held.on('error', reject)
  })
  await new Promise<void>((resolve) => held.once('continue', () => resolve()))
  return {
    finish() {
      held.end(body)
      return answer
    },
    abandon() {
      answer.catch(() => {})
      held.destroy()
    },
  }
}

/** POST a JSON body (a string is sent as is). */
export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

const ajv = createAjv()
const errorValidator = ajv.compile(componentSchema('Error'))
const bodyValidators = new Map<object, ReturnType<typeof ajv.compile>>()

/** Every header name any response of the spec declares, lower case. */
const governedHeaders = new Set(
  specOperations.flatMap((operation) =>
    Object.values(operation.responses).flatMap((response) =>
      Object.keys(response.headers).map((name) => name.toLowerCase()),
    ),
  ),
)

function validatorFor(schema: object) {
  let validate = bodyValidators.get(schema)
  if (validate === undefined) {
    validate = ajv.compile(schema)
    bodyValidators.set(schema, validate)
  }
  return validate
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath} ${error.message}`).join('; ')
}

/**
 * Asserts that `reply` is a response the spec declares for `operationId`: a declared status,
 * a body matching its schema, every required declared header present and valid, and no header
 * that the spec declares elsewhere but not here (e.g. `Deprecation` on a current operation).
 * Without an operation (unknown path, 405), the reply must be an Error body with X-Request-Id.
 */
export function expectSpecResponse(reply: Reply, operationId?: string): void {
  const where = `${operationId ?? 'no operation'} ${reply.status}`
  if (operationId === undefined) {
    expect(reply.headers.get('x-request-id'), `${where}: X-Request-Id`).toMatch(
      /^[A-Za-z0-9._:-]{1,128}$/,
    )
    if (reply.status >= 400) expectErrorBody(reply)
    return
  }
  const operation = specOperations.find((candidate) => candidate.operationId === operationId) as
    | OperationSpec
    | undefined
  expect(operation, `unknown operation ${operationId}`).toBeDefined()
  const response = operation?.responses[String(reply.status)]
  expect(response, `${where}: status not declared in the spec`).toBeDefined()
  if (response === undefined) return
  if (response.schema !== undefined && reply.text !== '') {
    expect(reply.headers.get('content-type'), `${where}: content type`).toMatch(
      /^application\/json/,
    )
    const validate = validatorFor(response.schema)
    expect(validate(reply.body), `${where}: body ${describe(validate.errors)}`).toBe(true)
  }
  if (reply.status >= 400) expectErrorBody(reply)
  const declared = new Map(
    Object.entries(response.headers).map(([name, spec]) => [name.toLowerCase(), spec]),
  )
  for (const [name, spec] of declared) {
    const value = reply.headers.get(name)
    if (value === null) {
      expect(spec.required, `${where}: required header ${name} missing`).toBe(false)
      continue
    }
    expect(headerMatches(value, spec.schema), `${where}: header ${name}: ${value}`).toBe(true)
  }
  for (const name of reply.headers.keys()) {
    if (governedHeaders.has(name) && !declared.has(name)) {
      expect.fail(`${where}: header ${name} is not declared for this response in the spec`)
    }
  }
}

/** A `Date` header within a minute of now (RFC 9110 §6.6.1: an origin server sends one). */
export function expectHttpDate(reply: { headers: Headers }): void {
  const date = reply.headers.get('date') ?? ''
  expect(date).toMatch(
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  )
  expect(Math.abs(Date.parse(date) - Date.now())).toBeLessThan(60_000)
}

/** An Error body whose `status` equals the HTTP status. */
export function expectErrorBody(reply: Reply, code?: string): void {
  expect(
    errorValidator(reply.body),
    `Error body: ${reply.text} ${describe(errorValidator.errors)}`,
  ).toBe(true)
  const body = reply.body as { code: string; status: number }
  expect(body.status).toBe(reply.status)
  if (code !== undefined) expect(body.code).toBe(code)
}

function headerMatches(value: string, schema: Record<string, unknown>): boolean {
  if (schema.type === 'integer') {
    if (!/^-?[0-9]+$/.test(value)) return false
    return validatorFor(schema)(Number(value)) === true
  }
  return validatorFor(schema)(value) === true
}
