/**
 * The user's settings, one small JSON file in the user-data folder (`settings.json`). A change
 * applies at once and is written after, atomically and off main's event loop (../atomicFile;
 * `saved()` tells when it is in the file). Read tolerantly: a field that is missing or invalid
 * takes its default and the others are kept; a file that is not JSON at all is set aside as
 * `settings.json.corrupt` (so nothing is lost) and the defaults apply.
 */
import { readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { AtomicFile } from '../atomicFile'
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
  private readonly out: AtomicFile

  constructor(
    dir: string,
    private readonly log: (message: string, err?: unknown) => void = () => undefined
  ) {
    this.file = join(dir, SETTINGS_FILE)
    this.out = new AtomicFile(this.file, () => `${JSON.stringify(this.get(), null, 2)}\n`)
  }

  get(): Settings {
    if (!this.current) this.current = this.read()
    return { ...this.current }
  }

  set(patch: SettingsPatch): Settings {
    const valid = SettingsPatch.parse(patch)
    const given = Object.fromEntries(Object.entries(valid).filter(([, v]) => v !== undefined))
    const next: Settings = { ...this.get(), ...given }
    this.current = next
    this.out.save()
    for (const l of [...this.listeners]) {
      try {
        l({ ...next })
      } catch (e) {
        this.log('A settings listener failed', e)
      }
    }
    return { ...next }
  }

  /** Resolves once every change so far is in the file; rejects when the last write failed. */
  saved(): Promise<void> {
    return this.out.saved()
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
}
