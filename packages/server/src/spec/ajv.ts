/**
 * The one Ajv setup for the spec's schemas: JSON Schema 2020-12 (OpenAPI 3.1's dialect), so
 * `$ref` siblings keep their meaning, with the OpenAPI integer formats known.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'

/** A fresh Ajv for 2020-12 schemas; `useDefaults` fills spec defaults (NewPet.status). */
export function createAjv(options: { useDefaults?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    verbose: true,
    useDefaults: options.useDefaults ?? false,
    coerceTypes: false,
  })
  ajv.addFormat('int32', {
    type: 'number',
    validate: (value) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31,
  })
  ajv.addFormat('int64', { type: 'number', validate: (value) => Number.isInteger(value) })
  return ajv
}
