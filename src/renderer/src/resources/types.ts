import type { Component } from 'vue'
import type { AppErrorData } from '../../../shared/errors'
import type { Channel } from '../../../shared/ipc'
import type { ListQueryOptions } from '../composables/useListQuery'
import type { LinkPayload } from '../components/link/dnd'

/** What the generic list page needs of a resource's Pinia store (its state, unwrapped). */
export interface ListStore<T> {
  readonly items: T[]
  readonly loading: boolean
  readonly loaded: boolean
  readonly offline: boolean
  readonly syncedAt: string | null
  readonly catalogue: boolean
  readonly error: AppErrorData | null
  load(): Promise<void>
  find(id: string): T | undefined
  get(id: string): Promise<{ offline: boolean; syncedAt: string | null }>
}

/** What a write answers (done now, or queued while offline), and the item it made if any. */
export interface WriteOutcome {
  status: 'done' | 'queued'
  data?: { id: string } | null
}

/** How one row of the list shows an item. */
export interface RowDescriptor<T> {
  /** The row's main text. */
  title: (t: T) => string
  /** A small rounded tag after the title (the item's type). */
  badge?: (t: T) => string
  /** Small dim text after the title (before the date). */
  meta?: (t: T) => string
  /** `meta` is shown as code (a masked token). */
  metaCode?: boolean
  /** The row's tooltip. */
  hover?: (t: T) => string | null | undefined
  /** Rows drag onto agents to link them (documents, tools). */
  drag?: LinkPayload['kind']
  /** The row's date (default: `createdAt`). */
  date?: (t: T) => string | null | undefined
}

/**
 * A resource as the renderer shows it: its list (row, search, filters, sorts), where
 * its create form and detail pane come from, and how a create is sent. One descriptor per
 * resource in `src/renderer/src/resources/`; the generic `ResourceListPage` renders any of them.
 *
 * Its words (title, "New …", empty list, not found, hint) are messages in
 * `i18n/locales/<locale>/resources.json` under its `testid`, so they follow the language.
 *
 * Descriptors stay free of zod: they are read at first paint. The form and detail components
 * (which bring the schemas) are loaded when first shown.
 */
export interface ResourceDescriptor<T extends { id: string }, C = never> {
  /** The page's route, `/documents`; an item is `/documents/:id`. */
  path: string
  /** For messages: "document" / "documents". */
  noun: string
  plural: string
  /** Test ids: `<testid>-list`, `<testid>-row`, `data-<testid>-id`. */
  testid: string
  useStore: () => ListStore<T>
  /** Search, type filter, tag filter and sorts (useListQuery). */
  query: ListQueryOptions<T>
  /** Offer the type filter. */
  typeFilter?: boolean
  /** The search field searches descriptions, not names. */
  searchByDescription?: boolean
  row: RowDescriptor<T>
  /** The operation creating needs; where the server does not offer it the button is disabled. */
  createChannel?: Channel
  /** The operation listing needs, where a server may not offer it: items are then opened by id. */
  listChannel?: Channel
  /** The detail pane's placeholder offers a create button. */
  placeholderCreate?: boolean
  /** Sends a create; `label` names it in the outbox when queued. */
  create: (input: C) => Promise<WriteOutcome>
  createLabel: (input: C) => string
  /** The create form reports its end itself (`done`), e.g. after showing a new token once. */
  createEndsOnDone?: boolean
  /** Saved create drafts (localStorage key); none for secrets. */
  draftKey?: string
  /** The detail pane's prop that takes the item ("document"). The create form and the detail pane
   * are in ./parts, apart from the descriptor: they read it. */
  detailProp: string
  /** The detail pane is made anew for each item (it holds per-item state, e.g. a revealed value). */
  detailKeyed?: boolean
  /** Asks for the selected item even when the list holds it. Default true. */
  refreshSelected?: boolean
  openErrorText?: (err: AppErrorData, id: string) => string
  notifyListError?: (err: AppErrorData) => boolean
}

/** One field of a resource's form, as the generic form renders it (bound to `model[key]`). */
export interface FormField {
  key: string
  label: string
  /** `custom`: rendered by the resource's own component (its errors still belong to the field). */
  kind: 'text' | 'textarea' | 'select' | 'json' | 'custom'
  placeholder?: string
  /** select: the values offered; a value the server sent outside them is shown as unknown. */
  options?: readonly string[]
  /** textarea: autosize rows; json: editor rows. */
  rows?: { min: number; max: number } | number
  /** textarea in a monospace font, without spellcheck. */
  mono?: boolean
  /** Fields with the same `row` stand side by side; `narrow` ones take a fixed width. */
  row?: number
  narrow?: boolean
  /** json: the message that stops a save while its text is not valid JSON, and the save button's hint. */
  invalidJson?: string
  invalidJsonHint?: string
}

/** The generic detail pane's header and delete, for one resource. */
export interface DetailDescriptor {
  /** `<testid>-detail`, `data-<testid>-id`. */
  testid: string
  /** In messages: "Delete tool “X”", "Tool deleted". */
  noun: string
  /** "This server does not offer deleting <plural>." */
  plural: string
  /** Where to go after a delete. */
  path: string
  deleteChannel: Channel
  /** The delete confirmation has its own detail (`resources.<testid>.confirmNote`; default "This cannot be undone."). */
  confirmNote?: boolean
  /** The Created / Updated / id line under the title. */
  dates?: boolean
}

type Write = Promise<{ status: 'done' | 'queued' }>
/** What an edit-form detail pane needs of the resource's store. */
export interface EditStore {
  update: (id: string, patch: never) => Write
  remove: (id: string) => Write
}

/** A detail pane that is the resource's edit form (FormDetail): header and delete, then the form. */
export interface EditPane {
  pane: DetailDescriptor
  useStore: () => EditStore
  /** The edit form (the resource's create form, given the item). */
  form: Component
  /** Show the item's type as a tag after the title. */
  badge?: boolean
}
