/**
 * Which transfer dialog is open (Export…, Import…, Copy to profile…) and for which agents: opened
 * from the File menu, the command palette and an agent's pane; the app shell shows it.
 */
import { shallowRef } from 'vue'

export interface TransferRequest {
  kind: 'export' | 'import' | 'copy'
  /** The agents it is about (export: only these with what they use; copy: these). */
  agentIds?: string[]
  /** Their names, for the dialog's words. */
  names?: string[]
}

export const transferDialog = shallowRef<TransferRequest | null>(null)

export function openTransfer(request: TransferRequest): void {
  transferDialog.value = request
}
