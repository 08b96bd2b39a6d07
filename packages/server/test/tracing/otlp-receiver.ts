/**
 * An OTLP/HTTP trace receiver of the test's own: a `node:http` server on a free loopback port
 * answering `POST /v1/traces`, decoding what arrives, protobuf (`application/x-protobuf`, read
 * by the small wire-format decoder below, field numbers from opentelemetry-proto's trace.proto)
 * or JSON (`application/json`), into the same flat list of spans.
 * @see https://opentelemetry.io/docs/specs/otlp/#otlphttp
 * @see https://github.com/open-telemetry/opentelemetry-proto/blob/main/opentelemetry/proto/trace/v1/trace.proto
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type AttributeValue = string | number | boolean

export interface ReceivedSpan {
  /** Hex, as W3C trace-context writes ids. */
  traceId: string
  spanId: string
  /** Empty for a root span. */
  parentSpanId: string
  name: string
  /** OTLP's SpanKind: 2 is SERVER, 3 CLIENT. */
  kind: number
  attributes: Record<string, AttributeValue>
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  statusCode: number
  /** The resource's attributes (`service.name`, ...). */
  resource: Record<string, AttributeValue>
  /** How it arrived. */
  contentType: string
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT`, for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string
  spans: ReceivedSpan[]
  /** Every request it received: method, path and content type. */
  requests: string[]
  /** The headers of each of `requests`, in the same order. */
  requestHeaders: IncomingHttpHeaders[]
  /** Resolves with the spans of `traceId` once `count` of them arrived. */
  waitForTrace(traceId: string, count: number, timeoutMs?: number): Promise<ReceivedSpan[]>
  close(): Promise<void>
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = []
  const requests: string[] = []
  const requestHeaders: IncomingHttpHeaders[] = []
  const waiters = new Set<() => void>()
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? ''
      requests.push(`${request.method} ${request.url} ${contentType}`)
      requestHeaders.push(request.headers)
      const body = Buffer.concat(chunks)
      try {
        spans.push(...decodeExport(body, contentType))
      } catch (error) {
        response.writeHead(400).end(String(error))
        return
      }
      // An empty ExportTraceServiceResponse: full success.
      if (contentType.startsWith('application/json')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      } else {
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
      }
      for (const wake of waiters) wake()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    requestHeaders,
    waitForTrace(traceId, count, timeoutMs = 10_000) {
      const found = () => spans.filter((span) => span.traceId === traceId)
      return new Promise((resolve, reject) => {
        const check = () => {
          if (found().length < count) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found())
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`${found().length} of ${count} spans of trace ${traceId} arrived`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function decodeExport(body: Buffer, contentType: string): ReceivedSpan[] {
  if (contentType.startsWith('application/json')) return fromJson(JSON.parse(body.toString()))
  if (contentType.startsWith('application/x-protobuf')) return fromProtobuf(body)
  throw new Error(`unexpected content type ${contentType}`)
}

// --- protobuf: the wire format, then OTLP's messages ---------------------------------------

/** One field of a message: its number and its raw value (varint, fixed or bytes). */
interface Field {
  number: number
  varint?: bigint
  bytes?: Buffer
  fixed64?: Buffer
}

function readVarint(buffer: Buffer, at: { offset: number }): bigint {
  let result = 0n
  let shift = 0n
  for (;;) {
    const byte = buffer[at.offset++]
    if (byte === undefined) throw new Error('truncated varint')
    result |= BigInt(byte & 0x7f) << shift
    if ((byte & 0x80) === 0) return result
    shift += 7n
  }
}

/** The fields of a message, in order, repeated ones repeated. */
function fields(buffer: Buffer): Field[] {
  const out: Field[] = []
  const at = { offset: 0 }
  while (at.offset < buffer.length) {
    const key = Number(readVarint(buffer, at))
    const number = key >>> 3
    const wireType = key & 7
    if (wireType === 0) out.push({ number, varint: readVarint(buffer, at) })
    else if (wireType === 1) {
      out.push({ number, fixed64: buffer.subarray(at.offset, at.offset + 8) })
      at.offset += 8
    } else if (wireType === 2) {
      const length = Number(readVarint(buffer, at))
      out.push({ number, bytes: buffer.subarray(at.offset, at.offset + length) })
      at.offset += length
    } else if (wireType === 5) at.offset += 4
    else throw new Error(`unsupported wire type ${wireType}`)
  }
  return out
}

const all = (message: Buffer, number: number) =>
  fields(message).filter((field) => field.number === number)
const one = (message: Buffer, number: number) =>
  fields(message).find((field) => field.number === number)

/** AnyValue: 1 string, 2 bool, 3 int, 4 double. */
function anyValue(message: Buffer): AttributeValue {
  const field = fields(message)[0]
  if (field === undefined) return ''
  if (field.number === 1) return field.bytes?.toString('utf8') ?? ''
  if (field.number === 2) return field.varint === 1n
  if (field.number === 3) return Number(BigInt.asIntN(64, field.varint ?? 0n))
  if (field.number === 4) return field.fixed64?.readDoubleLE(0) ?? 0
  throw new Error(`unsupported AnyValue field ${field.number}`)
}

/** repeated KeyValue (1 key, 2 value) at field `number`. */
function keyValues(message: Buffer, number: number): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {}
  for (const { bytes } of all(message, number)) {
    if (bytes === undefined) continue
    const key = one(bytes, 1)?.bytes?.toString('utf8') ?? ''
    const value = one(bytes, 2)?.bytes
    out[key] = value === undefined ? '' : anyValue(value)
  }
  return out
}

/**
 * ExportTraceServiceRequest: 1 ResourceSpans (1 Resource {1 attributes}, 2 ScopeSpans
 * {2 Span}). Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes,
 * 15 Status {3 code}.
 */
function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = []
  for (const { bytes: resourceSpans } of all(body, 1)) {
    if (resourceSpans === undefined) continue
    const resourceMessage = one(resourceSpans, 1)?.bytes
    const resource = resourceMessage === undefined ? {} : keyValues(resourceMessage, 1)
    for (const { bytes: scopeSpans } of all(resourceSpans, 2)) {
      if (scopeSpans === undefined) continue
      for (const { bytes: span } of all(scopeSpans, 2)) {
        if (span === undefined) continue
        const hex = (number: number) => one(span, number)?.bytes?.toString('hex') ?? ''
        const status = one(span, 15)?.bytes
        out.push({
          traceId: hex(1),
          spanId: hex(2),
          parentSpanId: hex(4),
          name: one(span, 5)?.bytes?.toString('utf8') ?? '',
          kind: Number(one(span, 6)?.varint ?? 0n),
          attributes: keyValues(span, 9),
          statusCode: status === undefined ? 0 : Number(one(status, 3)?.varint ?? 0n),
          resource,
          contentType: 'application/x-protobuf',
        })
      }
    }
  }
  return out
}

// --- JSON: the same messages, ids as hex strings -------------------------------------------

interface JsonKeyValue {
  key: string
  value: {
    stringValue?: string
    boolValue?: boolean
    intValue?: string | number
    doubleValue?: number
  }
}

function jsonAttributes(list: readonly JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {}
  for (const { key, value } of list ?? []) {
    out[key] =
      value.stringValue ??
      value.boolValue ??
      (value.intValue === undefined ? undefined : Number(value.intValue)) ??
      value.doubleValue ??
      ''
  }
  return out
}

interface JsonExport {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] }
    scopeSpans?: {
      spans?: {
        traceId: string
        spanId: string
        parentSpanId?: string
        name: string
        kind: number
        attributes?: JsonKeyValue[]
        status?: { code?: number }
      }[]
    }[]
  }[]
}

function fromJson(body: JsonExport): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes)
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        attributes: jsonAttributes(span.attributes),
        statusCode: span.status?.code ?? 0,
        resource,
        contentType: 'application/json',
      })),
    )
  })
}
