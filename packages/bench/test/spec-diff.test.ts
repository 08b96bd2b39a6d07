import { describe, expect, it } from 'vitest'
import { renderSpecDiffReport } from '../src/spec-diff.js'

describe('the spec:diff bench report', () => {
  it('puts the time beside the spec size and the 2 s target', () => {
    const report = renderSpecDiffReport({
      operations: 1000,
      schemas: 2000,
      bytes: 2_951_017,
      lines: 135_507,
      changes: 3,
      runsMs: [1061, 719, 811],
      medianMs: 811,
    })
    expect(report).toContain(
      '| 1,000 operations, 2,000 schemas | 3.0 MB, 135,507 lines | 3 | 1061, 719, 811 | 811 ms | 41% |',
    )
  })
})
