/**
 * `npm run service -- --port 8787 --data <dir>`: runs the embedded service on its own.
 * Port 0 picks a free port; the URL is printed. SIGINT/SIGTERM close it cleanly.
 * `--tls-cert/--tls-key` serve HTTPS; `--host` on a non-loopback address without them warns
 * (passwords and tokens would cross the network in clear text).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isLoopbackHost } from './guard'
import { API_PREFIX, startService, type ServiceOptions } from './index'

const USAGE =
  'Usage: npm run service -- [--port 8787] [--host 127.0.0.1] [--data DIR] [--token-ttl SECONDS]\n' +
  '                          [--tls-cert cert.pem --tls-key key.pem]\n'

function readPem(flag: string, path: string): Buffer {
  try {
    return readFileSync(path)
  } catch (e) {
    throw new Error(`${flag} ${path} cannot be read: ${e instanceof Error ? e.message : String(e)}`)
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      data: { type: 'string', default: './service-data' },
      'token-ttl': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      help: { type: 'boolean', default: false }
    }
  })
  if (values.help) {
    process.stdout.write(USAGE)
    return
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, got ${values.port}`)
  const ttl = values['token-ttl'] === undefined ? undefined : Number(values['token-ttl'])
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1))
    throw new Error('--token-ttl must be a positive integer')
  const certPath = values['tls-cert']
  const keyPath = values['tls-key']
  if ((certPath === undefined) !== (keyPath === undefined))
    throw new Error('--tls-cert and --tls-key go together: give both or neither')
  const options: ServiceOptions = {
    host: values.host,
    port,
    dataDir: resolve(values.data),
    ...(ttl !== undefined ? { tokenTtlSeconds: ttl } : {}),
    logger: (line) => process.stderr.write(`${line}\n`)
  }
  if (certPath !== undefined && keyPath !== undefined) {
    options.tls = { cert: readPem('--tls-cert', certPath), key: readPem('--tls-key', keyPath) }
  } else if (!isLoopbackHost(values.host)) {
    process.stderr.write(
      `WARNING: --host ${values.host} is not a loopback address and TLS is off: passwords and ` +
        'session tokens will cross the network unencrypted. Give --tls-cert and --tls-key.\n'
    )
  }
  const service = await startService(options)
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
