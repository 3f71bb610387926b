/**
 * Words, not codes: the contract's enum values (agent, document and tool types) as people read
 * them, in the interface's language ("Math engine (alpha)" for `MATHENGINE_ALPHA`). The raw value
 * stays available as a tooltip (`valueTitle`). A value the app does not know (a newer server's)
 * is shown as it is.
 */
import { i18n } from './i18n'

/** The label of an enum value, or the value itself when it has none. */
export function valueLabel(v: string | null | undefined): string {
  if (!v) return ''
  const key = `values.${v}`
  return i18n.global.te(key) ? i18n.global.t(key) : v
}

/** The tooltip beside a label: the value the server uses. */
export const valueTitle = (v: string | null | undefined): string | undefined => v || undefined

/** Select options for enum values: labels shown, values sent. */
export const valueOptions = (values: readonly string[]) =>
  values.map((v) => ({ label: valueLabel(v), value: v }))
