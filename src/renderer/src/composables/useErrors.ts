import type { AppErrorData, AppErrorKind } from '../../../shared/errors'
import { APP_ERROR_KINDS } from '../../../shared/errors'
import { i18n } from '../i18n'
import { feedback } from './feedback'

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
 * Toasts for every outcome (through the feedback host, see feedback.ts: no naive-ui code here, and
 * callable anywhere, not only in setup()).
 */
export function useNotify() {
  return {
    error(e: unknown, context?: string): void {
      const text = describeError(toAppError(e))
      void feedback().then(({ notification }) =>
        notification.error({
          title: context ?? i18n.global.t('common.somethingWrong'),
          content: text,
          duration: 8000,
          keepAliveOnHover: true
        })
      )
    },
    success(msg: string): void {
      void feedback().then(({ message }) => message.success(msg))
    },
    queued(label: string): void {
      const text = label
        ? i18n.global.t('common.savedOfflineLabel', { label })
        : i18n.global.t('common.savedOffline')
      void feedback().then(({ message }) => message.info(text, { duration: 5000 }))
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
