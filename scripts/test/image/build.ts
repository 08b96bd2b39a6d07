/**
 * Builds the repository's Dockerfile as a user would, with buildah (`buildah bud`, which reads
 * Dockerfiles as Docker does) over the offline base, keeping buildah's layer cache between runs,
 * and reads back what the image says about itself.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mustRun } from '../release/processes.js'
import { repoRoot } from './base.js'

export interface Build {
  id: string
  seconds: number
  /** Steps that ran, and those taken from the layer cache. */
  steps: number
  cached: number
}

/**
 * `buildah bud` of the Dockerfile with `--build-arg BASE=<base>`. A CA named by
 * NODE_EXTRA_CA_CERTS (a registry behind a TLS-inspecting proxy, as here) is handed to the build
 * as the `npmca` secret, which the Dockerfile mounts for its registry steps only.
 */
export async function buildImage(base: string, tag: string): Promise<Build> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-image-'))
  const started = Date.now()
  try {
    const ca = process.env.NODE_EXTRA_CA_CERTS
    const secret = ca && existsSync(ca) ? ['--secret', `id=npmca,src=${ca}`] : []
    const iidfile = join(dir, 'iid')
    const { output } = await mustRun(
      'buildah',
      [
        'bud',
        '--isolation=chroot',
        '--layers',
        // Docker's format keeps HEALTHCHECK, which the OCI format has no field for.
        '--format=docker',
        `--build-arg=BASE=${base}`,
        ...secret,
        `--iidfile=${iidfile}`,
        `--tag=${tag}`,
        '--file=Dockerfile',
        '.',
      ],
      { cwd: repoRoot },
    )
    return {
      id: readFileSync(iidfile, 'utf8')
        .trim()
        .replace(/^sha256:/, ''),
      seconds: (Date.now() - started) / 1000,
      steps: output.match(/^\[\d+\/\d+\] STEP /gm)?.length ?? 0,
      cached: output.match(/^--> Using cache /gm)?.length ?? 0,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The parts of an image's configuration the tests read (Docker's schema, as built above). */
export interface ImageConfig {
  User?: string
  Env?: string[]
  Entrypoint?: string[] | null
  Cmd?: string[] | null
  WorkingDir?: string
  Volumes?: Record<string, object> | null
  ExposedPorts?: Record<string, object> | null
  Healthcheck?: { Test?: string[] } | null
}

export async function imageConfig(id: string): Promise<ImageConfig> {
  const { stdout } = await mustRun('buildah', ['inspect', '--type=image', id], { cwd: repoRoot })
  return (JSON.parse(stdout) as { Docker: { config: ImageConfig } }).Docker.config
}

export interface Layer {
  size: number
  createdBy: string
}

/** The image's size in bytes and its layers, newest first (`podman history`). */
export async function imageSize(id: string): Promise<{ size: number; layers: Layer[] }> {
  const inspect = await mustRun('podman', ['image', 'inspect', id], { cwd: repoRoot })
  const [{ Size }] = JSON.parse(inspect.stdout) as [{ Size: number }]
  const history = await mustRun('podman', ['history', '--format=json', id], { cwd: repoRoot })
  const layers = (
    JSON.parse(history.stdout) as { size: number; CreatedBy?: string; createdBy?: string }[]
  ).map((layer) => ({ size: layer.size, createdBy: layer.CreatedBy ?? layer.createdBy ?? '' }))
  return { size: Size, layers }
}
