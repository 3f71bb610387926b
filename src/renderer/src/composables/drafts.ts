/**
 * The drafts of the signed-in profile (unsaved form contents), kept by main in that profile's
 * offline store: loaded when a session starts, read synchronously by the forms, written a moment
 * after the last keystroke (and at once when the page goes away). Secret-looking keys are never
 * sent (main drops them too). Drafts an older version kept in localStorage move over once.
 */
import { shallowRef } from 'vue'
import { scrubSecrets } from '../../../shared/secretKeys'
import { desk } from '../desk'

type Draft = Record<string, unknown>

const LEGACY_PREFIX = 'agent-desk:draft:'
const SAVE_DELAY_MS = 250

const drafts = shallowRef<ReadonlyMap<string, Draft>>(new Map())
/** Bumped when a profile's drafts have arrived (a form opened before then takes its draft then). */
export const draftsLoaded = shallowRef(0)
let identity: string | null = null
const timers = new Map<string, ReturnType<typeof setTimeout>>()
/** Writes not sent yet: a draft, or null for a removal. */
const unsent = new Map<string, Draft | null>()

const clone = <V>(v: V): V => JSON.parse(JSON.stringify(v)) as V

/** Whether a draft is kept under this key (reactive): lists mark items with unsaved changes. */
export const hasDraft = (key: string): boolean => drafts.value.has(key)

/** The draft kept under this key (a copy), or null. */
export function readDraft(key: string): Draft | null {
  const d = drafts.value.get(key)
  return d ? clone(d) : null
}

function put(key: string, value: Draft | null): void {
  const next = new Map(drafts.value)
  if (value) next.set(key, value)
  else next.delete(key)
  drafts.value = next
}

function send(key: string, value: Draft | null): void {
  const warn = (e: unknown) => console.warn('[agent-desk] the draft was not kept', e)
  try {
    const api = desk().drafts
    ;(value ? api.save({ key, value }) : api.remove({ key })).catch(warn)
  } catch (e) {
    warn(e) // no bridge (a component shown on its own): the form still works
  }
}

function schedule(key: string, value: Draft | null): void {
  unsent.set(key, value)
  clearTimeout(timers.get(key))
  timers.set(
    key,
    setTimeout(() => {
      timers.delete(key)
      if (!unsent.has(key)) return
      const v = unsent.get(key) ?? null
      unsent.delete(key)
      send(key, v)
    }, SAVE_DELAY_MS)
  )
}

/** Keeps `value` (secret-looking keys dropped) as the draft under `key`. */
export function writeDraft(key: string, value: unknown): void {
  const v = scrubSecrets(clone(value)) as Draft
  put(key, v)
  schedule(key, v)
}

export function removeDraft(key: string): void {
  if (!drafts.value.has(key) && !unsent.has(key)) return
  put(key, null)
  schedule(key, null)
}

/** Sends every waiting write now (the page is going away). */
export function flushDrafts(): void {
  for (const [key, t] of timers) {
    clearTimeout(t)
    timers.delete(key)
  }
  for (const [key, v] of unsent) send(key, v)
  unsent.clear()
}
if (typeof window !== 'undefined') window.addEventListener('pagehide', flushDrafts)

function legacyDrafts(): [string, Draft][] {
  try {
    const out: [string, Draft][] = []
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i)
      if (!k?.startsWith(LEGACY_PREFIX)) continue
      try {
        const v: unknown = JSON.parse(localStorage.getItem(k) ?? 'null')
        if (v && typeof v === 'object' && !Array.isArray(v))
          out.push([k.slice(LEGACY_PREFIX.length), v as Draft])
      } catch {
        // unreadable: dropped below
      }
    }
    for (const [k] of out) localStorage.removeItem(LEGACY_PREFIX + k)
    return out
  } catch {
    return []
  }
}

/**
 * The session is now `next` (`profile|user`, or null when signed out): drop the drafts of the
 * previous one (writes not sent yet would land in the wrong profile) and load this one's.
 */
export async function syncDrafts(next: string | null): Promise<void> {
  if (next === identity) return
  identity = next
  for (const t of timers.values()) clearTimeout(t)
  timers.clear()
  unsent.clear()
  drafts.value = new Map()
  if (!next) return
  let list: { key: string; value: Draft }[]
  try {
    list = await desk().drafts.list()
  } catch (e) {
    console.warn('[agent-desk] drafts could not be read', e)
    return
  }
  if (identity !== next) return
  const map = new Map(list.map((d) => [d.key, d.value]))
  for (const [key, value] of legacyDrafts()) {
    if (map.has(key)) continue
    const v = scrubSecrets(value) as Draft
    map.set(key, v)
    send(key, v)
  }
  // What was typed while the list was on its way wins.
  for (const [key, value] of drafts.value) map.set(key, value)
  for (const [key, value] of unsent) if (value === null) map.delete(key)
  drafts.value = map
  draftsLoaded.value++
}
