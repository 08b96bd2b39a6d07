/** Renders a run as Markdown: the RESULTS.md file and what `pnpm bench` prints. */
import type { BenchResult } from './bench.js'
import { checkGoals, contractGoal, deepPageRatios, megabyte, ratio } from './goals.js'
import { freeCostRatio } from './observability-cost.js'

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const count = (value: number) => (Number.isFinite(value) ? integer.format(value) : 'n/a')
const fixed = (value: number, digits = 2) =>
  Number.isFinite(value) ? value.toFixed(digits) : 'n/a'
const mb = (bytes: number | undefined) =>
  bytes === undefined ? 'n/a' : `${(bytes / megabyte).toFixed(1)} MB`

/** A Markdown table with padded columns, as the workspace's formatter (Biome) writes them. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) =>
    Math.max(3, cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: readonly string[]) =>
    `| ${widths.map((width, column) => (cells[column] ?? '').padEnd(width)).join(' | ')} |`
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  )
}

export function renderReport(result: BenchResult): string {
  const { machine, plan } = result
  const rounds = plan.rounds
  const parts: string[] = []
  parts.push(`# Benchmarks

Written by \`pnpm bench${plan.mode === 'quick' ? ' --quick' : ''}\` on ${machine.date.slice(0, 16).replace('T', ' ')} UTC (${Math.round(result.durationSeconds)} s); each full run replaces this file. Compare ratios, not absolute numbers; what the measurements have taught is in [BENCHMARKS.md](./BENCHMARKS.md).

**Measured:** ${result.revision === undefined ? `the server in ${result.serverDir}` : `commit ${result.revision}`}.

**Machine:** ${machine.cpuModel}, ${machine.cores} cores, ${(machine.memory / 1024 ** 3).toFixed(1)} GiB, Node ${machine.node}, ${machine.kernel}; load average ${machine.loadAverage.toFixed(2)} at the start.

**Method:** the built service, started as its \`start\` script does (\`${result.serviceCommand}\`, \`LOG_LEVEL=info\`, logs to a file) on a fresh SQLite file, seeded before start, with an enterprise key whose limits never refuse. Its rivals, each in its own process: the **wire** ceiling (bare \`node:http\` replaying the service's own response bytes), the **data-path** ceiling (bare \`node:http\` doing the same SQLite read or durable write, WAL and \`synchronous = FULL\`, then \`JSON.stringify\`) and the **contract** ceiling (bare \`node:http\` and SQLite doing the contract's work the leanest way: key hash and lookup, two fixed windows, the service's headers, AES block cursors, hand-checked creates committed in groups, a JSON log line per request to a file). autocannon drives them from the bench process over loopback, ${rounds.connections} connections, in ${rounds.rounds} alternating round${rounds.rounds === 1 ? '' : 's'} of ${rounds.seconds} s${rounds.warmupSeconds > 0 ? ` after a ${rounds.warmupSeconds} s warm-up each` : ''}; each figure is the median over the rounds. Latency is the service's. A **cold walk** sends every page of a listing in turn over all connections (each page once per lap, so no cache of recent pages or cursors answers it); the data-path ceiling walks the same pages by id, the contract ceiling by its own cursors, the wire ceiling replays the first page.`)

  parts.push(`## Throughput and latency

${table(
  [
    'workload',
    'data',
    'service req/s',
    'data-path req/s',
    'wire req/s',
    'contract req/s',
    'service / data-path',
    'service / wire',
    'service / contract',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'peak RSS',
  ],
  result.workloads.map((entry) => {
    const service = entry.targets.service
    const ceilings = [entry.targets.wire, entry.targets['data-path'], entry.targets.contract]
    const ceilingFailures = ceilings.reduce(
      (total, ceiling) => total + (ceiling === undefined ? 0 : ceiling.non2xx + ceiling.errors),
      0,
    )
    return [
      entry.label,
      entry.data,
      count(service.requestsPerSecond),
      count(entry.targets['data-path'].requestsPerSecond),
      count(entry.targets.wire.requestsPerSecond),
      count(entry.targets.contract?.requestsPerSecond ?? Number.NaN),
      fixed(ratio(entry, 'data-path')),
      fixed(ratio(entry, 'wire')),
      fixed(ratio(entry, 'contract')),
      fixed(service.p50),
      fixed(service.p99),
      `${service.non2xx + service.errors}${ceilingFailures > 0 ? ` (ceilings: ${ceilingFailures})` : ''}`,
      mb(entry.servicePeakRss),
    ]
  }),
)}

non-2xx counts every non-2xx response and connection error of the service, warm-up included.`)

  const deep = deepPageRatios(result)
  const alone = result.deepLatency
  if (deep !== undefined || alone !== undefined) {
    const loaded =
      deep === undefined
        ? ''
        : ` Under load (${rounds.connections} connections, the table above): p50 ${fixed(deep.p50)}x, p99 ${fixed(deep.p99)}x, time per request (inverse req/s) ${fixed(deep.timePerRequest)}x.`
    const single =
      alone === undefined
        ? ''
        : ` At one connection (${plan.deepLatency.rounds} alternating runs of ${plan.deepLatency.seconds} s each): first page p50 ${fixed(alone.base.p50, 3)} ms, deep page p50 ${fixed(alone.other.p50, 3)} ms, **${fixed(alone.p50Ratio)}x** (mean ${fixed(alone.meanRatio)}x; p99 ${fixed(alone.base.p99, 3)} against ${fixed(alone.other.p99, 3)} ms).`
    parts.push(`## (c) Deep page against first page

On ${count(plan.deepPets + plan.soldTail)} pets, the page after pet ${count(plan.deepPets + 1)} (cursor found through the API: the next link of \`status=sold\`, a filter only the last pets match) against the first page, both \`limit=20\`.${single}${loaded}`)
  }

  if (result.client.length > 0) {
    parts.push(`## (f) Client against raw fetch

In the bench process against the service: \`createPetstoreClient(...).GET\` against \`fetch\` + \`response.json()\` for the same request, and a plain openapi-fetch client (\`createClient<paths>\`, no middleware) beside them: the client is built on it, so its ratio is the floor of the client's. ${plan.client.calls} calls per loop, median of ${plan.client.rounds} rounds in rotating order; concurrent = ${plan.client.concurrency} calls in flight (time per call = wall time / calls).

${table(
  [
    'operation',
    'mode',
    'raw fetch ms/call',
    'openapi-fetch ms/call',
    'client ms/call',
    'openapi-fetch / raw',
    'client / raw',
  ],
  result.client.map((entry) => [
    entry.operation,
    entry.mode,
    fixed(entry.rawMs, 3),
    fixed(entry.libraryMs, 3),
    fixed(entry.clientMs, 3),
    fixed(entry.libraryRatio),
    fixed(entry.ratio),
  ]),
)}`)
  }

  if (result.durability !== undefined) {
    const { acknowledged, expected, onDisk, lost } = result.durability
    parts.push(`## (d) Durability

The service answered ${count(acknowledged)} creates with 201; after \`kill -9\` the file holds ${count(onDisk)} pets (at least ${count(expected)} expected): **${lost} acknowledged pet${lost === 1 ? '' : 's'} lost**.`)
  }

  if (result.soak !== undefined) {
    const soak = result.soak
    parts.push(`## Soak

${soak.plan.seconds} s of workload (a) with 10% creates at ${count(soak.plan.requestsPerSecond)} req/s (${Math.round(plan.soak.loadFraction * 100)}% of (a)'s measured maximum), ${soak.plan.connections} connections: ${count(soak.load.requestsPerSecond)} req/s served, p99 ${fixed(soak.load.p99)} ms, ${soak.load.non2xx} non-2xx, ${soak.load.errors} errors. RSS ${mb(soak.rssBaseline)} after ${soak.plan.baselineAfterSeconds} s, ${mb(soak.rssEnd)} at the end (${soak.rssGrowth === undefined ? 'n/a' : `${(soak.rssGrowth * 100).toFixed(1)}%`}).`)
  }

  if (result.observabilityCost.length > 0) {
    const cost = plan.observabilityCost
    parts.push(`## Observability: on against off

The same build paired against itself (\`paired\`: both side by side on copies of one ${count(cost.pets)}-pet database, ${cost.connections} connections each, ${cost.rounds} round${cost.rounds === 1 ? '' : 's'} of ${cost.seconds} s, half of them with each started first), the head with the setting on; CPU per answered request, head / base, median of the rounds. Within ${freeCostRatio.toFixed(2)} is no measurable cost; nothing scrapes during the rounds.

${table(
  ['setting', 'workload', 'on / off CPU per request', 'rounds', 'off req/s', 'on req/s'],
  result.observabilityCost.map((row) => [
    row.variant,
    row.workload,
    fixed(row.median, 3),
    row.ratios.map((value) => value.toFixed(3)).join(', '),
    count(Math.round(row.baseRate)),
    count(Math.round(row.headRate)),
  ]),
)}`)
  }

  if (result.contractPair.length > 0) {
    const pair = plan.contractPair
    parts.push(`## Paired against the contract ceiling

The service and the contract ceiling side by side (\`paired --base=contract\`: databases seeded alike with ${count(pair.pets)} pets, ${pair.connections} connections each, loaded at the same time, ${pair.rounds} round${pair.rounds === 1 ? '' : 's'} of ${pair.seconds} s, half of them with each started first); CPU per answered request, service / ceiling, median of the rounds. Load from elsewhere on the machine touches both alike, where the throughput ratios above move by 0.1 between runs. The last column is the CPU ratio's inverse, the form of a throughput target (${contractGoal.toFixed(2)} there is a CPU ratio of ${(1 / contractGoal).toFixed(2)}). It is not the solo rounds' figure: here the two share both cores with their load generators. The service answers getPet from its cache, where the ceiling reads SQLite; both walks are cold on both sides.

${table(
  [
    'workload',
    'service / ceiling CPU per request',
    'rounds',
    'ceiling req/s',
    'service req/s',
    'ceiling / service CPU',
  ],
  result.contractPair.map((row) => [
    row.workload,
    fixed(row.median, 3),
    row.ratios.map((value) => value.toFixed(3)).join(', '),
    count(Math.round(row.baseRate)),
    count(Math.round(row.headRate)),
    fixed(1 / row.median),
  ]),
)}`)
  }

  const goals = checkGoals(result)
  parts.push(`## Targets

${table(
  ['target', 'goal', 'measured', 'met'],
  goals.map((goal) => [
    goal.name,
    goal.goal,
    goal.measured,
    goal.met === undefined ? 'n/a' : goal.met ? 'yes' : '**no**',
  ]),
)}

Peak RSS is the highest \`VmHWM\` of the service processes; the table's column is the highest RSS sampled while each workload ran.`)
  return `${parts.join('\n\n')}\n`
}
