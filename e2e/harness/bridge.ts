/**
 * The page side of the web harness: JavaScript source that installs `window.agentDesk` in Chromium
 * with the SAME `buildDeskApi` the preload uses, over fetch (invoke) and EventSource (events)
 * instead of Electron IPC. Served as /__bridge/bridge.js, before the renderer's own scripts.
 */
import { CHANNELS, EVENT_NAMES, buildDeskApi } from '../../src/shared/ipc'

export function bridgeScript(): string {
  return `(() => {
  'use strict';
  const buildDeskApi = ${buildDeskApi.toString()};
  const channels = ${JSON.stringify(CHANNELS)};
  const events = ${JSON.stringify(EVENT_NAMES)};
  const listeners = new Map();
  let source = null;
  const ensureSource = () => {
    if (source) return;
    source = new EventSource('/__bridge/events');
    source.onmessage = (m) => {
      const { event, payload } = JSON.parse(m.data);
      for (const l of listeners.get(event) ?? []) l(payload);
    };
  };
  const invoke = async (channel, input, callId) => {
    let res;
    try {
      res = await fetch('/__bridge/invoke', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel, input, callId })
      });
    } catch (e) {
      return { ok: false, error: { kind: 'internal', message: 'The app core is not running.' } };
    }
    return res.json();
  };
  const subscribe = (event, listener) => {
    ensureSource();
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event).add(listener);
    return () => listeners.get(event).delete(listener);
  };
  window.agentDesk = Object.freeze(buildDeskApi(channels, events, invoke, subscribe, location.hash));
})();
`
}
