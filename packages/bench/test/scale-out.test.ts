import { describe, expect, it } from 'vitest'
import type { LoadResult } from '../src/load.js'
import { renderScaleOutReport, type ScaleOutFigure } from '../src/scale-out.js'

const figure = (requestsPerSecond: number, failures = 0): ScaleOutFigure => ({
  requestsPerSecond,
  p99: 10,
  failures,
})

describe('renderScaleOutReport', () => {
  it('gives each setup its ratio to the ceiling against the 0.8 target, and the soak verdict', () => {
    const load = { ok: 100, non2xx: 0, errors: 0, p99: 12 } as LoadResult
    const report = renderScaleOutReport({
      rounds: 3,
      seconds: 4,
      poolSize: 10,
      workloads: [
        {
          label: 'GET /v1/pets?limit=20',
          figures: {
            ceiling: figure(1000),
            'one instance': figure(790),
            'two instances': figure(1200, 2),
            'two workers': figure(1185),
          },
        },
      ],
      soak: { seconds: 60, rate: 500, load },
    })
    expect(report).toMatch(
      /\| GET \/v1\/pets\?limit=20 \| 1000 +\| 790 +\| 0\.79 not met \| 1200 +\| 1\.20 met +\| 1185 +\| 1\.19 met +\| 1\.50 +\| 10\.0 \/ 10\.0 \/ 10\.0 \/ 10\.0 +\| 2 +\|/,
    )
    expect(report).toContain('0 non-2xx, 0 errors, p99 12.0 ms: zero errors, met.')
  })
})
