// Messages: newest first, each with its funnel, updating while they send; a message's page with
// its funnel, failures by reason, the delivery log filtered by state, and cancel.
import { h, replace, when, announce } from '../dom.js';
import * as api from '../api.js';

const finalStates = new Set(['completed', 'cancelled', 'failed']);
const deliveryStates = ['queued', 'retrying', 'sent', 'failed', 'cancelled', 'rendered', 'opened', 'action', 'dismissed'];

function poll(task, ms) {
  let stopped = false;
  let timer = null;
  const run = async () => {
    if (stopped) return;
    let again = true;
    try { again = (await task()) !== false; } catch (error) { again = error.status !== 401; }
    if (!stopped && again) timer = setTimeout(run, ms);
  };
  run();
  return () => { stopped = true; clearTimeout(timer); };
}

function percent(part, whole) { return whole ? Math.round((part / whole) * 100) : 0; }

/** The funnel as bars: each step against the audience. */
export function funnelView(funnel) {
  const base = Math.max(funnel.audience, funnel.deliveries, 1);
  const steps = [
    ['Audience', funnel.audience], ['Sent', funnel.sent], ['Failed', funnel.failed], ['Rendered', funnel.rendered],
    ['with buttons', funnel.renderedWithButtons], ['with image', funnel.renderedWithImage], ['Opened', funnel.opened],
    ...Object.entries(funnel.actions).sort().map(([id, count]) => [`Action “${id}”`, count]),
    ['Dismissed', funnel.dismissed],
  ];
  return h('dl', { class: 'funnel' }, steps.map(([label, value]) => [
    h('dt', {}, label),
    h('dd', { 'data-step': label }, h('span', { class: 'bar', style: undefined, 'aria-hidden': 'true' }, h('span', { class: 'fill', 'data-width': percent(value, base) })),
      h('span', { class: 'value' }, String(value))),
  ]));
}

/** Sets bar widths from data-width (the CSP forbids inline style attributes, not CSSOM). */
function sizeBars(root) {
  for (const fill of root.querySelectorAll('.fill')) fill.style.width = fill.dataset.width + '%';
}

