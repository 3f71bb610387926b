/**
 * Times for people, in the interface's language through `Intl`: "just now", "5 minutes ago" /
 * "vor 5 Minuten", "never" for null; and short local date-times for lists.
 */
import { currentLocale, i18n, type Locale } from '../i18n'

const relative = new Map<Locale, Intl.RelativeTimeFormat>()
const dates = new Map<Locale, Intl.DateTimeFormat>()
const once = <T>(cache: Map<Locale, T>, locale: Locale, make: () => T): T => {
  let f = cache.get(locale)
  if (!f) cache.set(locale, (f = make()))
  return f
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago"; "never" for null. */
export function relativeTime(
  iso: string | null | undefined,
  now: number = Date.now(),
  locale: Locale = currentLocale()
): string {
  const t = i18n.global.t
  if (!iso) return t('time.never')
  const at = Date.parse(iso)
  if (Number.isNaN(at)) return t('time.unknown')
  const s = Math.round((now - at) / 1000)
  if (s < 45) return t('time.justNow')
  const f = once(relative, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'always' }))
  const m = Math.round(s / 60)
  if (m < 60) return f.format(-m, 'minute')
  const h = Math.round(m / 60)
  if (h < 24) return f.format(-h, 'hour')
  return f.format(-Math.round(h / 24), 'day')
}

/** A size in bytes for people: "812 kB", "3.4 MB" (decimal units, the interface's number format). */
export function formatBytes(bytes: number, locale: Locale = currentLocale()): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const
  let v = bytes
  let u = 0
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000
    u++
  }
  const unit = units[u] ?? 'byte'
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: v < 10 && u > 0 ? 1 : 0
  }).format(v)
}

/** A short local date-time for lists. */
export function shortDate(iso: string | null | undefined, locale: Locale = currentLocale()): string {
  if (!iso) return ''
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  return once(
    dates,
    locale,
    () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  ).format(new Date(t))
}
