/** What the command palette lists from the offline cache (`palette.items`): names, not whole items. */
export const PALETTE_KINDS = ['agents', 'documents', 'tools', 'prompts', 'tags', 'apiTokens'] as const
export type PaletteKind = (typeof PALETTE_KINDS)[number]

export interface PaletteItem {
  kind: PaletteKind
  id: string
  /** Its name (an API token, which has none: its description). */
  name: string
  /** The item's description (agents' type, tools' and prompts' description), when it has one. */
  description: string | null
}
