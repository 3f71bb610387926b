/**
 * Main's longest block during a first list while another program keeps the disk busy: a child
 * process writes a file of 64 MB and syncs it to disk, again and again (as a copy of a large file,
 * a backup or a build would). A sync to disk then waits behind that program's writes: 40–130 ms
 * where it takes 1–12 ms on an idle disk. The cache's write of a first list leaves its syncs to a
 * thread (src/main/offline/checkpoints.ts); before it did, main made them itself and this block
 * was 60–194 ms (12 runs, median 135, 2026-11-30), most of it main asleep in them.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Blocked, longestBlock } from './blocks'

/** Writes 64 MB to a new file (as `dd` does, the file cut to nothing first) and syncs it, until killed. */
const WRITER = `
const fs = require('node:fs')
const chunk = Buffer.alloc(1 << 20, 1)
let told = false
for (;;) {
  const fd = fs.openSync(process.argv[1], 'w')
  for (let i = 0; i < 64; i++) fs.writeSync(fd, chunk)
  if (!told) {
    process.stdout.write('writing\\n')
    told = true
  }
  fs.fsyncSync(fd)
  fs.closeSync(fd)
}
`

/** Runs `fn` while a child process keeps the disk that holds the temporary folder busy. */
export async function withBusyDisk<T>(fn: () => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-desk-bench-disk-'))
  const child = spawn(process.execPath, ['-e', WRITER, join(dir, 'load.bin')], {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve())
      child.once('exit', (code) => reject(new Error(`the disk's writer ended (${code})`)))
    })
    return await fn()
  } finally {
    child.kill('SIGKILL')
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The longest block of each of `runs` first lists (a fresh session before each, `fresh`, untimed)
 * with the disk busy, each list's time, and the longest block of the sign-out that then ends the
 * session and clears its cache (`end`: the store's last checkpoint and close, its files deleted),
 * the disk still busy. Before a store closed on a thread (offline/closeThread.ts), main made that
 * checkpoint's syncs itself: 25–98 ms a sign-out (12 runs, 2026-11-30), 4–11 after.
 */
export async function firstListsOnBusyDisk(
  fresh: () => Promise<void>,
  list: () => Promise<unknown>,
  end: () => Promise<unknown>,
  runs: number
): Promise<{ blocks: Blocked[]; ms: number[]; ends: Blocked[] }> {
  const blocks: Blocked[] = []
  const ms: number[] = []
  const ends: Blocked[] = []
  for (let r = 0; r < runs; r++) {
    await fresh()
    await withBusyDisk(async () => {
      const t0 = performance.now()
      const [blocked] = await longestBlock(list)
      ms.push(performance.now() - t0)
      blocks.push(blocked)
      ends.push((await longestBlock(end))[0])
    })
  }
  return { blocks, ms, ends }
}
