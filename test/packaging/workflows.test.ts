/**
 * The GitHub Actions workflows cannot run here: lint them with action-validator (the schemas of
 * GitHub workflows, compiled to WebAssembly) and check what they must do.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { validateWorkflow, type ValidationError } from '@action-validator/core'
import { load } from 'js-yaml'
import { SIGNING_VARS } from '../../resources/scripts/dist.mjs'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const WORKFLOWS = ['ci.yml', 'release.yml']
const read = (name: string) => readFileSync(join(root, '.github/workflows', name), 'utf8')

/** Every error, nested ones (oneOf branches) flattened, as "path: detail". */
function flatten(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => {
    const here = `${'path' in e ? e.path : ''}: ${e.detail ?? e.title}`
    const nested = 'states' in e && e.states ? e.states.flatMap((s) => flatten(s.errors)) : []
    return [here, ...nested]
  })
}

type Step = {
  name?: string
  uses?: string
  run?: string
  if?: string
  env?: Record<string, string>
  with?: Record<string, unknown>
}
type Job = {
  'runs-on': string
  needs?: string | string[]
  strategy?: { matrix: Record<string, unknown> }
  steps: Step[]
}
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job> }
const parse = (name: string) => load(read(name)) as Workflow

describe('workflows: action-validator', () => {
  for (const name of WORKFLOWS) {
    it(`${name} is a valid workflow`, () => {
      const state = validateWorkflow(read(name))
      expect(state.actionType).toBe('workflow')
      expect(flatten(state.errors)).toEqual([])
    })
  }

  it('a broken workflow fails (proves the validator is listening)', () => {
    const typo = read('ci.yml').replace('runs-on:', 'run-on:')
    expect(validateWorkflow(typo).errors.length).toBeGreaterThan(0)
    const noJobs = 'name: broken\non: push\n'
    expect(validateWorkflow(noJobs).errors.length).toBeGreaterThan(0)
    const badYaml = 'name: broken\non: [push\njobs: {}\n'
    expect(validateWorkflow(badYaml).errors.length).toBeGreaterThan(0)
  })
})

const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n')
const uses = (job: Job) => job.steps.map((s) => s.uses ?? '')

describe('workflows: ci.yml', () => {
  const ci = parse('ci.yml')
  const test = ci.jobs.test!

  it('runs on push and pull requests, on the three systems, with Node 22', () => {
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']))
    expect(test.strategy?.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest'])
    const node = test.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))
    expect(node?.with).toMatchObject({ 'node-version': 22, cache: 'npm' })
  })

  it("installs what .ci/run installs on Linux, fetches Electron with its own installer, runs the README's npm test", () => {
    const script = runs(test)
    const ciRun = readFileSync(join(root, '.ci/run'), 'utf8')
    for (const pkg of ['libsecret-1-dev', 'gnome-keyring', 'libsecret-tools', 'dbus-x11']) {
      expect(ciRun).toContain(pkg)
      expect(script).toContain(pkg)
    }
    expect(script).toContain('xvfb')
    expect(script).toMatch(/npm ci/)
    expect(script).toContain('node node_modules/electron/install.js')
    expect(script).toMatch(/xvfb-run -a npm test/)
    expect(script).toMatch(/^\s+npm test$/m)
  })

  it('runs bash on every system (.ci/test.sh is bash; Git bash on Windows) and keeps LF endings for prettier', () => {
    expect(read('ci.yml')).toMatch(/defaults:\n\s+run:\n(\s+#.*\n)*\s+shell: bash/)
    expect(runs(test)).toContain('core.autocrlf false')
  })

  it('points the harness project at a browser present on the runner and keeps the Playwright output on failure', () => {
    const testStep = test.steps.find((s) => s.run?.includes('npm test'))
    expect(testStep?.env?.CHROMIUM_PATH).toContain('steps.chrome.outputs')
    const upload = test.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(upload?.if).toBe('failure()')
    expect(String(upload?.with?.path)).toContain('test-results')
  })

  it('builds the unsigned installers of each system with npm run dist', () => {
    const installers = ci.jobs.installers!
    expect(installers.strategy?.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest'])
    expect(runs(installers)).toContain('npm run dist')
  })
})

describe('workflows: release.yml', () => {
  const release = parse('release.yml')
  const build = release.jobs.installers!

  it('runs on version tags and builds every system (each Mac architecture on its own runner)', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } })
    const include = build.strategy?.matrix.include as { os: string; arch: string }[]
    expect(include.map((m) => m.os)).toEqual(
      expect.arrayContaining(['ubuntu-latest', 'windows-latest', 'macos-latest', 'macos-15-intel'])
    )
    expect(
      include
        .filter((m) => m.os.startsWith('macos'))
        .map((m) => m.arch)
        .sort()
    ).toEqual(['arm64', 'x64'])
  })

  it('publishes with npm run dist, the token and every signing secret from the repository secrets', () => {
    const step = build.steps.find((s) => s.run?.includes('npm run dist'))
    expect(step?.run).toContain('npm run dist -- --publish always')
    // Every secret dist.mjs reads (a new one there must reach the workflow too), and the token.
    const secrets = ['GH_TOKEN', ...SIGNING_VARS]
    expect(secrets).toHaveLength(8)
    for (const name of secrets) expect(step?.env?.[name], name).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/)
  })

  it('merges the two macOS feeds with a script that exists, then publishes the draft', () => {
    const publish = release.jobs.publish!
    expect(publish.needs).toBe('installers')
    expect(uses(publish)).toContain('actions/download-artifact@v4')
    const script = runs(publish)
    const used = [...script.matchAll(/node (resources\/scripts\/[\w.-]+\.mjs)/g)].map((m) => m[1]!)
    expect(used).toEqual(['resources/scripts/merge-mac-feed.mjs'])
    for (const file of used) expect(existsSync(join(root, file)), file).toBe(true)
    expect(script).toContain('--draft=false')
  })
})
