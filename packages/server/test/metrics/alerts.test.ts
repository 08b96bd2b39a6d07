/**
 * The alert rules the README gives operators (prometheus/alerts.yml): valid for Prometheus, and
 * each fires on the series it is written for and not on healthy ones (alerts.test.yml).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commandInstalled } from '../services.js'
import { promtool, promtoolBin } from './prometheus.js'

const rulesDir = join(import.meta.dirname, '..', '..', 'prometheus')

describe.runIf(commandInstalled(promtoolBin, 'test/metrics/alerts.test.ts'))('alerts.yml', () => {
  it('passes promtool check rules', async () => {
    const { code, output } = await promtool(['check', 'rules', join(rulesDir, 'alerts.yml')])
    expect(output).toContain('SUCCESS: 3 rules found')
    expect(code).toBe(0)
  })

  it('fires each alert on its unit test series (promtool test rules)', async () => {
    const { code, output } = await promtool(['test', 'rules', join(rulesDir, 'alerts.test.yml')])
    expect(output).toContain('SUCCESS')
    expect(code).toBe(0)
  })
})
