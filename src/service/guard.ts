/**
 * Who may talk to a service bound to loopback: only programs on this machine that name it by
 * a loopback address. A web page cannot reach it through DNS rebinding (its requests carry the
 * attacker's host name in `Host`) nor directly (browsers send `Origin` on cross-origin requests,
 * and on every POST/PATCH/DELETE). Agent Desk's main process and the CLI's clients send neither.
 * Both are answered 403 `forbidden` (a status the contract already lists) before any route runs.
 */
import type { IncomingMessage } from 'node:http'
import { forbidden } from './http'

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '')
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1'
}

/** The Host/Origin check for a loopback-bound server on `port`. */
export function loopbackGuard(boundHost: string, port: number): (req: IncomingMessage) => void {
  const bound = boundHost.includes(':') ? `[${boundHost.toLowerCase()}]` : boundHost.toLowerCase()
  const allowed = new Set(['127.0.0.1', 'localhost', '[::1]', bound].map((h) => `${h}:${port}`))
  return (req) => {
    if (req.headers.origin !== undefined) {
      throw forbidden('Requests from web pages (with an Origin header) are refused by this local service')
    }
    const host = (req.headers.host ?? '').toLowerCase()
    if (!allowed.has(host)) {
      throw forbidden(
        `This local service answers only to 127.0.0.1:${port}, localhost:${port} or [::1]:${port}`
      )
    }
  }
}
