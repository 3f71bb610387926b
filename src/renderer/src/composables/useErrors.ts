import { useMessage, useNotification } from 'naive-ui'
import type { AppErrorData, AppErrorKind } from '../../../shared/errors'
import { APP_ERROR_KINDS } from '../../../shared/errors'
import { i18n } from '../i18n'

const KINDS = new Set<string>(APP_ERROR_KINDS)

/** A human sentence per kind (common.json `errors`), used when the error carries no usable message. */
const fallback = (kind: AppErrorKind): string => i18n.global.t(`common.errors.${kind}`)

function looksLikeJson(s: string): boolean {
  const t = s.trim()
  return (t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))
}

/** Normalises anything thrown (IPC AppError objects, plain Errors, strings) into AppErrorData. */
export function toAppError(e: unknown): AppErrorData {
  if (e && typeof e === 'object') {
    const o = e as Record<string, unknown>
    const kind: AppErrorKind =
      typeof o.kind === 'string' && KINDS.has(o.kind) ? (o.kind as AppErrorKind) : 'internal'
    let message = typeof o.message === 'string' ? o.message.trim() : ''
    if (!message || looksLikeJson(message)) message = fallback(kind)
    const out: AppErrorData = { kind, message }
    if (typeof o.status === 'number') out.status = o.status
    if (typeof o.code === 'string') out.code = o.code
    if (Array.isArray(o.fields)) {
      out.fields = o.fields
        .filter(
          (f): f is { field: string; message: string } =>
            !!f && typeof f === 'object' && typeof f.field === 'string' && typeof f.message === 'string'
        )
        .map((f) => ({ field: f.field, message: f.message }))
    }
    return out
  }
  if (typeof e === 'string' && e.trim() && !looksLikeJson(e)) return { kind: 'internal', message: e.trim() }
  return { kind: 'internal', message: fallback('internal') }
}

/** A one-line human message for an error, including the first field issue when there is one. */
export function describeError(err: AppErrorData): string {
  const first = err.fields?.[0]
  if (err.kind === 'validation' && first && !err.message.includes(first.message)) {
    return `${err.message} (${first.field}: ${first.message})`
  }
  return err.message
}

/**
 * Toasts for every outcome. Must be called inside setup() under the naive-ui providers;
 * outside them (tests without providers) it falls back to the console so nothing crashes.
 */
export function useNotify() {
  let message: ReturnType<typeof useMessage> | null = null
  let notification: ReturnType<typeof useNotification> | null = null
  try {
    message = useMessage()
  } catch {
    message = null
  }
  try {
    notification = useNotification()
  } catch {
    notification = null
  }
  return {
    error(e: unknown, context?: string): void {
      const err = toAppError(e)
      const text = describeError(err)
      if (notification) {
        notification.error({
          title: context ?? i18n.global.t('common.somethingWrong'),
          content: text,
          duration: 8000,
          keepAliveOnHover: true
        })
      } else if (message) message.error(context ? `${context}: ${text}` : text)
      else console.warn(context ?? 'error', text)
    },
    success(msg: string): void {
      if (message) message.success(msg)
    },
    queued(label: string): void {
      const text = label
        ? i18n.global.t('common.savedOfflineLabel', { label })
        : i18n.global.t('common.savedOffline')
      if (message) message.info(text, { duration: 5000 })
    }
  }
}

/** Toasts the outcome of a write: done → success, queued → "Saved offline — will sync". */
export function reportWrite(
  notify: ReturnType<typeof useNotify>,
  w: { status: 'done' | 'queued' },
  doneMessage: string,
  queuedLabel: string = doneMessage
): void {
  if (w.status === 'queued') notify.queued(queuedLabel)
  else notify.success(doneMessage)
}
