import { computed, reactive, ref, watch } from 'vue'
import type { z } from 'zod'
import { useForm } from './useForm'
import { toAppError, useNotify } from './useErrors'
import { cancelledSaveMessage, useSaveCancel } from './useSaveCancel'
import type { FormField } from '../resources/types'
import { i18n } from '../i18n'

export type FormModel = Record<string, unknown>

export interface ResourceFormOptions<T> {
  /** The item being edited (a getter, as props change); null to create one. */
  item: () => T | null
  /** Validation: the shared zod schemas of the resource. */
  create: z.ZodType
  update: z.ZodType
  /** The form's model for an item (or for a new one). */
  toModel: (item: T | null) => FormModel
  /** The fields the form shows (errors of other keys appear in the form's alert). */
  fields: readonly FormField[]
  save: (input: never) => Promise<unknown>
  /** Its words in resources.json (`tool`): "Could not save the tool". */
  noun: string
  draftKey?: string | null
  disabled?: () => boolean
  /** Checks after the schema's; messages by field stop the save (e.g. placeholder syntax). */
  check?: (model: FormModel) => Record<string, string> | null
  /** Called after the model was reset (revert, after a create, or following the item). */
  onReset?: (model: FormModel) => void
  onSaved?: (result: unknown) => void
  /** After this long a save offers Cancel. Default 1000 ms. */
  cancelAfterMs?: number
}

/** What a resource's form is made of: its schemas, model, fields and noun (one per resource). */
export type ResourceFormSpec<T> = Pick<
  ResourceFormOptions<T>,
  'create' | 'update' | 'toModel' | 'fields' | 'noun'
>

/** The props every resource form component takes beside its item. */
export interface ResourceFormProps {
  save: (input: never) => Promise<unknown>
  draftKey?: string | null
  disabled?: boolean
}

/** useResourceForm's options that come from a form component's props and its `saved` event (emit). */
export function fromProps<T>(
  props: ResourceFormProps,
  item: () => T | null,
  emit: (event: 'saved', result: unknown) => void
): Pick<ResourceFormOptions<T>, 'item' | 'save' | 'draftKey' | 'disabled' | 'onSaved'> {
  return {
    item,
    save: props.save,
    draftKey: props.draftKey,
    disabled: () => !!props.disabled,
    onSaved: (result) => emit('saved', result)
  }
}

/**
 * The behaviour every resource form shares, over the resource's zod schema (useForm): field and
 * form-level errors (the server's too), dirty tracking against the item, following the item while
 * untouched (it often arrives in two steps), sending only the changed fields on edit, the draft of
 * a create, invalid JSON fields blocking the save, revert. A save that takes longer than a second
 * offers Cancel (`slow`, `cancelSave`): its request is aborted and the form keeps what was typed.
 */
