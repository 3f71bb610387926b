/**
 * The floor page of the renderer benchmark: the least a page built with the app's own Vue,
 * naive-ui and virtual list (VirtualRows) must do to show the same rows in the same order (the
 * app's name order, nameOrder.ts). It reads the items from JSON the bench
 * server embeds in the page (`<script id="floor-data">`), and either paints them at once (start
 * floor: the app paints its cached list at start) or mounts an empty list first and sets the data
 * after the first frame, noting when (`__bench.listResolved`, as the bench notes the app's list
 * answer), so "first paint after the data is there" is measured the same way for both.
 * Rows carry the app's test ids; the filter matches lower-cased names, like the app's.
 */
import { createApp } from 'vue'
import { Floor, type FloorData, type Item } from './Floor'

const bench = (window as unknown as { __bench?: { listResolved: Record<string, number> } }).__bench

function readData(): FloorData {
  const el = document.getElementById('floor-data')
  return JSON.parse(el?.textContent ?? '{}') as FloorData
}

const data = readData()
const vm = createApp(Floor, {
  testid: data.testid,
  initial: data.mode === 'start' ? data.items : []
}).mount('#app') as unknown as { set: (items: Item[]) => void }
if (data.mode === 'list') {
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (bench) bench.listResolved[data.resource] = performance.now()
      vm.set(data.items)
    }, 0)
  )
}
