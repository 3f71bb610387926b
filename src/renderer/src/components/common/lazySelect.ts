/** naive-ui's select on its own: ListFilters loads it after the first paint (see there). */
export { NSelect } from 'naive-ui'
