/**
 * Lets the SQLite driver close the files of closed connections. The driver (libsql 0.5) closes a
 * connection's file only once the collector has taken every statement prepared on it
 * (tursodatabase/libsql-js#228), in tasks after the collection; until then the file stays open,
 * and Windows renames no open file. So a full collection is made now (V8's `gc`, reached by
 * turning its flag on for as long as it takes to make a context that has it), then those tasks
 * are let run. The app's main process does the same for its cache files (src/main/offline/
 * storeFiles.ts): the layers share no Node code.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | undefined

export async function letGoOfClosedFiles(): Promise<void> {
  if (!collect) {
    setFlagsFromString('--expose-gc')
    try {
      collect = runInNewContext('gc') as () => void
    } finally {
      setFlagsFromString('--no-expose-gc')
    }
  }
  collect()
  // The driver's finalizers run in tasks after the collection, not in it: this leaves them a few.
  await new Promise<void>((resolve) => setTimeout(resolve, 10))
}
