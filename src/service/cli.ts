/**
 * `npm run service -- --port 8787 --data <dir>`: runs the embedded service on its own.
 * Port 0 picks a free port; the URL is printed. SIGINT/SIGTERM close it cleanly.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { API_PREFIX, startService } from './index'

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string', default: './service-data' },
      'token-ttl': { type: 'string' },
      help: { type: 'boolean', default: false }
    }
  })
  if (values.help) {
    process.stdout.write(
      'Usage: npm run service -- [--port 8787] [--host 127.0.0.1] [--data DIR] [--token-ttl SECONDS]\n'
    )
    return
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, got ${values.port}`)
  const ttl = values['token-ttl'] === undefined ? undefined : Number(values['token-ttl'])
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1))
    throw new Error('--token-ttl must be a positive integer')
  const service = await startService({
    host: values.host,
    port,
    dataDir: resolve(values.data),
    ...(ttl !== undefined ? { tokenTtlSeconds: ttl } : {}),
    logger: (line) => process.stderr.write(`${line}\n`)
  })
  process.stdout.write(`Agent Management Service listening on ${service.url}${API_PREFIX}\n`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    process.stderr.write(`[service] ${signal}: closing\n`)
    service.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`[service] close failed: ${String(e)}\n`)
        process.exit(1)
      }
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
})
