/**
 * A histogram whose observation is a few array writes: prom-client's `Histogram.observe`
 * validates and hashes its labels on every call, once per request and once per store call.
 * Here the caller holds the series of its label values (`series(...)`, looked up once) and
 * observes into it; the family is registered in a prom-client registry as a metric of the same
 * shape, so expositions and the workers' sum treat it as any histogram.
 */
import type { Registry } from 'prom-client'

export class Series {
  /** Observations per bucket, not cumulative; the last one is `+Inf`. */
  readonly counts: Float64Array
  sum = 0
  count = 0

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1)
  }

  /** Counts `value` (seconds) into its bucket. */
  observe(value: number): void {
    const { bounds } = this
    let bucket = 0
    while (bucket < bounds.length && value > (bounds[bucket] as number)) bucket++
    this.counts[bucket] = (this.counts[bucket] as number) + 1
    this.sum += value
    this.count++
  }
}

interface Sample {
  labels: Record<string, string | number>
  value: number
  metricName: string
}

export class HistogramFamily<L extends string> {
  private readonly all = new Map<string, Series>()

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly L[],
    readonly bounds: readonly number[],
  ) {}

  /** The series of `labels`, made on first use; hold it rather than asking per observation. */
  series(labels: Readonly<Record<L, string>>): Series {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000')
    let series = this.all.get(key)
    if (series === undefined) {
      series = new Series(labels, this.bounds)
      this.all.set(key, series)
    }
    return series
  }

  /** Adds the family to `registry`, read as a prom-client histogram (summed across workers). */
  registerIn(registry: Registry): void {
    registry.registerMetric({
      name: this.name,
      help: this.help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({
        name: this.name,
        help: this.help,
        type: 'histogram',
        aggregator: 'sum',
        values: this.samples(),
      }),
    } as never)
  }

  private samples(): Sample[] {
    const samples: Sample[] = []
    for (const series of this.all.values()) {
      if (series.count === 0) continue
      let cumulative = 0
      this.bounds.forEach((bound, index) => {
        cumulative += series.counts[index] as number
        samples.push({
          labels: { le: bound, ...series.labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        })
      })
      samples.push({
        labels: { le: '+Inf', ...series.labels },
        value: series.count,
        metricName: `${this.name}_bucket`,
      })
      samples.push({
        labels: { ...series.labels },
        value: series.sum,
        metricName: `${this.name}_sum`,
      })
      samples.push({
        labels: { ...series.labels },
        value: series.count,
        metricName: `${this.name}_count`,
      })
    }
    return samples
  }
}
