/** naive-ui's German texts and date locale: a chunk of their own, loaded when German is chosen. */
export { deDE, dateDeDE } from 'naive-ui'
