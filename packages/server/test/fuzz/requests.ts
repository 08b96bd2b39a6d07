/**
 * Requests for one operation of the spec, valid or broken in one way, generated from what the
 * operation declares: its path, query and header parameters, its JSON body and its security.
 * A case says what it expects in coarse terms (accepted, or refused with which statuses); the
 * exact shape of every answer is left to `expectSpecResponse`.
 */
import fc from 'fast-check'
import {
  type OperationSpec,
  type ParameterSpec,
  requestBodySchema,
} from '../../src/spec/operations.js'
import { invalidTexts, refusesSomeText, validText, validTexts } from './parameter-texts.js'
import { invalidObject, validValue, wellFormedText } from './schema-arbitraries.js'

/** Who the request claims to be. */
export type Auth =
  | { kind: 'valid'; scheme: string }
  /** A valid key with a tiny quota: `429` once spent, then banned. */
  | { kind: 'limited' }
  | { kind: 'revoked' }
  | { kind: 'absent' }
  | { kind: 'unknown'; token: string }
  | { kind: 'malformed'; header: string }

export interface FuzzBody {
  bytes: string | Uint8Array
  /** Undefined sends no `Content-Type` at all. */
  contentType: string | undefined
}

export interface FuzzCase {
  operation: OperationSpec
  /** What was broken, e.g. `query limit: 0x10`; undefined for a valid request. */
  mutation: string | undefined
  /** For a broken request: the statuses that refuse it. */
  refusedWith: readonly number[]
  /** Path parameter values, already percent-encoded. */
  path: Record<string, string>
  /** Query pairs, already percent-encoded, in order (a name repeats for an array's items). */
  query: [string, string][]
  /** Follow the n-th `next` link the server issued for this operation, instead of `query`. */
  follow: number | undefined
  headers: Record<string, string>
  /** A header parameter sent invalid that the server replaces instead of refusing. */
  replaced: string | undefined
  auth: Auth
  body: FuzzBody | undefined
  /** Client address, told through `X-Forwarded-For` so per-IP limits are per case. */
  client: string
  /** How fast-check prints a counterexample. */
  [fc.toStringMethod]?(): string
}

export interface CaseContext {
  /** Query parameters the server issues in `next` links (opaque cursors): never forged when valid. */
  issued: ReadonlySet<string>
  /** Request header parameters that the server echoes in a response header of the same name. */
  echoed: ReadonlySet<string>
  /** The largest body the server reads (64 KiB). */
  maxBodyBytes: number
}

/**
 * Percent-encodes text; a lone surrogate has no UTF-8 form, so it is written as the bytes a
 * careless encoder (WTF-8) would send, which the server must refuse.
 */
export function percentEncode(text: string): string {
  if (wellFormedText(text)) return encodeURIComponent(text)
  return [...text]
    .map((char) => {
      const code = char.codePointAt(0) ?? 0
      if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(char)
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('')
    })
    .join('')
}

/**
 * fetch sends a header value as bytes: visible characters (Latin-1 included), inner spaces and
 * tabs, nothing else (RFC 9110 field-value); it would trim outer white space.
 */
function sendable(text: string): boolean {
  return /^([\x21-\x7e\x80-\xff]([\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/.test(text)
}

/** `.` and `..` are dot segments that the URL parser removes: no longer this operation. */
const pathSafe = (text: string) => text !== '' && !/^(\.|%2e){1,2}$/i.test(text)

const mixedCase = fc
  .array(fc.boolean(), { minLength: 6, maxLength: 6 })
  .map((upper) => [...'bearer'].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''))

const validAuth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 20, arbitrary: mixedCase.map((scheme): Auth => ({ kind: 'valid', scheme })) },
  { weight: 1, arbitrary: fc.constant<Auth>({ kind: 'limited' }) },
)

const badAuth: fc.Arbitrary<Auth> = fc.oneof(
  fc.constant<Auth>({ kind: 'absent' }),
  fc.constant<Auth>({ kind: 'revoked' }),
  fc
    .stringMatching(/^[A-Za-z0-9_-]{1,64}$/)
    .map((token): Auth => ({ kind: 'unknown', token: `psk_live_${token}` })),
  fc
    .oneof(
      fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Token abc', 'Bearer a b', '*'),
      fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }),
    )
    .filter(sendable)
    .map((header): Auth => ({ kind: 'malformed', header })),
)

