/** German as one chunk, loaded when German is in use: every area's messages by area name. */
const files = import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' })

export default Object.fromEntries(
  Object.entries(files).map(([path, m]) => [path.slice(2, -'.json'.length), m])
)
