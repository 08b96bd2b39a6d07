/** What the try-it console knows of an operation: a projection of the spec made at build time. */
export interface TryItParameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  description?: string
  /** The spec's example, shown as a placeholder (and prefilled for path parameters). */
  example?: string
  /** Allowed values, when the schema is an enum. */
  enum?: string[]
}

export interface TryItOperation {
  operationId: string
  summary: string
  method: string
  /** Path template relative to the server URL, e.g. `/pets/{petId}`. */
  path: string
  deprecated: boolean
  /** The sunset date (`YYYY-MM-DD`) of a deprecated operation. */
  sunset?: string
  parameters: TryItParameter[]
  /**
   * The media type the request body is sent as, as the spec declares it (`application/json`,
   * `application/merge-patch+json`); absent when the operation takes no body.
   */
  bodyMediaType?: string
  /** Whether the body must be sent; an optional one left empty is not. */
  bodyRequired?: boolean
  /** The first request body example, pretty-printed JSON; absent without one. */
  body?: string
}

/** Values the reader entered, keyed by parameter name. */
export interface TryItValues {
  baseUrl: string
  apiKey: string
  parameters: Record<string, string>
  body?: string
}

/** Everything the console reads from the page: embedded as JSON by the build. */
export interface TryItData {
  /**
   * The server the built code samples name (`PETSTORE_DOCS_API_URL` or the spec's first), and
   * the console's default unless the service itself serves the page.
   */
  apiBaseUrl: string
  operations: TryItOperation[]
  servers: { url: string; description?: string }[]
}

/** The id of the `<script type="application/json">` element that carries the `TryItData`. */
export const tryItDataId = 'petstore-try-it-data'