export function useResourceForm<T>(opts: ResourceFormOptions<T>) {
  const initialItem = opts.item()
  // A draft is kept for a create and for an edit alike: switching rows or views, or a restart,
  // loses nothing typed. An edit's draft goes when the form matches the item again or is saved.
  const form = useForm(
    initialItem ? opts.update : opts.create,
    opts.toModel(initialItem),
    opts.draftKey ? { draftKey: opts.draftKey } : undefined
  )
  const model = form.model as FormModel
  const errors = form.errors
  const notify = useNotify()
  const busy = ref(false)
  /** `slow`: the save has run for a while and the form shows Cancel. */
  const saving = useSaveCancel(opts.cancelAfterMs)
  const editing = computed(() => !!opts.item())
  const jsonValid = reactive<Record<string, boolean>>({})
  const allJsonValid = computed(() => Object.values(jsonValid).every(Boolean))
  let baseline = JSON.stringify(opts.toModel(initialItem))
  const dirty = computed(() => JSON.stringify(model) !== baseline)
  // After the draft writer (both sync): an edit form back at the item's values keeps no draft.
  watch(
    model,
    () => {
      if (editing.value && !dirty.value) form.clearDraft()
    },
    { deep: true, flush: 'sync' }
  )

  function reset(v?: FormModel): void {
    form.reset(v)
    opts.onReset?.(model)
  }

  watch(
    opts.item,
    (t) => {
      if (!t) return
      const wasDirty = dirty.value
      baseline = JSON.stringify(opts.toModel(t))
      if (!wasDirty) reset(opts.toModel(t))
    },
    { deep: true }
  )

  function err(field: string): string | undefined {
    const e = errors.value
    if (e[field]) return e[field]
    const nested = Object.keys(e).find((k) => k.startsWith(`${field}.`))
    return nested ? e[nested] : undefined
  }
  const status = (field: string): 'error' | undefined => (err(field) ? 'error' : undefined)
  /** Messages that belong to no visible field (e.g. `(form)` or an unexpected server field). */
  const formErrors = computed(() =>
    Object.entries(errors.value)
      .filter(([k]) => !opts.fields.some((f) => k === f.key || k.startsWith(`${f.key}.`)))
      .map(([k, m]) => (k === '(form)' || k === '(body)' ? m : `${k}: ${m}`))
  )

  /** The fields that differ from the item (edit) or every field (create). */
  function changes(parsed: FormModel): FormModel {
    const item = opts.item()
    if (!item) return parsed
    const before = opts.toModel(item)
    const out: FormModel = {}
    for (const [k, v] of Object.entries(parsed))
      if (v !== undefined && JSON.stringify(v) !== JSON.stringify(before[k])) out[k] = v
    return out
  }

  async function submit(): Promise<void> {
    if (busy.value || opts.disabled?.()) return
    // A JSON field whose text does not parse keeps its last valid value: nothing is saved.
    const bad = opts.fields.find((f) => f.kind === 'json' && jsonValid[f.key] === false)
    if (bad) {
      errors.value = {
        ...errors.value,
        [bad.key]: bad.invalidJson ?? i18n.global.t('common.json.fixBeforeSave')
      }
      return
    }
    const parsed = form.validate() as FormModel | null
    const extra = opts.check?.(model)
    if (extra && Object.keys(extra).length) {
      errors.value = { ...errors.value, ...extra }
      return
    }
    if (!parsed) return
    const patch = changes(parsed)
    if (editing.value && Object.keys(patch).length === 0) {
      notify.success(i18n.global.t('common.nothingToSave'))
      return
    }
    busy.value = true
    try {
      const result = await saving.run(() => opts.save(patch as never))
      baseline = JSON.stringify(model)
      form.clearDraft()
      if (!editing.value) reset()
      opts.onSaved?.(result)
    } catch (e) {
      const appErr = toAppError(e)
      if (appErr.code === 'accepted_without_answer') {
        // The server stored it without sending it back; main has the list fetched again.
        if (!editing.value) {
          form.clearDraft()
          reset()
        }
        notify.success(appErr.message)
        return
      }
      if (appErr.kind === 'cancelled') {
        notify.error(
          { kind: 'cancelled', message: cancelledSaveMessage() },
          i18n.global.t(editing.value ? 'common.saveCancelled' : 'common.createCancelled')
        )
        return
      }
      form.applyServerError(appErr)
      notify.error(
        appErr,
        i18n.global.t(`resources.${opts.noun}.${editing.value ? 'saveFailed' : 'createFailed'}`)
      )
    } finally {
      busy.value = false
    }
  }

  /** Cancels the save that runs now (what was typed stays in the form). */
  const cancelSave = () => saving.cancel()

  function revert(): void {
    for (const k of Object.keys(jsonValid)) jsonValid[k] = true
    reset(opts.toModel(opts.item()))
  }

  /** A field's new value (the form component writes through these, not into its props). */
  function setField(key: string, value: unknown): void {
    model[key] = value
  }
  function setJsonValid(key: string, ok: boolean): void {
    jsonValid[key] = ok
  }

  return {
    model,
    errors,
    busy,
    slow: saving.slow,
    cancelSave,
    editing,
    dirty,
    jsonValid,
    allJsonValid,
    err,
    status,
    formErrors,
    submit,
    revert,
    setField,
    setJsonValid
  }
}

export type ResourceFormState = ReturnType<typeof useResourceForm>
