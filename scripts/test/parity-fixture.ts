/**
 * Expands a fragment of `fixtures/oasdiff-parity.yaml` into a whole OpenAPI 3.1 document: one
 * operation, `POST /pets/{petId}` (`updatePet`), whose parts the fragment gives.
 */
import type { Json } from '../src/spec-diff/load.js'

export interface Fragment {
  /** Another path template; its `{names}` become required string path parameters. */
  path?: string
  /** Parameters of the operation, after the path parameters. */
  parameters?: Json[]
  /** Parameters of the path item, which every operation of the path takes. */
  pathParameters?: Json[]
  /** The schema of a required `application/json` request body. */
  request?: Json
  /** The schema of the `200` response's `application/json` body. */
  response?: Json
  /** The `200` response's headers. */
  headers?: Json
  /** Merged over the operation last, e.g. `deprecated`, `requestBody`, `responses`. */
  operation?: Json
  /** Without the operation (and without the path when nothing else is on it). */
  absent?: boolean
  /** With a `GET` on the same path, so that removing the `POST` leaves the path. */
  alsoGet?: boolean
  /** The document's `components` (schemas for `$ref`s, security schemes). */
  components?: Json
  /** The document's `security` requirement. */
  security?: Json[]
  /** The document's OpenAPI 3.1 `webhooks`, by name. */
  webhooks?: Json
}

export interface ParityFixture {
  expect: string[]
  base: Fragment
  head: Fragment
  note?: string
}

export function parityDocument(fragment: Fragment): Json {
  const path = fragment.path ?? '/pets/{petId}'
  const pathParameters = [...path.matchAll(/\{([^}]*)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }))
  const ok: Json = { description: 'OK' }
  if (fragment.headers) ok.headers = fragment.headers
  if (fragment.response) ok.content = { 'application/json': { schema: fragment.response } }
  const operation: Json = {
    operationId: 'updatePet',
    parameters: [...pathParameters, ...(fragment.parameters ?? [])],
    ...(fragment.request && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: fragment.request } },
      },
    }),
    responses: { '200': ok },
    ...fragment.operation,
  }
  const item: Json = {
    ...(fragment.pathParameters && { parameters: fragment.pathParameters }),
    ...(fragment.alsoGet && {
      get: {
        operationId: 'getPet',
        parameters: pathParameters,
        responses: { '200': { description: 'OK' } },
      },
    }),
    ...(!fragment.absent && { post: operation }),
  }
  const hasOperation = fragment.alsoGet || !fragment.absent
  return {
    openapi: '3.1.0',
    info: { title: 'Parity', version: '1.0.0' },
    paths: hasOperation ? { [path]: item } : {},
    ...(fragment.components && { components: fragment.components }),
    ...(fragment.security && { security: fragment.security }),
    ...(fragment.webhooks && { webhooks: fragment.webhooks }),
  }
}
