/**
 * What observability costs the service: the same build paired against itself (paired.ts), the
 * head with one setting on and the base without it (metrics; tracing configured but unsampled),
 * on getPet and the cold walk at `limit=20`.
 * The figure is CPU per answered request, head / base; within 1.03 is no measurable cost (the
 * same build against itself reads 1.00 +- 0.05 in one run). Nothing scrapes during the rounds:
 * what is measured is what every request pays (a scrape every 15 s is a separate, fixed cost).
 */
import { measurePair, type PairedPlan, type PairedRow } from './paired.js'

export interface CostVariant {
  /** What is on in the head, e.g. `metrics on`. */
  name: string
  /** The variables that turn it on. */
  env: Readonly<Record<string, string>>
}

export const costVariants: readonly CostVariant[] = [
  { name: 'metrics on (PETSTORE_METRICS_PORT set)', env: { PETSTORE_METRICS_PORT: '0' } },
  {
    // Every request gets an unsampled span and its ids (in its log line); nothing is exported,
    // so the endpoint is a port nothing listens on (test/tracing/ checks that nothing leaves).
    name: 'tracing configured, unsampled (OTEL_TRACES_SAMPLER=always_off)',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_SAMPLER: 'always_off' },
  },
]

export interface CostRow extends PairedRow {
  variant: string
}

/** The most head / base may read for a variant to count as free. */
export const freeCostRatio = 1.03

export type CostPlan = Omit<PairedPlan, 'only'>

export async function measureObservabilityCost(
  serverDir: string,
  plan: CostPlan,
  log: (line: string) => void,
  variants: readonly CostVariant[] = costVariants,
): Promise<CostRow[]> {
  const rows: CostRow[] = []
  for (const variant of variants) {
    log(`cost of ${variant.name}: paired against the same build without it`)
    const pair = await measurePair(
      { base: serverDir, head: serverDir },
      { ...plan, only: ['getPet', 'walk'] },
      (line) => log(`${variant.name}: ${line}`),
      { head: variant.env },
    )
    for (const row of pair) rows.push({ ...row, variant: variant.name })
  }
  return rows
}
