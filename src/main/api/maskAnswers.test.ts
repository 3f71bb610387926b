/**
 * The session token in a success answer (a server or proxy echoing it, even spelt with JSON
 * escapes) is masked before anything is kept; an answer whose text cannot hold it is not walked.
 * Real HTTP: the scripted server of test/servers answers exactly the bytes given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../../../test/servers/scriptedServer'
import { jsonMayHold, MASK, maskSecrets } from '../mask'
import { createApiClient, memoryCapabilityStore } from './client'

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.sig-nature_123'

/** Every character of `s` as a JSON `\uXXXX` escape. */
const escaped = (s: string) =>
  [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')

describe('a success answer that carries the session token', () => {
  let s: ScriptedServer
  beforeAll(async () => {
    s = await startScriptedServer()
  })
  afterAll(() => s.close())

  const listWith = async (description: string) => {
    s.queue.push({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: `{"success":true,"data":[{"id":"a1","name":"Echo","description":"${description}"}]}`
    })
    const client = createApiClient({
      baseUrl: s.url,
      getToken: () => TOKEN,
      capabilities: memoryCapabilityStore()
    })
    return JSON.stringify(await client.agents.list())
  }

  it('is masked as it comes, and when spelt with \\u escapes', async () => {
    for (const spelt of [TOKEN, escaped(TOKEN), `Bearer ${escaped(TOKEN.slice(0, 9))}${TOKEN.slice(9)}`]) {
      const text = await listWith(`seen: ${spelt}`)
      expect(text).not.toContain(TOKEN)
      expect(text).toContain(MASK)
    }
    // Text that cannot hold it comes through as sent.
    expect(await listWith('nothing secret here')).toContain('nothing secret here')
  })

  it('jsonMayHold: true whenever the parsed strings or keys could hold a secret', () => {
    expect(jsonMayHold(`{"a":"${TOKEN}"}`, [TOKEN])).toBe(true)
    expect(jsonMayHold(`{"${TOKEN}":1}`, [TOKEN])).toBe(true)
    expect(jsonMayHold(`{"a":"${escaped('e')}yJ"}`, [TOKEN])).toBe(true)
    expect(jsonMayHold('{"a":"plain"}', [TOKEN])).toBe(false)
    // A secret with a character JSON may escape (`\/`) is always walked for.
    expect(jsonMayHold('{"a":"abc\\/defgh"}', ['abc/defgh'])).toBe(true)
    expect(JSON.stringify(maskSecrets(JSON.parse('{"a":"abc\\/defgh"}'), ['abc/defgh']))).toContain(MASK)
    // Short or missing secrets mask nothing.
    expect(jsonMayHold(`{"a":"short"}`, ['short', null, undefined])).toBe(false)
  })

  it('masks keys and strings deep, copying only what changes', () => {
    const clean = { a: [{ b: 'x' }], c: 'nothing' }
    expect(maskSecrets(clean, [TOKEN])).toBe(clean)
    const dirty = { list: [{ note: `t=${TOKEN}` }, { ok: 1 }], [TOKEN]: 'as a key' }
    const out = maskSecrets(dirty, [TOKEN]) as typeof dirty
    expect(JSON.stringify(out)).not.toContain(TOKEN)
    expect(out.list[0]?.note).toBe(`t=${MASK}`)
    expect(out.list[1]).toBe(dirty.list[1])
  })
})
