// The inspector page (README "Inspector"): plain browser JavaScript modules, no build step, no framework.
// Everything shown comes from the server-sent events of /__inspector/feed; actions call the control API.
import { $, state } from './common.js';
import { MAX_ROWS, renderLog } from './log.js';
import { renderRealms, renderReport, updateTimes } from './realms.js';

function onState(next) {
  state.realms = next.realms;
  state.clock = next.clock;
  state.receivedAt = performance.now();
  // Redrawn only when something but the realms' times changed (times tick with a system clock).
  const shape = JSON.stringify(next.realms.map(({ now: _now, ...rest }) => rest));
  if (shape !== state.shape) {
    state.shape = shape;
    renderRealms();
  } else updateTimes();
  renderReport(next.report);
}

function connect() {
  const feed = new EventSource('/__inspector/feed');
  const connection = $('connection');
  feed.addEventListener('hello', (e) => {
    const { exchanges, state: next } = JSON.parse(e.data);
    state.exchanges = exchanges;
    onState(next);
    renderLog();
    connection.textContent = 'live';
    connection.className = 'connection live';
  });
  feed.addEventListener('exchanges', (e) => {
    state.exchanges.push(...JSON.parse(e.data));
    if (state.exchanges.length > MAX_ROWS) state.exchanges.splice(0, state.exchanges.length - MAX_ROWS);
    renderLog();
  });
  feed.addEventListener('state', (e) => onState(JSON.parse(e.data)));
  // EventSource reconnects by itself after a dropped connection; a refused one (a 4xx) closes it for good.
  feed.addEventListener('error', () => {
    connection.textContent = feed.readyState === EventSource.CLOSED ? 'disconnected (reload the page)' : 'reconnecting…';
    connection.className = 'connection down';
  });
}

$('filter').addEventListener('input', renderLog);
$('errors-only').addEventListener('change', renderLog);
// Realm clocks in system mode tick between pushes.
setInterval(() => state.clock?.mode === 'system' && updateTimes(), 1000);
connect();