interface Parts {
  path: Record<string, string>
  query: [string, string][]
  headers: Record<string, string>
  body: unknown
  contentType: string
}

function optional<T>(arbitrary: fc.Arbitrary<T>, required: boolean): fc.Arbitrary<T | undefined> {
  return required ? arbitrary : fc.option(arbitrary, { nil: undefined, freq: 2 })
}

/** A valid value for every parameter (optional ones sometimes left out) and a valid body. */
function validParts(operation: OperationSpec, context: CaseContext): fc.Arbitrary<Parts> {
  const parameters = operation.parameters.filter(
    (parameter) => !(parameter.in === 'query' && context.issued.has(parameter.name)),
  )
  const values = fc.tuple(
    ...parameters.map((parameter) =>
      optional(
        validTexts(parameter.schema).filter(
          // No item at all is an array left out, which a required one cannot be.
          (texts) =>
            (texts.length > 0 || !parameter.required) &&
            (parameter.in !== 'header' || texts.every(sendable)),
        ),
        parameter.required,
      ),
    ),
  )
  const schema = requestBodySchema(operation)
  const body = schema === undefined ? fc.constant(undefined) : validValue(schema)
  const contentType = fc.constantFrom(...declaredTypes(operation))
  return fc.tuple(values, body, contentType).map(([texts, bodyValue, type]) => {
    const parts: Parts = { path: {}, query: [], headers: {}, body: bodyValue, contentType: type }
    parameters.forEach((parameter, index) => {
      const given = texts[index]
      if (given !== undefined) place(parts, parameter, given)
    })
    return parts
  })
}

/** A parameter's texts where they go: one each in a path or a header, a query pair per text. */
function place(parts: Parts, parameter: ParameterSpec, texts: readonly string[]): void {
  for (const text of texts) {
    if (parameter.in === 'path') parts.path[parameter.name] = percentEncode(text)
    else if (parameter.in === 'query') parts.query.push([parameter.name, percentEncode(text)])
    else parts.headers[parameter.name] = text
  }
}

function withParameter(parts: Parts, parameter: ParameterSpec, texts: readonly string[]): Parts {
  const next: Parts = {
    ...parts,
    path: { ...parts.path },
    query: parts.query.filter(([name]) => name !== parameter.name),
    headers: { ...parts.headers },
  }
  place(next, parameter, texts)
  return next
}

interface Mutation {
  parts: Parts
  mutation: string
  refusedWith: readonly number[]
  rawBody?: FuzzBody
  replaced?: string
}

const badRequest = [400] as const

/** Each way the operation's declared inputs can be broken, one at a time. */
function mutations(operation: OperationSpec, context: CaseContext): fc.Arbitrary<Mutation>[] {
  const valid = validParts(operation, context)
  const ways: fc.Arbitrary<Mutation>[] = []
  for (const parameter of operation.parameters) {
    const where = `${parameter.in} ${parameter.name}`
    // A bare string parameter accepts every text: nothing to break it with.
    if (refusesSomeText(parameter.schema)) {
      const bad = invalidTexts(parameter.schema).filter((texts) =>
        texts.every((text) =>
          parameter.in === 'header' ? sendable(text) : parameter.in !== 'path' || pathSafe(text),
        ),
      )
      const replaced = parameter.in === 'header' && context.echoed.has(parameter.name)
      ways.push(
        fc.tuple(valid, bad).map(([parts, texts]) => ({
          parts: withParameter(parts, parameter, texts),
          mutation: `${where}: ${JSON.stringify(texts.length === 1 ? texts[0] : texts)}`,
          refusedWith: replaced ? [] : badRequest,
          ...(replaced ? { replaced: parameter.name } : {}),
        })),
      )
    }
    // An array's items are the parameter repeated: given twice is two items, not a fault.
    if (parameter.in === 'query' && parameter.schema.type !== 'array') {
      const forged = context.issued.has(parameter.name)
      ways.push(
        fc
          .tuple(valid, validText(parameter.schema), validText(parameter.schema))
          .map(([parts, first, second]) => {
            const next = withParameter(parts, parameter, [first])
            if (!forged) next.query.push([parameter.name, percentEncode(second)])
            return {
              parts: next,
              mutation: forged ? `${where} forged` : `${where} given twice`,
              refusedWith: badRequest,
            }
          }),
      )
    }
    if (parameter.in === 'query') {
      ways.push(
        fc
          .tuple(valid, fc.constantFrom('%', '%zz', '%C0%AE', '%FF', '%ED%A0%80'))
          .map(([parts, raw]) => ({
            parts: { ...parts, query: [...parts.query, [parameter.name, raw]] },
            mutation: `${where} badly percent-encoded: ${raw}`,
            refusedWith: badRequest,
          })),
      )
    }
    if (parameter.required && parameter.in !== 'path') {
      ways.push(
        valid.map((parts) => {
          const next = withParameter(parts, parameter, [])
          next.query = next.query.filter(([name]) => name !== parameter.name)
          delete next.headers[parameter.name]
          return { parts: next, mutation: `${where} missing`, refusedWith: badRequest }
        }),
      )
    }
  }
  const schema = requestBodySchema(operation)
  if (schema !== undefined) {
    ways.push(
      ...bodyMutations(valid, schema, Object.keys(operation.requestBody?.content ?? {}), context),
    )
  }
  return ways
}

