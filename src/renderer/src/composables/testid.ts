import type { InputHTMLAttributes } from 'vue'

/** `:input-props="inputTid('field-name')"`: puts data-testid on the native <input>/<textarea> of an NInput. */
export function inputTid(id: string): InputHTMLAttributes {
  return Object.assign({} as InputHTMLAttributes, { 'data-testid': id })
}
