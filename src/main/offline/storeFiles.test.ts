/**
 * A closed store's files deleted (storeFiles.ts): the driver keeps a closed connection's files open
 * until the collector takes its statements, so what that late close would free is freed here, off
 * main; on Windows, which deletes no open file, the closed store's statements are let go and
 * collected first. Real SQLite files.
 */
import { closeSync, existsSync, fstatSync, openSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { heldPaths } from '../../../test/support/heldFiles'
import { type TempStores, tempStores } from '../../../test/support/offlineStores'
import { listValues } from './listText'
import { releaseClosedFiles, removeStoreFiles } from './storeFiles'

let t: TempStores
beforeEach(() => {
  t = tempStores()
})
afterEach(() => t.cleanup())

const agents = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}`, note: 'x'.repeat(400) }))

/** Whether a second connection can leave WAL mode: only a file's one open connection can. */
function onlyConnection(file: string): boolean {
  const db = new Database(file)
  try {
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('PRAGMA journal_mode = DELETE')
    db.exec('PRAGMA journal_mode = WAL')
    return true
  } catch {
    return false
  } finally {
    db.close()
  }
}

// Windows deletes no open file: there the files are let go first, then deleted (storeFiles.ts).
const deletesOpenFiles = process.platform !== 'win32'

/** A store that has prepared statements on its connection and its readers', then closed. */
async function usedAndClosed() {
  const store = t.open()
  store.cache.putList('agents', '', agents(300), new Date().toISOString())
  const listed = await store.cache.listText('agents', '')
  expect(listed && (await listValues(listed.value)).length).toBe(300)
  expect(store.cache.getList('agents', '')?.value).toHaveLength(300)
  store.drafts.save('agents:new', { name: 'draft' })
  expect(store.outbox.list()).toEqual([])
  await store.closeOffMain()
  return store
}

describe('removeStoreFiles', () => {
  it('the driver keeps a closed connection open while a statement it prepared is alive', () => {
    // Why storeFiles.ts cuts the files first (tursodatabase/libsql-js#228): when this fails, the
    // driver closes at close() and the cut is no longer needed.
    const file = join(t.dir, 'raw.sqlite')
    const db = new Database(file)
    db.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x)')
    const statement = db.prepare('SELECT x FROM t')
    statement.all()
    db.close()
    expect(onlyConnection(file)).toBe(false)
  })

  it('a closed store lets go of its files at the next collection, though the store itself is still held', async () => {
    // What Windows needs before it can delete them. Without closeDb's letting go, the store's
    // statements (held as long as the store is) keep its connection open.
    const store = await usedAndClosed()
    await releaseClosedFiles()
    expect(onlyConnection(t.file)).toBe(true)
    expect(store.file).toBe(t.file)
  })

  it.runIf(process.platform === 'linux')(
    "Windows's way: the closed store's files let go before they are deleted, none left open",
    async () => {
      const store = await usedAndClosed()
      expect(heldPaths().filter((p) => p.startsWith(t.file))).not.toEqual([])
      await removeStoreFiles(t.file, 'win32')
      for (const suffix of ['', '-wal', '-shm', '-journal']) expect(existsSync(t.file + suffix)).toBe(false)
      expect(heldPaths().filter((p) => p.startsWith(t.file))).toEqual([])
      expect(store.file).toBe(t.file)
    }
  )

  it.runIf(deletesOpenFiles)(
    'leaves a closed store nothing to free at its late close: its file and log cut to nothing, then deleted',
    async () => {
      const store = t.open()
      store.cache.putList('agents', '', agents(3000), new Date().toISOString())
      const listed = await store.cache.listText('agents', '')
      expect(listed && (await listValues(listed.value)).length).toBe(3000)
      await store.closeOffMain()
      // The file as the store's connections still hold it (until the collector takes their statements).
      const held = openSync(t.file, 'r')
      try {
        expect(fstatSync(held).size).toBeGreaterThan(1_000_000)
        await removeStoreFiles(t.file)
        for (const suffix of ['', '-wal', '-shm', '-journal']) expect(existsSync(t.file + suffix)).toBe(false)
        expect(fstatSync(held).size).toBe(0)
      } finally {
        closeSync(held)
      }
    }
  )

  it.runIf(deletesOpenFiles)('deletes what is there when the log or the file is already gone', async () => {
    const store = t.open()
    store.cache.putList('agents', '', agents(10), new Date().toISOString())
    await store.closeOffMain()
    rmSync(`${t.file}-wal`, { force: true })
    await removeStoreFiles(t.file)
    expect(existsSync(t.file)).toBe(false)
    await removeStoreFiles(t.file)
  })
})
