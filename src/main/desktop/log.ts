/**
 * The log file (electron-log, its plain-Node entry): warnings and errors of the main process in
 * `<dir>/main.log`, rotated by size (1 MiB; `main.1.log` … `main.4.log` keep the previous ones, 5
 * files at most), every message scrubbed of secrets first (./redact, as an electron-log hook).
 * In the app `dir` is the OS log folder (Electron's `app.getPath('logs')`).
 */
import { existsSync, renameSync, rmSync } from 'node:fs'
import { join, parse } from 'node:path'
import nodeLog from 'electron-log/node'
// The logger's types, from its declaration file: the package root is Electron's main-process logger.
import type { LogFile, LogLevel, LogMessage } from 'electron-log/src/index.d.ts'
import type { Keychain } from '../keychain'
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenFile } from '../privateFiles'
import { redactText, redactValue, registerSecret } from './redact'

export { registerSecret }

export interface FileLogOptions {
  dir: string
  fileName?: string
  /** Bytes before the file is rotated. Default 1 MiB. */
  maxSize?: number
  /** Files kept, the current one included. Default 5. */
  maxFiles?: number
  /** Lowest level written. Default 'warn'. */
  level?: LogLevel
}

export interface FileLog {
  /** The current file. */
  readonly file: string
  warn(...args: unknown[]): void
  error(...args: unknown[]): void
  info(...args: unknown[]): void
}

let instances = 0

/** Moves `main.log` to `main.1.log` (and each older one a step further), dropping the oldest. */
export function rotateLogFiles(current: string, maxFiles: number): void {
  const { dir, name, ext } = parse(current)
  const nth = (i: number) => join(dir, `${name}.${i}${ext}`)
  if (maxFiles <= 1) {
    rmSync(current, { force: true })
    return
  }
  rmSync(nth(maxFiles - 1), { force: true })
  for (let i = maxFiles - 2; i >= 1; i--) if (existsSync(nth(i))) renameSync(nth(i), nth(i + 1))
  renameSync(current, nth(1))
}

/** The hook: every message's data scrubbed before any transport sees it. */
export function redactMessage(message: LogMessage): LogMessage {
  return { ...message, data: message.data.map((d: unknown) => redactValue(d)) }
}

export function createFileLog(opts: FileLogOptions): FileLog {
  const fileName = opts.fileName ?? 'main.log'
  const maxFiles = opts.maxFiles ?? 5
  const file = join(opts.dir, fileName)
  // The log folder and its files are the user's alone (0700, 0600), whatever the umask.
  ensurePrivateDir(opts.dir)
  tightenFile(file)
  const logger = nodeLog.create({ logId: `agent-desk-${++instances}` })
  logger.hooks.push(redactMessage)
  logger.transports.console.level = false
  for (const name of ['ipc', 'remote'] as const) {
    const t = (logger.transports as Record<string, { level: LogLevel | false } | null | undefined>)[name]
    if (t) t.level = false
  }
  const ft = logger.transports.file
  ft.level = opts.level ?? 'warn'
  ft.fileName = fileName
  ft.maxSize = opts.maxSize ?? 1024 * 1024
  ft.resolvePathFn = () => file
  ft.writeOptions = { ...ft.writeOptions, mode: PRIVATE_FILE_MODE }
  ft.archiveLogFn = (old: LogFile) => {
    try {
      rotateLogFiles(old.path, maxFiles)
    } catch {
      // Cannot rename (a file held open elsewhere): start the file again rather than grow forever.
      old.clear()
    }
  }
  // A last pass over the finished line: nothing a hook missed (a formatter's own output) gets by.
  ft.transforms = [
    ...ft.transforms,
    ({ data }: { data: unknown }) => (typeof data === 'string' ? redactText(data) : data)
  ]
  return {
    file,
    warn: (...args) => logger.warn(...args),
    error: (...args) => logger.error(...args),
    info: (...args) => logger.info(...args)
  }
}

/**
 * `console.warn` and `console.error` also go to the log (scrubbed); the console keeps its output.
 * Returns a function that puts the console back.
 */
export function captureConsole(log: FileLog, target: Pick<Console, 'warn' | 'error'> = console): () => void {
  const { warn, error } = target
  target.warn = (...args: unknown[]) => {
    warn.apply(target, args)
    log.warn(...args)
  }
  target.error = (...args: unknown[]) => {
    error.apply(target, args)
    log.error(...args)
  }
  return () => {
    target.warn = warn
    target.error = error
  }
}

/** A keychain that registers every token it stores or hands out, so the log never shows one. */
export function registeringSecrets(keychain: Keychain): Keychain {
  const wrapped: Keychain = {
    kind: keychain.kind,
    async get(account) {
      const v = await keychain.get(account)
      registerSecret(v)
      return v
    },
    async set(account, secret) {
      registerSecret(secret)
      return keychain.set(account, secret)
    },
    delete: (account) => keychain.delete(account)
  }
  return keychain.message === undefined ? wrapped : { ...wrapped, message: keychain.message }
}
