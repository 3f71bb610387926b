/**
 * The digest of the bytes a list was read from. The transport marks each list answer (`data`
 * array) with a digest of its body; the endpoints carry it to the items they parse from it (a
 * paged list: the digests of its pages, in order). Same bytes, same items: the cache takes a list
 * whose answer it stored last as stored (offline/cache.ts), with no item compared again.
 * Kept beside the value (a WeakMap), not in it: the items reach the renderer unchanged.
 */
import { createHash } from 'node:crypto'
import { nextTurn } from '../turn'

const digests = new WeakMap<object, string>()

/** The digest of an answer's body. */
export function digestOf(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('base64')
}

/** Bytes hashed per step by `digestInSteps` (~5 ms). */
const DIGEST_STEP = 2 * 1024 * 1024

/**
 * `digestOf` in steps of DIGEST_STEP bytes, with `yieldNow` between them (a long answer; in
 * pieces, as it came: the digest of their bytes one after the other).
 */
export async function digestInSteps(
  body: Uint8Array | readonly Uint8Array[],
  yieldNow: () => Promise<void> = nextTurn
): Promise<string> {
  const hash = createHash('sha256')
  let steps = 0
  for (const piece of body instanceof Uint8Array ? [body] : body) {
    for (let at = 0; at < piece.length; at += DIGEST_STEP) {
      if (steps++ > 0) await yieldNow()
      hash.update(piece.subarray(at, at + DIGEST_STEP))
    }
  }
  return hash.digest('base64')
}

/**
 * The digest of a group of a long answer's list (listGroups.ts) with the group's length in bytes
 * before it (`bytes:digest`): the same group in the next answer is then looked for by its length,
 * with none of its elements scanned (largeAnswer.ts, `knownBytes`).
 */
export async function sizedDigest(text: readonly Uint8Array[]): Promise<string> {
  const bytes = text.reduce((n, t) => n + t.length, 0)
  return `${bytes}:${await digestInSteps(text)}`
}

/** The length in bytes a sized digest tells (none for another digest). */
export function digestBytes(digest: string | undefined): number | undefined {
  const m = digest === undefined ? null : /^(\d+):/.exec(digest)
  return m ? Number(m[1]) : undefined
}

/** Marks `value` as read from an answer with this digest (no mark when `digest` is undefined). */
export function markAnswer<T extends object>(value: T, digest: string | undefined): T {
  if (digest !== undefined) digests.set(value, digest)
  return value
}

/** The digest `value` was marked with, if any. */
export function answerDigest(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? digests.get(value) : undefined
}

/**
 * One digest for the pages of a list, in order; none when a page has none. Never that of an
 * answer read whole, even of one page with the same bytes: pages are read differently (an item
 * met on two pages is kept once), so the same bytes need not give the same items.
 */
export function pagesDigest(pages: readonly (string | undefined)[]): string | undefined {
  if (pages.some((d) => d === undefined)) return undefined
  return createHash('sha256')
    .update(`pages\n${pages.join('\n')}`)
    .digest('base64')
}

/** Answers found to read as themselves: how many are kept (the latest; ~50 bytes each). */
const AS_IS_KEPT = 256
/** By digest, the schema (one of the resources' own, made once) its items read as themselves by. */
const asIsAnswers = new Map<string, object>()

/**
 * Whether an answer with this digest was found to read, every item, as itself by `schema`
 * (`foundAsIs`): the same bytes parse to the same items, which read the same way, so they are not
 * checked again (~1 ms a 1,000 agents).
 */
export function readAsIs(schema: object, digest: string | undefined): boolean {
  return digest !== undefined && asIsAnswers.get(digest) === schema
}

/** Remembers that the answer with this digest read, every item, as itself by `schema`. */
export function foundAsIs(schema: object, digest: string | undefined): void {
  if (digest === undefined) return
  asIsAnswers.delete(digest)
  asIsAnswers.set(digest, schema)
  if (asIsAnswers.size > AS_IS_KEPT) asIsAnswers.delete(asIsAnswers.keys().next().value as string)
}
