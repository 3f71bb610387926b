/**
 * Words, not codes: the contract's enum values (agent, document and tool types) as people read
 * them, in the interface's language ("Math engine (alpha)" for `MATHENGINE_ALPHA`). The raw value
 * stays available as a tooltip (`valueTitle`). A value the app does not know (a newer server's)
 * is shown as it is.
 */
import { i18n } from './i18n'

/** Labels already looked up, for the messages they were read from (a locale's, once loaded). */
let known = new Map<string, string>()
let knownFrom: unknown = null

/**
 * The label of an enum value, or the value itself when it has none. Looked up once per value and
 * language: a list row shows one per render, and vue-i18n's `te` + `t` cost more than the row.
 */
export function valueLabel(v: string | null | undefined): string {
  if (!v) return ''
  // Read on every call: the locale is reactive, so what shows a label follows a language change.
  const messages = i18n.global.getLocaleMessage(i18n.global.locale.value)
  if (messages !== knownFrom) {
    known = new Map()
    knownFrom = messages
  }
  let label = known.get(v)
  if (label === undefined) {
    const key = `values.${v}`
    label = i18n.global.te(key) ? i18n.global.t(key) : v
    known.set(v, label)
  }
  return label
}

/** The tooltip beside a label: the value the server uses. */
export const valueTitle = (v: string | null | undefined): string | undefined => v || undefined

/** Select options for enum values: labels shown, values sent. */
export const valueOptions = (values: readonly string[]) =>
  values.map((v) => ({ label: valueLabel(v), value: v }))
