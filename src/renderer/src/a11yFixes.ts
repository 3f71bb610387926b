/**
 * Fixes for accessibility faults of the UI library that no prop reaches: naive-ui's NCard renders
 * its title in two nested `role="heading"` elements without `aria-level` (a heading needs one;
 * axe: aria-required-attr). The outer one is made a plain group and the inner one a level-3
 * heading, as cards appear under a page's h2. Done as nodes are added (cards in dialogs and panes
 * come and go); other additions are skipped with one `matches`/`querySelector` each.
 */
const SELECTOR = '.n-card-header[role="heading"]'

function fix(root: Element): void {
  const headers = root.matches(SELECTOR) ? [root] : [...root.querySelectorAll(SELECTOR)]
  for (const h of headers) {
    h.setAttribute('role', 'group')
    const main = h.querySelector('.n-card-header__main[role="heading"]')
    if (main && !main.hasAttribute('aria-level')) main.setAttribute('aria-level', '3')
  }
}

export function installA11yFixes(doc: Document = document): () => void {
  fix(doc.body)
  const observer = new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) if (n.nodeType === 1 && (n as Element).querySelector) fix(n as Element)
  })
  observer.observe(doc.body, { childList: true, subtree: true })
  return () => observer.disconnect()
}
