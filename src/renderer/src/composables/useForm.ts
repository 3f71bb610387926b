import { reactive, ref, shallowRef, watch, getCurrentScope, onScopeDispose, type Ref } from 'vue'
import type { z } from 'zod'
import type { AppErrorData } from '../../../shared/errors'

const DRAFT_PREFIX = 'agent-desk:draft:'
/** Nothing secret is ever written to localStorage. */
const SECRET_KEY = /token|password|secret/i

function clone<V>(v: V): V {
  if (v === undefined) return v
  return JSON.parse(JSON.stringify(v)) as V
}

/** Drops every key that looks like a secret, at any depth. */
function scrub(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(scrub)
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
      if (SECRET_KEY.test(k)) continue
      out[k] = scrub(val)
    }
    return out
  }
  return v
}

function storage(): Storage | null {
  try {
    return typeof localStorage !== 'undefined' ? localStorage : null
  } catch {
    return null
  }
}

export function draftStorageKey(draftKey: string): string {
  return DRAFT_PREFIX + draftKey
}

/**
 * The keys of the drafts kept now (reactive): lists mark items whose edit form has unsaved
 * changes (`hasDraft('tool-edit:<id>')`). Read from storage once, then kept by the forms.
 */
const draftKeys = shallowRef<ReadonlySet<string>>(readDraftKeys())
function readDraftKeys(): Set<string> {
  const s = storage()
  const out = new Set<string>()
  if (!s) return out
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i)
    if (k?.startsWith(DRAFT_PREFIX)) out.add(k.slice(DRAFT_PREFIX.length))
  }
  return out
}
function noteDraft(key: string, kept: boolean): void {
  if (draftKeys.value.has(key) === kept) return
  const next = new Set(draftKeys.value)
  if (kept) next.add(key)
  else next.delete(key)
  draftKeys.value = next
}
/** Whether a draft is kept under this key (reactive). */
export const hasDraft = (draftKey: string): boolean => draftKeys.value.has(draftKey)

/** Reads a saved draft (or null). */
export function readDraft(draftKey: string): Record<string, unknown> | null {
  const s = storage()
  if (!s) return null
  const raw = s.getItem(draftStorageKey(draftKey))
  if (!raw) return null
  try {
    const v: unknown = JSON.parse(raw)
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function replaceContents(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const k of Object.keys(target)) if (!(k in source)) delete target[k]
  for (const [k, v] of Object.entries(source)) target[k] = v
}

export interface Form<S extends z.ZodType> {
  model: z.input<S>
  errors: Ref<Record<string, string>>
  /** Parses the model; on failure shows the field errors and returns null. */
  validate: () => z.output<S> | null
  /** Maps a server refusal's `fields[]` onto the field errors; the typed input stays. */
  applyServerError: (e: AppErrorData) => void
  reset: (v?: z.input<S>) => void
  clearDraft: () => void
  /** True when the model was restored from a saved draft. */
  restored: Ref<boolean>
}

/**
 * A form over a zod schema: a reactive draft, field errors keyed by path (`llm.model`), and,
 * with `draftKey`, the draft persisted in localStorage so nothing typed is lost on crash/restart.
 */
export function useForm<S extends z.ZodType>(
  schema: S,
  initial: z.input<S>,
  opts?: { draftKey?: string }
): Form<S> {
  const draftKey = opts?.draftKey && !SECRET_KEY.test(opts.draftKey) ? opts.draftKey : undefined
  const model = reactive(clone(initial) as Record<string, unknown>)
  const errors = ref<Record<string, string>>({})
  const restored = ref(false)

  if (draftKey) {
    const saved = readDraft(draftKey)
    if (saved) {
      replaceContents(model, { ...(clone(initial) as Record<string, unknown>), ...saved })
      restored.value = true
    }
    const stop = watch(
      model,
      () => {
        const s = storage()
        if (!s) return
        try {
          s.setItem(draftStorageKey(draftKey), JSON.stringify(scrub(model)))
          noteDraft(draftKey, true)
        } catch {
          /* storage full or unavailable: the form still works */
        }
      },
      { deep: true, flush: 'sync' }
    )
    if (getCurrentScope()) onScopeDispose(stop)
  }

  function validate(): z.output<S> | null {
    const r = schema.safeParse(clone(model))
    if (r.success) {
      errors.value = {}
      return r.data
    }
    const next: Record<string, string> = {}
    for (const issue of r.error.issues) {
      const key = issue.path.map(String).join('.') || '(form)'
      if (!(key in next)) next[key] = issue.message
    }
    errors.value = next
    return null
  }

  function applyServerError(e: AppErrorData): void {
    const next: Record<string, string> = {}
    for (const f of e.fields ?? []) {
      const key = f.field || '(form)'
      if (!(key in next)) next[key] = f.message
    }
    if (Object.keys(next).length === 0) next['(form)'] = e.message
    errors.value = next
  }

  function clearDraft(): void {
    if (!draftKey) return
    storage()?.removeItem(draftStorageKey(draftKey))
    noteDraft(draftKey, false)
    restored.value = false
  }

  function reset(v?: z.input<S>): void {
    replaceContents(model, clone(v ?? initial) as Record<string, unknown>)
    errors.value = {}
  }

  return { model: model as z.input<S>, errors, validate, applyServerError, reset, clearDraft, restored }
}
