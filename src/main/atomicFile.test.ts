/**
 * The app's small files are written whole, off the event loop, one write at a time
 * (atomicFile.ts): real files in a temporary folder.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/support/tempDirs'
import { AppError } from '../shared/errors'
import { AtomicFile, savedOrTold } from './atomicFile'

const temp = () => tempDir('agent-desk-atomic-')

/** An AtomicFile whose text is `state.text`, counting how often the text was taken (one per write). */
function counted(file: string, state: { text: string }) {
  const taken: string[] = []
  const out = new AtomicFile(file, () => {
    taken.push(state.text)
    return state.text
  })
  return { out, taken }
}

describe('AtomicFile', () => {
  it('writes the saves of one turn in one write, after save() has returned', async () => {
    const dir = temp()
    const file = join(dir, 'a.json')
    const state = { text: '' }
    const { out, taken } = counted(file, state)
    for (let i = 1; i <= 20; i++) {
      state.text = `{"n":${i}}`
      out.save()
    }
    expect(existsSync(file)).toBe(false)
    await out.saved()
    expect(readFileSync(file, 'utf8')).toBe('{"n":20}')
    expect(taken).toEqual(['{"n":20}'])
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['a.json'])
  })

  it('saves made while a write runs go together in the next one, with the text as it is then', async () => {
    const dir = temp()
    const file = join(dir, 'a.json')
    const state = { text: 'one' }
    const { out, taken } = counted(file, state)
    out.save()
    // Let the first write take its text and start.
    await Promise.resolve()
    await Promise.resolve()
    expect(taken).toEqual(['one'])
    for (const t of ['two', 'three', 'four']) {
      state.text = t
      out.save()
    }
    await out.saved()
    expect(taken).toEqual(['one', 'four'])
    expect(readFileSync(file, 'utf8')).toBe('four')
  })

  it('creates its folder, private, when it is not there', async () => {
    const dir = join(temp(), 'new', 'userData')
    const out = new AtomicFile(join(dir, 'a.json'), () => 'x')
    out.save()
    await out.saved()
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('x')
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700)
  })

  it('a failed write is told by saved() and leaves the old file and no temporary one; the next save recovers', async () => {
    const dir = temp()
    const file = join(dir, 'a.json')
    writeFileSync(file, 'old')
    let fail = true
    const out = new AtomicFile(file, () => {
      // Text that cannot be made (as JSON.stringify of a cycle): the write stops before the rename.
      if (fail) throw new TypeError('Converting circular structure to JSON')
      return 'new'
    })
    out.save()
    await expect(out.saved()).rejects.toThrow(/circular/)
    expect(readFileSync(file, 'utf8')).toBe('old')
    // Still failed: saved() keeps telling until a write succeeds.
    await expect(out.saved()).rejects.toThrow(/circular/)
    fail = false
    out.save()
    await out.saved()
    expect(readFileSync(file, 'utf8')).toBe('new')
    expect(readdirSync(dir)).toEqual(['a.json'])
  })

  it('a rename that fails removes its temporary file', async () => {
    const dir = temp()
    const file = join(dir, 'a.json')
    // A folder where the file goes.
    mkdirSync(file)
    const out = new AtomicFile(file, () => 'x')
    out.save()
    await expect(out.saved()).rejects.toMatchObject({ code: expect.stringMatching(/^E/) })
    expect(readdirSync(dir)).toEqual(['a.json'])
    rmSync(file, { recursive: true })
    out.save()
    await out.saved()
    expect(readFileSync(file, 'utf8')).toBe('x')
  })
})

describe('savedOrTold', () => {
  const failed = (code: string) =>
    Promise.reject(Object.assign(new Error(`${code}: failed, rename '/home/someone/a.tmp'`), { code }))

  it('tells a full disk or a folder without permission in words, without the path', async () => {
    const full = await savedOrTold('Your settings', failed('ENOSPC')).catch((e: unknown) => e)
    expect(AppError.is(full)).toBe(true)
    expect((full as AppError).message).toBe(
      'Your settings could not be saved: the disk is full. The change applies until Agent Desk quits.'
    )
    const denied = await savedOrTold('Your server profiles', failed('EACCES')).catch((e: unknown) => e)
    expect((denied as AppError).message).toMatch(/^Your server profiles could not be saved: no permission/)
    expect((denied as AppError).message).not.toMatch(/home|EACCES/)
  })

  it('throws any other failure as it is (the core logs it; the page gets its safe message)', async () => {
    const other = await savedOrTold('Your settings', failed('EISDIR')).catch((e: unknown) => e)
    expect(AppError.is(other)).toBe(false)
    expect(other).toMatchObject({ code: 'EISDIR' })
    await expect(savedOrTold('Your settings', Promise.resolve())).resolves.toBeUndefined()
  })
})
