/** The service on a worker thread (thread.ts), run from the test build of out/main/serviceThread.cjs. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../test/support/mainCore'
import { testServiceThread } from '../../test/support/serviceThread'
import { startServiceOnThread, type ThreadService } from './thread'

const running: ThreadService[] = []
afterEach(async () => {
  for (const s of running.splice(0)) await s.close().catch(() => undefined)
})

describe('the service on a worker thread', () => {
  it('forwards its log lines, and serves', async () => {
    const lines: string[] = []
    const dataDir = tempDir('agent-desk-thread-')
    const svc = await startServiceOnThread(
      { dataDir, scryptCost: 16, logger: (line) => lines.push(line) },
      testServiceThread()
    )
    running.push(svc)
    expect(svc.worker.threadId).toBeGreaterThan(0)
    expect(lines).toContain(`[service] listening on ${svc.url}/api/v1 (data: ${dataDir})`)
    const r = await fetch(`${svc.url}/api/v1/agents`)
    expect(r.status).toBe(401)
  })

  it("rejects a failed start with the service's own error, its name kept", async () => {
    const dataDir = join(tempDir('agent-desk-thread-'), 'taken')
    writeFileSync(dataDir, 'a file, not a folder')
    const start = startServiceOnThread(
      { dataDir, scryptCost: 16, logger: () => undefined },
      testServiceThread()
    )
    await expect(start).rejects.toMatchObject({
      name: 'DataDirError',
      message: expect.stringContaining('is a file, not a folder')
    })
  })

  it('closes: the thread ends, and later calls are refused', async () => {
    const svc = await startServiceOnThread(
      { dataDir: tempDir('agent-desk-thread-'), scryptCost: 16, logger: () => undefined },
      testServiceThread()
    )
    const ended = new Promise<number>((resolve) => svc.worker.once('exit', resolve))
    await svc.close()
    await ended
    await expect(svc.localSession({ email: 'a@b.c', name: 'A' })).rejects.toThrow(/stopped/)
    await expect(fetch(`${svc.url}/api/v1/agents`)).rejects.toThrow()
  })
})
