import { computed, ref, shallowRef } from 'vue'
import { i18n } from '../../i18n'

/** The drag data type for "link this document/tool to an agent". */
export const LINK_MIME = 'application/x-agent-desk-link'

export interface LinkPayload {
  kind: 'document' | 'tool'
  id: string
  name: string
}

/**
 * The payload being dragged from this window. During dragover the browser hides dataTransfer
 * data (only its types are visible), so the hint "Drop to link <name>" reads it from here.
 */
const current = shallowRef<LinkPayload | null>(null)
export const currentDrag = computed(() => current.value)

export function parseLinkPayload(raw: string | null | undefined): LinkPayload | null {
  if (!raw) return null
  try {
    const v: unknown = JSON.parse(raw)
    if (!v || typeof v !== 'object') return null
    const o = v as Record<string, unknown>
    if ((o.kind !== 'document' && o.kind !== 'tool') || typeof o.id !== 'string' || !o.id) return null
    return { kind: o.kind, id: o.id, name: typeof o.name === 'string' ? o.name : o.id }
  } catch {
    return null
  }
}

export function startLinkDrag(e: DragEvent, payload: LinkPayload): void {
  current.value = payload
  if (!e.dataTransfer) return
  e.dataTransfer.setData(LINK_MIME, JSON.stringify(payload))
  e.dataTransfer.setData('text/plain', `${payload.kind}: ${payload.name}`)
  e.dataTransfer.effectAllowed = 'link'
}

export function endLinkDrag(): void {
  current.value = null
}

function carriesLink(e: DragEvent): boolean {
  const types = e.dataTransfer?.types
  return !!types && Array.from(types).includes(LINK_MIME)
}

/**
 * Drop-target behaviour for an element: `active` while a link payload hovers it, `hint` to show,
 * and `target` to bind on the element (`v-bind="drop.target.value"`: the four drag handlers and
 * `data-drop-active`). `onDrop` receives the parsed payload.
 */
export function useLinkDropTarget(onDrop: (p: LinkPayload) => void) {
  const active = ref(false)
  let depth = 0
  const hint = computed(() => {
    const p = current.value
    return p ? i18n.global.t('links.dropToLinkNamed', { name: p.name }) : i18n.global.t('links.dropToLink')
  })

  function dragenter(e: DragEvent): void {
    if (!carriesLink(e)) return
    e.preventDefault()
    depth++
    active.value = true
  }
  function dragover(e: DragEvent): void {
    if (!carriesLink(e)) return
    e.preventDefault()
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'link'
    active.value = true
  }
  function dragleave(): void {
    depth = Math.max(0, depth - 1)
    if (depth === 0) active.value = false
  }
  function drop(e: DragEvent): void {
    if (!carriesLink(e)) return
    e.preventDefault()
    depth = 0
    active.value = false
    const p = parseLinkPayload(e.dataTransfer?.getData(LINK_MIME)) ?? current.value
    current.value = null
    if (p) onDrop(p)
  }
  const target = computed(() => ({
    'data-drop-active': active.value ? 'true' : undefined,
    onDragenter: dragenter,
    onDragover: dragover,
    onDragleave: dragleave,
    onDrop: drop
  }))
  return { active, hint, target }
}
