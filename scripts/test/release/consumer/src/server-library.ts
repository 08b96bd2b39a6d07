/**
 * A stranger's program on `@petstore/server` as a library: every export is imported (the
 * namespace brings every public declaration into the program, so `skipLibCheck: false` checks
 * them all), with none of the server's devDependencies (`@types/pg`, `@types/better-sqlite3`)
 * installed: only `@types/node`, as for any Node library.
 */

import type { PostgresStoreOptions, RunningPetstore, Store } from '@petstore/server'
import * as petstore from '@petstore/server'

const options: PostgresStoreOptions = { url: 'postgres://app@127.0.0.1:5432/pets', size: 4 }

export const exported: string[] = Object.keys(petstore)
export const openShared = (): Promise<Store> => petstore.openPostgresStore(options)
export const startForTests = (): Promise<RunningPetstore> => petstore.startPetstore()
