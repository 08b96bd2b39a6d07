import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/config.js'
import { startTracing, tracingProtocol } from '../../src/tracing/index.js'

const endpoint = 'http://127.0.0.1:4318'

describe('tracingProtocol', () => {
  it.each([
    [{}, undefined],
    [{ OTEL_SERVICE_NAME: 'petstore', OTEL_TRACES_SAMPLER: 'always_on' }, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, 'http/protobuf'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces` }, 'http/protobuf'],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, 'http/protobuf'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'TRUE' }, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'false' }, 'http/protobuf'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'none' }, undefined],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      'http/json',
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      },
      'http/json',
    ],
  ])('%j -> %s', (env, protocol) => {
    expect(tracingProtocol(env)).toBe(protocol)
  })

  it.each([
    [
      { OTEL_TRACES_EXPORTER: 'zipkin' },
      'OTEL_TRACES_EXPORTER must be otlp or none (this server exports over OTLP/HTTP); got zipkin',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (this server exports over OTLP/HTTP); got grpc',
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http' },
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http/protobuf or http/json (this server exports over OTLP/HTTP); got http',
    ],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => tracingProtocol(env)).toThrow(new ConfigError(message))
  })
})

describe('startTracing', () => {
  it('is undefined when the environment does not configure traces', async () => {
    expect(await startTracing({ OTEL_SERVICE_NAME: 'petstore' })).toBeUndefined()
  })
})
