/**
 * Debian's `prometheus`, started by a test on a free loopback port with its own config and data
 * directory, scraping the service's metrics listener every second; read through its HTTP query
 * API, as a dashboard reads it. `promtool` checks expositions and rule files.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { freePort } from '@petstore/scripts/free-port'

export const prometheusBin = '/usr/bin/prometheus'
export const promtoolBin = '/usr/bin/promtool'

export interface Sample {
  metric: Record<string, string>
  value: number
}

export interface RunningPrometheus {
  url: string
  /** The instant vector `promql` evaluates to now. */
  query(promql: string): Promise<Sample[]>
  /**
   * Polls `query(promql)` until `done` accepts it (a scrape every second, so a new count shows
   * within about two) or `timeoutMs` passes; returns the last answer either way.
   */
  settle(
    promql: string,
    done: (samples: Sample[]) => boolean,
    timeoutMs?: number,
  ): Promise<Sample[]>
  stop(): Promise<void>
}

/** Starts Prometheus scraping `metricsUrl` (`http://host:port/metrics`) as job `petstore`. */
export async function startPrometheus(metricsUrl: string): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-prometheus-'))
  const port = await freePort()
  const target = new URL(metricsUrl)
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: petstore',
      `    metrics_path: ${target.pathname}`,
      '    static_configs:',
      `      - targets: ['${target.host}']`,
      '',
    ].join('\n'),
  )
  const child: ChildProcess = spawn(
    prometheusBin,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) break
    if (i === 100 || child.exitCode !== null) {
      await stop()
      throw new Error(`prometheus did not start: ${stderr}`)
    }
    await sleep(100)
  }
  const query = async (promql: string): Promise<Sample[]> => {
    const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`)
    const body = (await response.json()) as {
      status: string
      error?: string
      data: { result: { metric: Record<string, string>; value: [number, string] }[] }
    }
    if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`)
    return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }))
  }
  return {
    url,
    query,
    async settle(promql, done, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      let samples = await query(promql)
      while (!done(samples) && Date.now() < deadline) {
        await sleep(250)
        samples = await query(promql)
      }
      return samples
    },
    stop,
  }
}

/** Runs promtool with `args`, `input` on stdin; resolves with its exit code and output. */
export function promtool(
  args: readonly string[],
  input = '',
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(promtoolBin, args, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
      resolve({ code, output: `${stdout}${stderr}` })
    })
    child.stdin?.end(input)
  })
}

/** `{label values...} -> value` of each sample, keyed by `labels` joined with spaces. */
export function byLabels(samples: readonly Sample[], labels: readonly string[]) {
  return Object.fromEntries(
    samples.map((sample) => [
      labels.map((name) => sample.metric[name] ?? '').join(' '),
      sample.value,
    ]),
  )
}