/** The media types an operation's body is sent with: each it declares, in any spelling allowed. */
function declaredTypes(operation: OperationSpec): string[] {
  return Object.keys(operation.requestBody?.content ?? { 'application/json': {} }).flatMap(
    (type) => [type, `${type}; charset=utf-8`, type.replace(/^application/, 'Application')],
  )
}

const encoder = new TextEncoder()

function bodyMutations(
  valid: fc.Arbitrary<Parts>,
  schema: OperationSpec['parameters'][number]['schema'],
  declared: readonly string[],
  context: CaseContext,
): fc.Arbitrary<Mutation>[] {
  const raw = (parts: Parts, bytes: string | Uint8Array): FuzzBody => ({
    bytes,
    contentType: parts.contentType,
  })
  const text = (parts: Parts) => JSON.stringify(parts.body)
  return [
    fc.tuple(valid, invalidObject(schema)).map(([parts, broken]) => ({
      parts: { ...parts, body: broken.value },
      mutation: `${broken.how}: ${JSON.stringify(broken.value)}`,
      refusedWith: badRequest,
    })),
    fc
      .tuple(
        valid,
        fc.nat(),
        fc.constantFrom('', '{', '}', ',', '"', ':', '[', 'x', '\\', '\u0001'),
      )
      .map(([parts, at, piece]) => {
        const json = text(parts)
        const index = at % json.length
        return { parts, json: json.slice(0, index) + piece + json.slice(index + 1) }
      })
      .filter(({ json }) => !parses(json))
      .map(({ parts, json }) => ({
        parts,
        rawBody: raw(parts, json),
        mutation: `malformed JSON: ${json}`,
        refusedWith: badRequest,
      })),
    valid
      .filter((parts) => Object.keys(parts.body as object).length > 0)
      .map((parts) => {
        const json = text(parts)
        const [first] = json.slice(1).split(/,(?=")/)
        return {
          parts,
          rawBody: raw(parts, `{${first},${json.slice(1)}`),
          mutation: 'a key given twice',
          refusedWith: badRequest,
        }
      }),
    fc
      .tuple(valid, fc.constantFrom([0xff], [0xed, 0xa0, 0x80], [0xc0, 0xae], [0xe2, 0x82]))
      .map(([parts, bytes]) => {
        const json = encoder.encode(text(parts))
        const cut = json.indexOf(0x22, 2) + 1
        const broken = new Uint8Array([...json.slice(0, cut), ...bytes, ...json.slice(cut)])
        return {
          parts,
          rawBody: raw(parts, broken),
          mutation: 'not UTF-8',
          refusedWith: badRequest,
        }
      }),
    valid.map((parts) => ({
      parts,
      rawBody: raw(parts, ''),
      mutation: 'empty body',
      refusedWith: badRequest,
    })),
    valid.map((parts) => ({
      parts,
      rawBody: raw(parts, `{"pad":"${'x'.repeat(context.maxBodyBytes)}"}`),
      mutation: 'body too large',
      refusedWith: [413],
    })),
    fc
      .tuple(
        valid,
        fc.oneof(
          fc.constantFrom(
            undefined,
            'text/plain',
            'application/xml',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            `${declared[0]}; charset=latin1`,
            'application/jsonx',
            // A JSON type the operation does not declare: another operation's.
            ...['application/json', 'application/merge-patch+json'].filter(
              (type) => !declared.includes(type),
            ),
          ),
          fc.stringMatching(/^[a-z]{1,8}\/[a-z0-9.+-]{1,12}$/).filter((t) => !declared.includes(t)),
        ),
      )
      .map(([parts, contentType]) => ({
        parts,
        rawBody: { bytes: encoder.encode(text(parts)), contentType },
        mutation: `content type ${String(contentType)}`,
        refusedWith: [415],
      })),
  ]
}

function parses(json: string): boolean {
  try {
    JSON.parse(json)
    return true
  } catch {
    return false
  }
}

function toCase(
  operation: OperationSpec,
  parts: Parts,
  auth: Auth,
  client: string,
  extra: Partial<FuzzCase> = {},
): FuzzCase {
  const body =
    requestBodySchema(operation) === undefined
      ? undefined
      : { bytes: JSON.stringify(parts.body), contentType: parts.contentType }
  return {
    operation,
    mutation: undefined,
    refusedWith: [],
    path: parts.path,
    query: parts.query,
    follow: undefined,
    headers: parts.headers,
    replaced: undefined,
    auth,
    body,
    client,
    ...extra,
    [fc.toStringMethod]() {
      return describeCase(this)
    },
  }
}

/** One line for fast-check's counterexample: the operation, what was broken, what was sent. */
export function describeCase(fuzz: FuzzCase): string {
  const { operation, mutation, path, query, follow, headers, auth, body } = fuzz
  return JSON.stringify({
    operation: operation.operationId,
    mutation,
    path,
    query,
    follow,
    headers,
    auth,
    body: body === undefined ? undefined : { ...body, bytes: String(body.bytes).slice(0, 300) },
  })
}

/**
 * Requests for `operation`: valid ones (every declared parameter and the body from the schemas,
 * or a `next` link the server issued), and ones broken in exactly one way (a parameter or the
 * body, the content type, or the credentials).
 */
export function requestsFor(
  operation: OperationSpec,
  context: CaseContext,
): fc.Arbitrary<FuzzCase> {
  const client = fc.ipV4()
  const valid = fc
    .tuple(validParts(operation, context), validAuth, client)
    .map(([parts, auth, address]) => toCase(operation, parts, auth, address))
  const followed = fc
    .tuple(validParts(operation, context), validAuth, client, fc.nat())
    .map(([parts, auth, address, follow]) => toCase(operation, parts, auth, address, { follow }))
  const ways = mutations(operation, context)
  const broken = (way: fc.Arbitrary<Mutation>) =>
    fc.tuple(way, mutedAuth(), client).map(([change, auth, address]) =>
      toCase(operation, change.parts, auth, address, {
        mutation: change.mutation,
        refusedWith: change.refusedWith,
        replaced: change.replaced,
        ...(change.rawBody === undefined ? {} : { body: change.rawBody }),
      }),
    )
  const credentials = fc
    .tuple(validParts(operation, context), badAuth, client)
    .map(([parts, auth, address]) =>
      toCase(operation, parts, auth, address, {
        mutation: `credentials ${auth.kind}`,
        // security: [] needs no key, so credentials are not read at all.
        refusedWith: operation.public ? [] : [401],
      }),
    )
  const hasNext = operation.parameters.some((p) => p.in === 'query' && context.issued.has(p.name))
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    ...(hasNext ? [{ weight: 1, arbitrary: followed }] : []),
    // An operation whose only input is a bare string (X-Request-Id) cannot be broken.
    ...(ways.length === 0 ? [] : [{ weight: 4, arbitrary: broken(fc.oneof(...ways)) }]),
    { weight: 1, arbitrary: credentials },
  )
}

function mutedAuth(): fc.Arbitrary<Auth> {
  return mixedCase.map((scheme): Auth => ({ kind: 'valid', scheme }))
}
