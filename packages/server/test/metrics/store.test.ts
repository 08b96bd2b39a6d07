import { Registry } from 'prom-client'
import { expect, it } from 'vitest'
import { HistogramFamily } from '../../src/metrics/histogram.js'
import { storeDurationBuckets } from '../../src/metrics/instruments.js'
import { timeStore } from '../../src/metrics/store.js'
import { openSqliteStore } from '../../src/store/sqlite/index.js'

it('times each store call by part and method, at once or settled, passing results and failures through', async () => {
  const family = new HistogramFamily(
    'db_seconds',
    'help',
    ['db_system_name', 'db_operation_name', 'outcome'],
    storeDurationBuckets,
  )
  const registry = new Registry()
  family.registerIn(registry)
  const store = openSqliteStore(':memory:')
  const timed = timeStore(store, family, 'sqlite')
  try {
    const created = await timed.pets.create({ name: 'Rex', categoryId: 1, status: 'available' })
    // SQLite reads answer at once, and are timed as they answer.
    expect(timed.pets.get(created.id)).toEqual(created)
    expect(() => timed.pets.list({ limit: 0 })).toThrow('limit must be 1..100')
    await expect(timed.keys.revoke('key_missing')).resolves.toBeUndefined()
    // Answered at once from memory: not a store call, not timed, still answered.
    expect(timed.keys.cachedActive?.('0'.repeat(64))).toBeUndefined()
    const failing = { ...store, ping: () => Promise.reject(new Error('down')) }
    await expect(timeStore(failing, family, 'sqlite').ping()).rejects.toThrow('down')
    const counts = Object.fromEntries(
      ((await registry.getMetricsAsJSON())[0]?.values ?? [])
        .map((sample) => sample as typeof sample & { metricName?: string })
        .filter((sample) => sample.metricName === 'db_seconds_count')
        .map((sample) => [
          `${sample.labels.db_operation_name} ${sample.labels.outcome}`,
          sample.value,
        ]),
    )
    expect(counts).toEqual({
      'pets.create ok': 1,
      'pets.get ok': 1,
      'pets.list error': 1,
      'keys.revoke ok': 1,
      'ping error': 1,
    })
  } finally {
    await timed.close()
  }
})
