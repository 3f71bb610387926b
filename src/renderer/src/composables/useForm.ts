import { reactive, ref, watch, getCurrentScope, onScopeDispose, type Ref } from 'vue'
import type { z } from 'zod'
import type { AppErrorData } from '../../../shared/errors'
import { SECRET_KEY } from '../../../shared/secretKeys'
import { draftsLoaded, readDraft, removeDraft, writeDraft } from './drafts'

function clone<V>(v: V): V {
  if (v === undefined) return v
  return JSON.parse(JSON.stringify(v)) as V
}

export { hasDraft, readDraft } from './drafts'

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
 * with `draftKey`, the draft kept in the profile's offline store (./drafts) so nothing typed is lost
 * on switching rows or views, a crash or a restart.
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

  // Set while the form itself replaces the model (reset, a draft restored): not the user typing.
  let applying = false
  let edited = false
  const apply = (v: Record<string, unknown>) => {
    applying = true
    try {
      replaceContents(model, v)
    } finally {
      applying = false
    }
  }
  const restore = (key: string): boolean => {
    const saved = readDraft(key)
    if (!saved) return false
    apply({ ...(clone(initial) as Record<string, unknown>), ...saved })
    restored.value = true
    return true
  }

  if (draftKey) {
    restore(draftKey)
    const stops = [
      watch(
        model,
        () => {
          if (!applying) edited = true
          writeDraft(draftKey, model)
        },
        { deep: true, flush: 'sync' }
      ),
      // Drafts that arrive after the form opened (a start straight into an item) are taken when
      // nothing was typed yet.
      watch(draftsLoaded, () => {
        if (!edited && !restored.value) restore(draftKey)
      })
    ]
    if (getCurrentScope()) onScopeDispose(() => stops.forEach((stop) => stop()))
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
    removeDraft(draftKey)
    restored.value = false
  }

  function reset(v?: z.input<S>): void {
    apply(clone(v ?? initial) as Record<string, unknown>)
    errors.value = {}
  }

  return { model: model as z.input<S>, errors, validate, applyServerError, reset, clearDraft, restored }
}
