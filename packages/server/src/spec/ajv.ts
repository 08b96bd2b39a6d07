/**
 * The one Ajv setup for the spec's schemas: JSON Schema 2020-12 (OpenAPI 3.1's dialect), so
 * `$ref` siblings keep their meaning, with the formats of the support table known (int32, int64,
 * date-time: scripts/src/support/table.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js'

/** RFC 3339 `date-time`; the offset is required, a leap second is not accepted. */
const dateTime =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/

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
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (value) => dateTime.test(value) && !Number.isNaN(Date.parse(value)),
  })
  return ajv
}
