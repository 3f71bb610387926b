/** What every IPC handler is given: the session, profiles, cache, sync and desktop services. */
import type { Channel, ChannelParsedInput, ChannelResult, AppInfo } from '../shared/ipc'
import type { AnswerPieces } from './answerPieces'
import type { Answer } from './offline/listText'
import type { CachedApi } from './cachedApi'
import type { ConnectivityMonitor } from './connectivity'
import type { ProfileRegistry } from './profiles'
import type { Desktop } from './desktop/desktop'
import type { LocalWorkspace } from './localWorkspace'
import type { ActiveSession, SessionManager } from './session'
import type { SyncCoordinator } from './sync'

export interface HandlerContext {
  session: SessionManager
  profiles: ProfileRegistry
  cached: CachedApi
  sync: SyncCoordinator
  connectivity: ConnectivityMonitor
  info: AppInfo
  /** The app's data folder (shown in About). */
  userDataDir: string
  openExternal: (url: string) => Promise<void>
  /** Settings and updates (src/main/desktop). */
  desktop: Desktop
  /** The Local workspace (its backups; a copy's target). */
  local: LocalWorkspace
  /** Deadline of one request (a copy's sign-in to its target). */
  fetchTimeoutMs: number
  /** Long lists' answers waiting to leave main in pieces (answers.next). */
  pieces: AnswerPieces
  /** Aborts the running call with this id (calls.cancel); false when none runs. */
  cancelCall(id: string): boolean
  /** The signed-in session for this call (released by the core when the handler returns). */
  lease(): Promise<ActiveSession>
}

export type Handler<C extends Channel> = (
  input: ChannelParsedInput<C>,
  ctx: HandlerContext
) => Promise<Answer<ChannelResult<C>>>
export type Handlers = { [C in Channel]: Handler<C> }
