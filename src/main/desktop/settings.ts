/**
 * The user's settings, one small JSON file in the user-data folder (`settings.json`). Written
 * atomically (a temporary file renamed over the old one); read tolerantly: a field that is
 * missing or invalid takes its default and the others are kept; a file that is not JSON at all is
 * set aside as `settings.json.corrupt` (so nothing is lost) and the defaults apply.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir } from '../privateFiles'
import { SETTING_FIELDS, SettingsPatch, type Settings } from '../../shared/settings'

export type { Settings, SettingsPatch }

export const SETTINGS_FILE = 'settings.json'

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  updates: 'on',
  theme: 'system',
  language: 'system'
})

/** Keeps each valid field of `raw`, the default for the rest. */
function fromRaw(raw: unknown): Settings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ...DEFAULT_SETTINGS }
  const obj = raw as Record<string, unknown>
  const valid = Object.fromEntries(
    Object.entries(SETTING_FIELDS).flatMap(([key, schema]) => {
      const r = schema.safeParse(obj[key])
      return r.success ? [[key, r.data]] : []
    })
  )
  return { ...DEFAULT_SETTINGS, ...valid }
}

export class SettingsStore {
  readonly file: string
  private current: Settings | null = null
  private readonly listeners = new Set<(s: Settings) => void>()

  constructor(
    private readonly dir: string,
    private readonly log: (message: string, err?: unknown) => void = () => undefined
  ) {
    this.file = join(dir, SETTINGS_FILE)
  }

  get(): Settings {
    if (!this.current) this.current = this.read()
    return { ...this.current }
  }

  set(patch: SettingsPatch): Settings {
    const valid = SettingsPatch.parse(patch)
    const given = Object.fromEntries(Object.entries(valid).filter(([, v]) => v !== undefined))
    const next: Settings = { ...this.get(), ...given }
    this.write(next)
    this.current = next
    for (const l of [...this.listeners]) {
      try {
        l({ ...next })
      } catch (e) {
        this.log('A settings listener failed', e)
      }
    }
    return { ...next }
  }

  onChange(listener: (s: Settings) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private read(): Settings {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`Could not read ${this.file}`, e)
      return { ...DEFAULT_SETTINGS }
    }
    try {
      return fromRaw(JSON.parse(text))
    } catch (e) {
      this.log(`${this.file} is not valid JSON; it is kept as ${SETTINGS_FILE}.corrupt and defaults apply`, e)
      try {
        renameSync(this.file, `${this.file}.corrupt`)
      } catch (err) {
        this.log(`Could not set ${this.file} aside`, err)
      }
      return { ...DEFAULT_SETTINGS }
    }
  }

  private write(s: Settings): void {
    ensurePrivateDir(this.dir)
    const tmp = `${this.file}.${process.pid}.tmp`
    try {
      writeFileSync(tmp, `${JSON.stringify(s, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 })
      renameSync(tmp, this.file)
    } catch (e) {
      rmSync(tmp, { force: true })
      throw e
    }
  }
}
