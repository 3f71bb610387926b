/** The session token's place in the system keychain, one entry per profile. */
import { AppError } from '../shared/errors'
import type { Keychain } from './keychain'

export const tokenAccount = (profileId: string) => `session:${profileId}`

export class TokenVault {
  constructor(
    private readonly keychain: Keychain,
    private readonly log: (message: string, err?: unknown) => void
  ) {}

  /** The stored token, or null (a keychain that cannot be read is logged, not fatal). */
  async read(profileId: string): Promise<string | null> {
    try {
      return await this.keychain.get(tokenAccount(profileId))
    } catch (e) {
      this.log('Could not read the keychain', e)
      return null
    }
  }

  async save(profileId: string, token: string): Promise<void> {
    try {
      await this.keychain.set(tokenAccount(profileId), token)
    } catch (e) {
      this.log('Could not store the session token in the keychain', e)
      throw new AppError({
        kind: 'keychain',
        message: 'The system keychain refused to store your session. Unlock the keychain and try again.'
      })
    }
  }

  async remove(profileId: string): Promise<void> {
    try {
      await this.keychain.delete(tokenAccount(profileId))
    } catch (e) {
      this.log('Could not remove the session token from the keychain', e)
    }
  }
}
