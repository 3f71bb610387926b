/**
 * A list leaves main for the page without the owner each of its items embeds.
 *
 * The service (like the origin) embeds the item's owner, the signed-in user, in every agent,
 * document, tool and link (`"user":{"id":…,"email":…,…}`, and again in an agent's document): about
 * 290 of an agent's ~890 characters. The page never reads it (it knows its user from the session),
 * yet parsed it 10,000 times a list: the page got 10,000 agents 132–150 ms after asking, against
 * 113–120 without it (2026-11-30, a probe of `main.agents.list.ipc`'s path). So a list held as text
 * (a server's answer, as main remembers it) leaves with every copy of that text cut out of its
 * items, a piece at a time as they leave (`jsonParts`). Main's own copy, the cache and every other
 * answer (an item's GET, a list read from the cache as it comes) keep it.
 *
 * The owner's text is found in the first items: the object under `"user"` whose `id` is the item's
 * `userId`, followed by a comma (so the object it is cut from stays valid JSON). A quote in a JSON
 * string is escaped, so that text, keys and all, can only be the JSON itself, never inside a value.
 */
import { ComingListText, JSON_PART_CHARS, ListText } from './offline/listText'
import type { JsonParts } from '../shared/ipc'

/** Items looked at for the owner's text. */
const LOOK = 8

/** `value` (an answer) with its list of texts (`data`) leaving without its items' owner. */
export function ownerless(value: unknown): unknown {
  const data = (value as { data?: unknown } | null)?.data
  // A list still being read from the cache is sent as the bytes SQLite joins: it keeps it.
  if (!(data instanceof ListText) || data instanceof ComingListText) return value
  const cut = ownerText(data.texts)
  return cut === null ? value : { ...(value as object), data: new CutListText(data.texts, cut) }
}

/** The text `"user":{…},` of the owner one of the first items embeds, or null. */
export function ownerText(texts: readonly string[]): string | null {
  for (const text of texts.slice(0, LOOK)) {
    let userId: unknown
    try {
      userId = (JSON.parse(text) as { userId?: unknown }).userId
    } catch {
      continue
    }
    if (typeof userId !== 'string') continue
    const at = text.indexOf(`"user":{"id":${JSON.stringify(userId)}`)
    if (at < 1 || (text[at - 1] !== ',' && text[at - 1] !== '{')) continue
    const end = objectEnd(text, at + '"user":'.length)
    if (end > 0 && text[end + 1] === ',') return text.slice(at, end + 2)
  }
  return null
}

/** The index of the `}` that closes the object opening at `start`, or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      // A string: to its closing quote, past escapes.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++
    } else if (c === 0x7b || c === 0x5b) depth++
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return c === 0x7d ? i : -1
  }
  return -1
}

/** A list held as text whose items leave (`jsonParts`) with every copy of `cut` cut out. */
class CutListText<T> extends ListText<T> {
  constructor(
    texts: readonly string[],
    private readonly cut: string
  ) {
    super(texts)
  }

  override jsonParts(from = 0, to = this.ready, partChars = JSON_PART_CHARS): JsonParts {
    const cut = this.cut
    const texts = this.texts
      .slice(from, Math.min(to, this.length))
      .map((text) => (text.includes(cut) ? text.replaceAll(cut, '') : text))
    return new ListText(texts).jsonParts(0, texts.length, partChars)
  }
}
