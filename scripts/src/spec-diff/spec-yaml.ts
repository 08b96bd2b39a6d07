/**
 * How spec:diff reads a spec's text: js-yaml, about ten times faster than the `yaml` package on a
 * large document (`pnpm bench --spec-diff`), with the same reading as `specYamlOptions`: YAML 1.2
 * core types (no timestamps: an `x-sunset` stays a string) plus merge keys (`<<: *limited`), which
 * a spec written elsewhere may use. The `yaml` package stays for what needs source positions
 * (`source-lines.ts`).
 */
import jsyaml, { type Type } from 'js-yaml'

// js-yaml exports its types at run time; @types/js-yaml does not declare them.
const { merge } = (jsyaml as unknown as { types: { merge: Type } }).types
const schema = jsyaml.CORE_SCHEMA.extend({ implicit: [merge] })

export const parseSpecText = (text: string): unknown => jsyaml.load(text, { schema })
