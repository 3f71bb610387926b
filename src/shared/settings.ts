/** The user's settings and the update status, as they cross IPC (see src/main/desktop). */
import { z } from 'zod'

export const UpdatesSetting = z.enum(['on', 'off'])
export const ThemeSetting = z.enum(['system', 'light', 'dark'])
export type ThemeSetting = z.infer<typeof ThemeSetting>
/** The interface language: the system's (if the app has it, else English) or one the app has. */
export const LanguageSetting = z.enum(['system', 'en', 'de'])
export type LanguageSetting = z.infer<typeof LanguageSetting>

/** Each setting's schema; the settings file, its defaults and `settings.set` follow this table. */
export const SETTING_FIELDS = {
  updates: UpdatesSetting,
  theme: ThemeSetting,
  language: LanguageSetting
} as const

export const SettingsSchema = z.object(SETTING_FIELDS)
export type Settings = z.infer<typeof SettingsSchema>

/** Any subset of the settings (what `settings.set` takes). */
export const SettingsPatch = SettingsSchema.partial().strict()
export type SettingsPatch = z.infer<typeof SettingsPatch>

export interface SettingsState {
  settings: Settings
  /** What an administrator decides instead of the user (updates off for everyone). */
  managed: { updates: boolean; reason: string | null }
  /** Whether updates are on, all things considered. */
  updatesEnabled: boolean
}

export interface UpdateStatus {
  /**
   * disabled: turned off (Settings or administrator); unconfigured: this build has no update feed;
   * current: up to date; available: a newer version (downloading in the background in the app);
   * downloaded: ready to install on restart; error: the feed could not be read.
   */
  state: 'disabled' | 'unconfigured' | 'current' | 'available' | 'downloaded' | 'error'
  currentVersion: string
  version: string | null
  releaseNotes: string | null
  releaseDate: string | null
  /** One sentence for the user. */
  message: string
  checkedAt: string
}
