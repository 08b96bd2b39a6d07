/** Expired idempotency records are already ignored; purging them only keeps the table small. */
import type { FastifyInstance } from 'fastify'
import type { IdempotencyStore } from '../store/store.js'

const purgeEveryMs = 10 * 60 * 1000

/** Purges expired records every ten minutes until the app closes. */
export function schedulePurge(app: FastifyInstance, records: IdempotencyStore): void {
  const purge = setInterval(() => {
    records.purgeExpired(Date.now()).catch((error: unknown) => {
      app.log.warn({ err: error }, 'purging expired idempotency records failed')
    })
  }, purgeEveryMs)
  purge.unref()
  app.addHook('onClose', async () => clearInterval(purge))
}
