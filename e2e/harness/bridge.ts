/**
 * The page side of the web harness: JavaScript source that installs `window.agentDesk` in Chromium
 * with the SAME `buildDeskApi` the preload uses, over fetch (invoke) and EventSource (events)
 * instead of Electron IPC. Served as /__bridge/bridge.js, before the renderer's own scripts.
 */
import { CHANNELS, EVENT_NAMES, buildDeskApi } from '../../src/shared/ipc'

export function bridgeScript(): string {
  return `(() => {
  'use strict';
  // Run through tsx (the bench, the screenshots), esbuild's keepNames wraps a named function
  // constant in the copied source in __name(), a helper of the bundle it came from.
  const __name = (f) => f;
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
  // What the specs wait on instead of sleeping (e2e/support/ui.ts settled()): calls in flight, calls done.
  const traffic = { inFlight: 0, done: 0 };
  Object.defineProperty(window, '__agentDeskBridge', { value: traffic });
  const send = async (channel, input, callId) => {
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
    if (res.status === 413) {
      return { ok: false, error: { kind: 'validation', code: 'input_too_large', message: 'The request is too large: nothing was saved' } };
    }
    if (!res.ok) {
      return { ok: false, error: { kind: 'internal', message: 'The app core refused the call (' + res.status + ').' } };
    }
    return res.json();
  };
  const invoke = async (channel, input, callId) => {
    traffic.inFlight++;
    try {
      return await send(channel, input, callId);
    } finally {
      traffic.inFlight--;
      traffic.done++;
    }
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
