import type { Middleware } from 'openapi-fetch'

/**
 * Sends the API key as a bearer token on every request that has no `Authorization` yet.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1
 * @example
 * ```ts
 * import createClient from 'openapi-fetch'
 * import type { paths } from '@petstore/types'
 * import { auth } from '@petstore/client'
 *
 * const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000/v1' })
 * client.use(auth(process.env.PETSTORE_API_KEY ?? ''))
 * ```
 */
export function auth(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      if (!request.headers.has('Authorization')) {
        request.headers.set('Authorization', `Bearer ${apiKey}`)
      }
    },
  }
}
