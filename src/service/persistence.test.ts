import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import {
  AgentDocumentStrict,
  AgentStrict,
  ApiTokenStrict,
  DocumentStrict,
  ErrorEnvelope,
  SignInResponseStrict,
  TagStrict
} from '../shared'
import { SCHEMA_VERSION } from './resources'
import { call, client, signUp, startTestServer } from '../../test/support/serviceKit'

describe('durability', () => {
  it('keeps users, resources, links, session tokens and API tokens across a restart on the same data dir', async () => {
    const srv = await startTestServer()
    try {
      const u = await signUp(srv.base, 'Durable')
      const tag = TagStrict.parse(
        (await u.api.post('/tags', { name: 'k', color: '#f0f', userId: u.userId })).data
      )
      const agent = AgentStrict.parse(
        (
          await u.api.post('/agents', {
            name: 'Kept',
            type: 'REACT',
            llm: { provider: 'p', model: 'm' },
            tags: [tag.id]
          })
        ).data
      )
      const doc = DocumentStrict.parse(
        (await u.api.post('/documents', { name: 'D', type: 'TXT', url: 'https://e.com/a.txt' })).data
      )
      const link = AgentDocumentStrict.parse(
        (await u.api.post('/agent-documents', { agentId: agent.id, documentId: doc.id })).data
      )
      const apiToken = ApiTokenStrict.parse((await u.api.post('/api-tokens', { description: 'kept' })).data)

      await srv.restart()
      expect(existsSync(join(srv.dataDir, 'service.db'))).toBe(true)
      const api = client(srv.base, u.token) // the old session token still works (secret persisted)
      expect(AgentStrict.parse((await api.get(`/agents/${agent.id}`)).data)).toEqual(agent)
      expect(DocumentStrict.parse((await api.get(`/documents/${doc.id}`)).data)).toEqual(doc)
      expect(AgentDocumentStrict.parse((await api.get(`/agent-documents/${link.id}`)).data).documentId).toBe(
        doc.id
      )
      expect((await client(srv.base, apiToken.token).get('/agents')).status).toBe(200)
      const signIn = await call(srv.base, 'POST', '/auth/sign-in', {
        body: { email: u.email, password: u.password }
      })
      expect(SignInResponseStrict.parse(signIn.data).user.id).toBe(u.userId)

      // Migrations recorded, pragmas in force.
      await srv.service.close()
      const db = new Database(join(srv.dataDir, 'service.db'))
      const version = db.prepare('SELECT version FROM schema_version').get() as { version: number }
      expect(version.version).toBe(SCHEMA_VERSION)
      const mode = db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }
      expect(mode.journal_mode).toBe('wal')
      const secret = db.prepare("SELECT value FROM settings WHERE key = 'session_secret'").get() as {
        value: string
      }
      expect(secret.value.length).toBeGreaterThan(30)
      const hash = db.prepare('SELECT password_hash FROM users WHERE id = ?').get(u.userId) as {
        password_hash: string
      }
      expect(hash.password_hash).toMatch(/^scrypt\$/)
      expect(hash.password_hash).not.toContain(u.password)
      db.close()
      // Re-opening an up-to-date database does not re-run migrations or lose data.
      await srv.restart()
      expect((await client(srv.base, u.token).get(`/agents/${agent.id}`)).status).toBe(200)
    } finally {
      await srv.stop()
    }
  })
})

describe('storage failure', () => {
  it('a locked database answers a logged 500 envelope, loses nothing, and recovers', async () => {
    const srv = await startTestServer({ busyTimeoutMs: 50 })
    const blocker = new Database(join(srv.dataDir, 'service.db'))
    try {
      const u = await signUp(srv.base)
      const body = { name: 'Blocked', type: 'REACT', llm: { provider: 'p', model: 'm' } }
      blocker.exec('BEGIN EXCLUSIVE')
      const r = await u.api.post('/agents', body)
      expect(r.status).toBe(500)
      expect(ErrorEnvelope.parse(r.json).error.code).toBe('internal')
      expect(srv.logs.some((l) => l.includes('POST /api/v1/agents failed'))).toBe(true)
      blocker.exec('ROLLBACK')
      expect((await u.api.get('/agents')).data).toEqual([])
      const ok = await u.api.post('/agents', body)
      expect(AgentStrict.parse(ok.data).name).toBe('Blocked')
    } finally {
      blocker.close()
      await srv.stop()
    }
  })
})

describe('cli', () => {
  it('starts on a free port, creates the data dir, serves, and exits cleanly on SIGTERM', async () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-desk-cli-'))
    const dataDir = join(root, 'nested', 'data')
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000)
        child.stdout.setEncoding('utf8')
        child.stdout.on('data', (c: string) => {
          out += c
          const m = /(http:\/\/127\.0\.0\.1:\d+\/api\/v1)/.exec(out)
          if (m) {
            clearTimeout(timer)
            resolve(m[1] as string)
          }
        })
        child.on('exit', (code) => reject(new Error(`exited early (${code}): ${out}`)))
      })
      expect(existsSync(join(dataDir, 'service.db'))).toBe(true)
      const u = await signUp(url)
      expect((await u.api.get('/agents')).status).toBe(200)
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(root, { recursive: true, force: true })
    }
  })
})
