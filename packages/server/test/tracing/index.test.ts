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
    [
      {
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
      },
      'http/protobuf',
    ],
    // Off: what it would say is not read.
    [{ OTEL_TRACES_SAMPLER: 'bogus', OTEL_EXPORTER_OTLP_ENDPOINT: '' }, undefined],
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
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL; got collector:4318',
    ],
    [
      { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector' },
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http:// or https:// URL; got grpc://collector',
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'ratio' },
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio; got ratio',
    ],
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '10%',
      },
      'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1; got 10%',
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
