/**
 * A failed exchange (http.ts' TransportError, or anything thrown while sending) as the one
 * AppError the transport throws: a timeout, a cancel, an answer too large, a network failure
 * named for what the user can check.
 */
import { AppError } from '../../shared/errors'
import { TransportError } from './http'

/** Failures of the network a read is sent again after (not a timeout: it had its time). */
const RETRYABLE_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ETIMEDOUT'
])

const NETWORK_DETAILS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'name lookup failed',
  ECONNRESET: 'connection closed by the server',
  EPIPE: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out'
}

export const isRetryableNetworkCode = (code: string): boolean => RETRYABLE_NETWORK_CODES.has(code)

/** `err` as an AppError; `timeoutMs` the exchange's deadline, `host` the server's, for messages. */
export function exchangeFailure(
  err: unknown,
  { host, timeoutMs, maxResponseBytes }: { host: string; timeoutMs: number; maxResponseBytes: number }
): AppError {
  if (err instanceof TransportError) {
    if (err.failure === 'cancelled') {
      return new AppError({ kind: 'cancelled', message: 'Cancelled', code: 'cancelled' })
    }
    if (err.failure === 'timeout') {
      const ms = err.limitMs ?? timeoutMs
      const limit = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`
      const message = err.slowBody
        ? `${host} did not finish its answer within ${limit}: it came too slowly or stopped`
        : `${host} did not answer within ${limit}`
      return new AppError({ kind: 'timeout', message })
    }
    if (err.failure === 'too_large') {
      const mb = maxResponseBytes / (1024 * 1024)
      const size =
        mb >= 1 ? `${Math.round(mb)} MiB` : `${Math.max(1, Math.round(maxResponseBytes / 1024))} KiB`
      return new AppError({ kind: 'too_large', message: `The server's answer is too large (over ${size})` })
    }
    if (/^(CERT_|ERR_TLS|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_SSL)/.test(err.code)) {
      return new AppError({
        kind: 'network',
        message: `Cannot reach ${host} securely (${err.code})`,
        code: err.code
      })
    }
    const detail = NETWORK_DETAILS[err.code]
    return new AppError({
      kind: 'network',
      message: detail ? `Cannot reach ${host} (${detail})` : `Cannot reach ${host}`,
      code: err.code
    })
  }
  if (err instanceof AppError) return err
  const message = err instanceof Error ? err.message : String(err)
  return new AppError({ kind: 'internal', message: `The request could not be sent: ${message}` })
}
