/**
 * The embedded service in a temp data dir with one account holding `agents` agents and `tools`
 * tools, made through the app's API client: for tests of how the client reads lists.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startService } from '../../src/service'
import { createApiClient, memoryCapabilityStore } from '../../src/main/api/client'

const llm = { provider: 'openai', model: 'gpt-4o' }

/** The service, the account's token, an API client signed in to it, and `close()`. */
export async function seededService(email: string, agents: number, tools = 0) {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-desk-seeded-'))
  const service = await startService({ dataDir, port: 0, scryptCost: 16, logger: () => {} })
  const setup = createApiClient({
    baseUrl: service.url,
    getToken: () => null,
    capabilities: memoryCapabilityStore()
  })
  await setup.signUp({ email, password: 'correct-horse', name: 'P' })
  const token = (await setup.signIn({ email, password: 'correct-horse' })).token
  const api = createApiClient({
    baseUrl: service.url,
    getToken: () => token,
    capabilities: memoryCapabilityStore()
  })
  for (let i = 0; i < agents; i++)
    await api.agents.create({ name: `Agent ${i}`, type: 'REACT', llm, hasMemory: false })
  for (let i = 0; i < tools; i++) await api.tools.create({ name: `Tool ${i}`, type: 'SEARCH' })
  return {
    service,
    token,
    api,
    async close() {
      await service.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