export function messagesPage(root) {
  const table = h('table', { class: 'messages' },
    h('caption', {}, 'Newest first; the counts update while messages send.'),
    h('thead', {}, h('tr', {}, ['Message', 'State', 'Audience', 'Sent', 'Failed', 'Rendered', 'Buttons', 'Image', 'Opened', 'Actions', 'Dismissed']
      .map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody'));
  const empty = h('p', { hidden: true }, 'No messages yet: ', h('a', { href: '#/compose' }, 'compose one'), '.');
  root.append(h('h1', {}, 'Messages'), table, empty);
  return poll(async () => {
    const list = await api.get('/v1/messages?limit=25');
    const funnels = await Promise.all(list.items.map((message) => api.get(`/v1/messages/${encodeURIComponent(message.id)}/funnel`).catch(() => null)));
    empty.hidden = list.items.length > 0;
    replace(table.tBodies[0], list.items.map((message, index) => {
      const f = funnels[index] || {};
      const actions = Object.values(f.actions || {}).reduce((a, b) => a + b, 0);
      return h('tr', {},
        h('th', { scope: 'row' }, h('a', { href: `#/messages/${message.id}` }, message.message.title || message.message.body || message.id),
          h('span', { class: 'hint' }, ' ' + when(message.createdAt))),
        h('td', {}, message.state), h('td', {}, String(message.audienceSize)),
        [f.sent, f.failed, f.rendered, f.renderedWithButtons, f.renderedWithImage, f.opened, actions, f.dismissed].map((n) => h('td', {}, String(n ?? '–'))));
    }));
    return true;
  }, 2000);
}

export function messagePage(root, id) {
  const heading = h('h1', {}, 'Message');
  const summary = h('div', { class: 'summary' });
  const funnel = h('section', { 'aria-label': 'Funnel' });
  const failures = h('section', { 'aria-label': 'Failures by reason' });
  const filter = h('select', { id: 'state-filter' }, h('option', { value: '' }, 'Every state'), deliveryStates.map((s) => h('option', { value: s }, s)));
  const log = h('div', { class: 'log' });
  const cancel = h('button', { type: 'button', class: 'danger', hidden: true }, 'Cancel the message');
  const notice = h('p', { class: 'notice', role: 'alert', hidden: true });
  root.append(heading, notice, summary, cancel, h('h2', {}, 'Funnel'), funnel, h('h2', {}, 'Failures'), failures,
    h('h2', {}, 'Delivery log'), h('div', { class: 'field inline' }, h('label', { for: 'state-filter' }, 'Show'), filter), log);

  let state = null;
  async function refresh() {
    const [message, counts] = await Promise.all([api.get(`/v1/messages/${encodeURIComponent(id)}`), api.get(`/v1/messages/${encodeURIComponent(id)}/funnel`)]);
    state = message.state;
    heading.textContent = message.message.title || message.message.body || 'Message';
    replace(summary, h('dl', { class: 'facts' },
      h('dt', {}, 'ID'), h('dd', {}, message.id), h('dt', {}, 'State'), h('dd', { id: 'message-state' }, message.state),
      h('dt', {}, 'Send at'), h('dd', {}, when(message.sendAt)), h('dt', {}, 'Audience'), h('dd', {}, JSON.stringify(message.audience)),
      message.failureReason ? [h('dt', {}, 'Why it failed'), h('dd', {}, message.failureReason)] : null,
      pacingFacts(message)));
    cancel.hidden = finalStates.has(message.state);
    replace(funnel, funnelView(counts));
    sizeBars(funnel);
    replace(failures, counts.failures.length
      ? h('ul', { class: 'failures' }, counts.failures.map((failure) => h('li', {},
        h('strong', {}, `${failure.reason}: ${failure.count}`),
        failure.example && failure.example !== failure.reason ? h('p', {}, failure.example) : null,
        failure.explanation ? h('p', { class: 'hint' }, 'What to do: ' + failure.explanation) : null)))
      : h('p', {}, 'None.'));
    await refreshLog();
    // Receipts keep arriving after a message completes (opened, actions, dismissed): keep polling.
    return true;
  }
  async function refreshLog() {
    const query = filter.value ? `&state=${encodeURIComponent(filter.value)}` : '';
    const page = await api.get(`/v1/messages/${encodeURIComponent(id)}/deliveries?limit=100${query}`);
    replace(log, page.items.length ? deliveryTable(page.items) : h('p', {}, 'No deliveries in this state.'));
  }
  filter.addEventListener('change', () => refreshLog().catch((error) => replace(log, h('p', { class: 'error' }, error.message))));
  cancel.addEventListener('click', async () => {
    try {
      await api.post(`/v1/messages/${encodeURIComponent(id)}/cancel`);
      announce('Message cancelled');
      await refresh();
    } catch (error) {
      notice.textContent = error.message;
      notice.hidden = false;
    }
  });
  return poll(async () => {
    try { return await refresh(); } catch (error) {
      notice.textContent = error.status === 404 ? 'There is no such message for this key.' : error.message;
      notice.hidden = false;
      return error.status !== 404;
    }
  }, 1500);
}

/** What paces a message, and what waits for its moment. */
export function pacingFacts(message) {
  const facts = [];
  if (message.localTime) {
    facts.push(h('dt', {}, 'Local time'), h('dd', { id: 'message-local-time' },
      `${message.localTime}${message.localDate ? ' on ' + message.localDate : ''} on each device's clock` +
      ` (${message.timeZoneFallbacks || 0} without a time zone: ${message.fallbackTimeZone || 'UTC'})`));
  }
  if (message.ratePerMinute) facts.push(h('dt', {}, 'Rate'), h('dd', {}, `at most ${message.ratePerMinute} a minute`));
  if (message.quietHours) facts.push(h('dt', {}, 'Quiet hours'), h('dd', {}, `${message.quietHours.start}–${message.quietHours.end} on each device's clock`));
  const counts = message.counts || {};
  if (counts.waiting !== undefined) {
    facts.push(h('dt', {}, 'Waiting'), h('dd', { id: 'message-waiting' },
      `${counts.waiting} for their moment` + (counts.lastDueAt ? `; the last at ${when(counts.lastDueAt)}` : '')));
  }
  return facts;
}

/** One line per history entry, in words. */
export function describeEvent(event) {
  switch (event.event) {
    case 'sent': return 'sent' + (event.providerId ? ` (provider ID ${event.providerId})` : '');
    case 'scheduled': {
      const why = { localTime: 'local time', quietHours: 'quiet hours', rate: 'rate' };
      return `scheduled for ${when(event.dueAt)}: ${event.localTime || ''} in ${event.timeZone || '?'}` +
        (event.timeZoneFallback ? ' (the device has no time zone)' : '') +
        ((event.decidedBy || []).length ? ` (${event.decidedBy.map((d) => why[d] || d).join(', ')})` : '');
    }
    case 'failed': return 'failed: ' + (event.reason || event.providerReason || '');
    case 'retrying': return `retrying at ${when(event.retryAt)}: ${event.reason || ''}`;
    case 'rendered': {
      const render = event.render;
      if (!render) return 'rendered';
      const buttons = render.buttons || [];
      let text = buttons.length ? `rendered with ${buttons.length} button${buttons.length === 1 ? '' : 's'} (${buttons.join(', ')})` : 'rendered without buttons';
      text += render.imageAttached ? ' and the image' : render.imageFailure ? `, no image: ${render.imageFailure}` : '';
      return text;
    }
    case 'action': return `action “${event.actionId || ''}”` + (event.text ? `: ${event.text}` : '');
    default: return event.event;
  }
}

export function deliveryTable(items, { showDevice = true } = {}) {
  return h('table', { class: 'deliveries' },
    h('thead', {}, h('tr', {}, [showDevice ? 'Device' : 'Message', 'Platform', 'State', 'History'].map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, items.map((delivery) => h('tr', {},
      h('td', {}, showDevice
        ? (delivery.deviceId ? h('a', { href: `#/devices/${delivery.deviceId}` }, delivery.deviceId.slice(0, 13) + '…') : '(deleted)')
        : h('a', { href: `#/messages/${delivery.messageId}` }, delivery.messageId.slice(0, 13) + '…')),
      h('td', {}, delivery.platform, delivery.variant ? h('span', { class: 'variant' }, ` · ${delivery.variant}`) : null), h('td', {}, delivery.state),
      h('td', {}, h('ol', { class: 'history' }, delivery.history.map((event) => h('li', {}, h('time', {}, when(event.at)), ' ', describeEvent(event)))))))));
}
