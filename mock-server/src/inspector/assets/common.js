// Shared by the inspector page's modules (README "Inspector"): the page's state, building elements, and calls to
// the control API (/__mock) with the session cookie and the page's header (mock-server/src/inspector/session.ts).
// Text is always set as text, never as HTML: request paths and bodies are whatever clients sent.

// x-teamchat-control: the control API takes a bodiless call that changes something (reset, delete) only with it
// (mock-server/src/http/owner-guard.ts).
const PAGE_HEADER = { 'x-teamchat-inspector': '1', 'x-teamchat-control': '1' };

export const state = {
  realms: [],
  clock: null,
  receivedAt: 0,
  exchanges: [],
  selected: null,
  openDetails: new Set(),
  credentials: new Map(),
  status: new Map(),
  /** The realms as last drawn, times left out. */
  shape: '',
};

/** Builds an element: h('td', { class: 'x', onclick: fn }, 'text', child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child instanceof Node ? child : String(child));
  return el;
}

export const $ = (id) => document.getElementById(id);

/** A realm's time now: its clock ticks with the machine's in system mode (between two pushes of the feed). */
export function realmNow(realm) {
  const ticking = state.clock?.mode === 'system';
  return realm.now + (ticking ? Math.floor((performance.now() - state.receivedAt) / 1000) : 0);
}

export const isoTime = (seconds) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export async function control(method, path, body) {
  const init = { method, headers: { ...PAGE_HEADER }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(`/__mock${path}`, init);
  const answer = await res.json();
  if (answer.result !== 'success') throw new Error(`${answer.code ?? res.status}: ${answer.msg}`);
  return answer;
}

/**
 * Runs a control call from a button; its outcome is shown beside the realm (kept across re-renders of the
 * feed's pushes), never thrown into the console.
 */
export function action(realmId, fn) {
  const say = (text) => {
    state.status.set(realmId, text);
    const el = document.querySelector(`[data-realm-status="${CSS.escape(realmId)}"]`);
    if (el) el.textContent = text;
  };
  return async (event) => {
    event.preventDefault();
    say('…');
    try {
      say((await fn()) ?? 'done');
    } catch (error) {
      say(String(error.message ?? error));
    }
  };
}
