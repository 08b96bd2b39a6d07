import { Histogram, Registry } from 'prom-client'
import { expect, it } from 'vitest'
import { render } from '../../src/metrics/exposition.js'
import { HistogramFamily } from '../../src/metrics/histogram.js'
import { requestDurationBuckets } from '../../src/metrics/instruments.js'

const observations: [string, number][] = [
  ['/v1/pets', 0.004],
  ['/v1/pets', 0.005],
  ['/v1/pets', 0.3],
  ['/v1/pets/{petId}', 12],
  ['/v1/pets/{petId}', 0.01],
]

/** The same observations in the family and in prom-client's own Histogram. */
function registries(): { ours: Registry; theirs: Registry } {
  const ours = new Registry()
  const family = new HistogramFamily('d_seconds', 'help', ['route'], requestDurationBuckets)
  family.registerIn(ours)
  const theirs = new Registry()
  const histogram = new Histogram({
    name: 'd_seconds',
    help: 'help',
    labelNames: ['route'],
    buckets: requestDurationBuckets,
    registers: [theirs],
  })
  for (const [route, value] of observations) {
    family.series({ route }).observe(value)
    histogram.observe({ route }, value)
  }
  // A series never observed is not shown (prom-client shows none either).
  family.series({ route: '/unused' })
  return { ours, theirs }
}

it("renders exactly as prom-client's Histogram, in both formats, alone and summed", async () => {
  const { ours, theirs } = registries()
  for (const contentType of [Registry.PROMETHEUS_CONTENT_TYPE, Registry.OPENMETRICS_CONTENT_TYPE]) {
    const one = [await ours.getMetricsAsJSON()] as never
    const reference = [await theirs.getMetricsAsJSON()] as never
    expect(await render(one, contentType)).toBe(await render(reference, contentType))
    const two = [await ours.getMetricsAsJSON(), await ours.getMetricsAsJSON()] as never
    const referenceTwo = [await theirs.getMetricsAsJSON(), await theirs.getMetricsAsJSON()] as never
    expect(await render(two, contentType)).toBe(await render(referenceTwo, contentType))
  }
  expect(
    await render([(await ours.getMetricsAsJSON()) as never], Registry.PROMETHEUS_CONTENT_TYPE),
  ).toContain('d_seconds_bucket{le="+Inf",route="/v1/pets/{petId}"} 2')
})
