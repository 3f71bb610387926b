#!/usr/bin/env node
// Merges the latest-mac.yml files that per-architecture macOS builds write (each lists only its own
// zip and dmg) into the one feed electron-updater reads: electron-updater picks the arm64 entries on
// Apple silicon and the others on Intel, so both must be in `files`.
//   node resources/scripts/merge-mac-feed.mjs arm64/latest-mac.yml x64/latest-mac.yml > latest-mac.yml
// No YAML library: electron-builder writes this file in one fixed shape, checked here strictly.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Splits a feed into its top-level lines and the text of each `files` entry. */
function parseFeed(text, label) {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const top = []
  const entries = []
  let inFiles = false
  for (const line of lines) {
    if (line.trim() === '') continue
    if (line === 'files:') {
      if (inFiles || entries.length > 0) throw new Error(`${label}: "files:" appears twice`)
      inFiles = true
      top.push(line)
    } else if (inFiles && line.startsWith('  - ')) {
      entries.push([line])
    } else if (inFiles && line.startsWith('    ') && entries.length > 0) {
      entries[entries.length - 1].push(line)
    } else if (/^[A-Za-z][\w]*:/.test(line)) {
      inFiles = false
      top.push(line)
    } else {
      throw new Error(`${label}: unexpected line in a latest-mac.yml: ${JSON.stringify(line)}`)
    }
  }
  const version = top.find((l) => l.startsWith('version:'))
  if (!version) throw new Error(`${label}: no version line`)
  if (entries.length === 0) throw new Error(`${label}: no files listed`)
  return { top, entries: entries.map((e) => e.join('\n')), version: version.slice('version:'.length).trim() }
}

const urlOf = (entry) => /^ {2}- url: (.+)$/m.exec(entry)?.[1]?.trim() ?? entry

/**
 * One feed from several: the first feed's top-level fields (version, path, sha512, releaseDate),
 * and the files of all of them, each url once. Feeds of different versions are refused.
 * @param {{ label: string, text: string }[]} feeds
 * @returns {string}
 */
export function mergeMacFeeds(feeds) {
  if (feeds.length === 0) throw new Error('merge-mac-feed: no feeds given')
  const parsed = feeds.map((f) => parseFeed(f.text, f.label))
  const first = parsed[0]
  for (const [i, p] of parsed.entries()) {
    if (p.version !== first.version) {
      throw new Error(
        `${feeds[i].label}: version ${p.version} differs from ${feeds[0].label}'s ${first.version}`
      )
    }
  }
  const seen = new Set()
  const files = []
  for (const p of parsed) {
    for (const e of p.entries) {
      if (seen.has(urlOf(e))) continue
      seen.add(urlOf(e))
      files.push(e)
    }
  }
  const out = []
  for (const line of first.top) {
    out.push(line)
    if (line === 'files:') out.push(...files)
  }
  return out.join('\n') + '\n'
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const paths = process.argv.slice(2)
  try {
    process.stdout.write(mergeMacFeeds(paths.map((p) => ({ label: p, text: readFileSync(p, 'utf8') }))))
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e))
    process.exit(1)
  }
}
