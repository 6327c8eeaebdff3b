// Messages: newest first, each with its funnel and rates, searchable, updating while they send; a
// message's page with the message as composed, its audience in words, its funnel with rates,
// failures by reason, the delivery log filtered by state (each device named), and cancel.
import { h, replace, when, announce, percent, platformName } from '../dom.js';
import * as api from '../api.js';
import { newestFirst } from '../lists.js';

const finalStates = new Set(['completed', 'cancelled', 'failed']);
const deliveryStates = ['queued', 'retrying', 'sent', 'failed', 'cancelled', 'rendered', 'received', 'opened', 'action', 'dismissed'];

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

// Warnings the send answered with (no credentials for a platform, an audience that matched
// nobody), kept for the message's page the console opens next.
const warningsByMessage = new Map();
export function rememberWarnings(id, warnings) { if (id && warnings && warnings.length) warningsByMessage.set(id, warnings); }

/** An audience in words: "Everyone", "3 devices", "users anna, ben", "devices tagged vip". */
export function audienceWords(audience) {
  if (!audience || audience.all) return 'Everyone';
  const list = (values, max = 5) => values.slice(0, max).join(', ') + (values.length > max ? ` and ${values.length - max} more` : '');
  if (audience.deviceIds) return audience.deviceIds.length === 1 ? '1 device' : `${audience.deviceIds.length} devices`;
  if (audience.externalUserIds) {
    // A forgotten user's ID is replaced by "" in the audiences that listed it (server.md, Forgetting a user).
    const named = audience.externalUserIds.filter((user) => user !== '');
    const forgotten = audience.externalUserIds.length - named.length;
    const gone = forgotten === 1 ? 'a forgotten user' : `${forgotten} forgotten users`;
    if (!named.length) return gone;
    return (named.length === 1 ? 'user ' : 'users ') + list(named) + (forgotten ? ` and ${gone}` : '');
  }
  if (audience.tags) {
    const all = audience.tags.allOf;
    const values = all || audience.tags.anyOf || [];
    if (values.length === 1) return `tag ${values[0]}`;
    return `devices tagged ${values.slice(0, 5).join(all ? ' and ' : ' or ')}` + (values.length > 5 ? ` (${values.length} tags)` : '');
  }
  return 'Devices';
}

/**
 * The funnel as bars, each step with its count and its rate (of the step it follows). Each of the
 * message's `buttons` (IDs) has its step, at 0 while nobody tapped it.
 */
export function funnelView(funnel, buttons = []) {
  const actions = { ...Object.fromEntries(buttons.map((id) => [id, 0])), ...funnel.actions };
  const order = (id) => (buttons.includes(id) ? buttons.indexOf(id) : buttons.length);
  const base = Math.max(funnel.audience, funnel.deliveries, 1);
  const reached = funnel.sent;
  const steps = [
    ['Audience', funnel.audience, null, ''], ['Sent', funnel.sent, base, 'of the audience'], ['Failed', funnel.failed, base, 'of the audience'],
    // A silent background push is never rendered: the app reports it received.
    ...(funnel.received ? [['Received (background)', funnel.received, reached, 'of sent']] : []),
    ['Rendered', funnel.rendered, reached, 'of sent'],
    ['with buttons', funnel.renderedWithButtons, funnel.rendered, 'of rendered'], ['with image', funnel.renderedWithImage, funnel.rendered, 'of rendered'],
    ['Opened', funnel.opened, funnel.rendered, 'of rendered'],
    ...Object.entries(actions).sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b)).map(([id, count]) => [`Action “${id}”`, count, funnel.rendered, 'of rendered']),
    ['Dismissed', funnel.dismissed, funnel.rendered, 'of rendered'],
  ];
  return h('dl', { class: 'funnel' }, steps.map(([label, value, whole, of]) => [
    h('dt', {}, label),
    h('dd', { 'data-step': label }, h('span', { class: 'bar', 'aria-hidden': 'true' }, h('span', { class: 'fill', 'data-width': Math.round((value / base) * 100) })),
      h('span', { class: 'value' }, String(value)),
      h('span', { class: 'rate' }, whole === null ? '' : `${percent(value, whole)} ${of}`)),
  ]));
}

/** The message as it was composed: what the phones were asked to show. */
export function composedView(message, variants) {
  const m = message.message || message;
  const buttons = m.buttons || [];
  const other = [['Deep link', m.url], ['App category', m.category], ['Sound', m.sound], ['Badge', m.badge], ['Thread', m.threadId],
    ['Interruption level', m.interruptionLevel], ['Data', m.data && JSON.stringify(m.data)]].filter(([, value]) => value !== undefined && value !== null && value !== '');
  const image = m.image && /^https:\/\//.test(m.image) ? h('img', { class: 'composed-image', alt: 'The message\'s image', referrerpolicy: 'no-referrer', src: m.image }) : null;
  if (image) image.addEventListener('error', () => image.replaceWith(h('p', { class: 'hint' }, `Image: ${m.image} (this browser cannot load it)`)));
  return h('section', { class: 'composed card', 'aria-label': 'The message as composed' },
    image,
    m.title ? h('p', { class: 'composed-title' }, m.title) : null,
    m.subtitle ? h('p', { class: 'composed-subtitle' }, m.subtitle) : null,
    m.body ? h('p', { class: 'composed-body' }, m.body) : null,
    buttons.length ? h('ul', { class: 'composed-buttons', 'aria-label': 'Buttons' }, buttons.map((button) => h('li', {
      class: (button.options || []).includes('destructive') ? 'destructive' : '' }, button.text,
    h('span', { class: 'hint' }, ` (${button.id}${button.url ? ', opens ' + button.url : ''}${button.input ? ', text field' : ''})`)))) : null,
    other.length ? h('dl', { class: 'facts' }, other.map(([name, value]) => [h('dt', {}, name), h('dd', {}, String(value))])) : null,
    variants && Object.keys(variants).length ? h('p', { class: 'hint' }, 'Variants: ' + Object.entries(variants).map(([locale, v]) => `${locale} (“${v.title || v.body || ''}”)`).join(', ')) : null);
}

/** Deliveries retrying because the provider refuses the app's credentials, by platform and reason. */
function waitingView(waits) {
  if (!waits || !waits.length) return null;
  return [h('h2', {}, 'Waiting for credentials'), h('ul', { class: 'waiting banner' }, waits.map((wait) => h('li', {},
    h('strong', {}, `${platformName(wait.platform)}: ${wait.count} waiting`), ` (${wait.reason})`,
    wait.explanation ? h('p', { class: 'hint' }, 'What to do: ' + wait.explanation) : null)))];
}

/** A warning the server gave about a message: why some of it will not go out. */
function warningsView(warnings) {
  return warnings && warnings.length
    ? h('ul', { class: 'warnings', role: 'alert', 'aria-label': 'Warnings' }, warnings.map((warning) => h('li', {},
      warning.platform ? h('strong', {}, `${platformName(warning.platform)}: `) : null, warning.message || warning.code)))
    : null;
}

/** Sets bar widths from data-width (the CSP forbids inline style attributes, not CSSOM). */
function sizeBars(root) {
  for (const fill of root.querySelectorAll('.fill')) fill.style.width = fill.dataset.width + '%';
}

// The list reads the newest 100 messages and searches them here (the API has no text search);
// funnels are read for the 25 shown.
export function messagesPage(root) {
  const search = h('input', { type: 'search', id: 'message-search', autocomplete: 'off', placeholder: 'Title, body, ID or state' });
  const table = h('table', { class: 'messages' },
    h('caption', {}, 'Newest first; the counts update while messages send. Rates: sent and failed of the audience, rendered of sent, the others of rendered.'),
    h('thead', {}, h('tr', {}, ['Message', 'State', 'Audience', 'Sent', 'Failed', 'Rendered', 'Opened', 'Actions', 'Dismissed']
      .map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody'));
  const empty = h('p', { hidden: true }, 'No messages yet: ', h('a', { href: '#/compose' }, 'compose one'), '.');
  const none = h('p', { hidden: true, id: 'no-match' }, 'No message among the newest 100 matches.');
  root.append(h('h1', {}, 'Messages'),
    h('div', { class: 'field inline search-messages' }, h('label', { for: 'message-search' }, 'Search'), search), table, empty, none);
  const cell = (count, whole) => h('td', { class: 'number' }, h('span', { class: 'value' }, String(count ?? '–')),
    whole === undefined || count === undefined ? null : h('span', { class: 'rate' }, ' ' + percent(count, whole)));
  let latest = [];
  async function draw() {
    const words = search.value.trim().toLowerCase();
    const matching = latest.filter((message) => !words || [message.message.title, message.message.body, message.id, message.state, audienceWords(message.audience)]
      .some((text) => text && String(text).toLowerCase().includes(words))).slice(0, 25);
    const funnels = await Promise.all(matching.map((message) => api.get(`/v1/messages/${encodeURIComponent(message.id)}/funnel`).catch(() => null)));
    empty.hidden = latest.length > 0;
    none.hidden = !latest.length || matching.length > 0;
    replace(table.tBodies[0], matching.map((message, index) => {
      const f = funnels[index] || {};
      const actions = f.actions ? Object.values(f.actions).reduce((a, b) => a + b, 0) : undefined;
      const audience = Math.max(f.audience ?? message.audienceSize, f.deliveries ?? 0);
      return h('tr', {},
        h('th', { scope: 'row' }, h('a', { href: `#/messages/${message.id}` }, message.message.title || message.message.body || message.id),
          h('span', { class: 'hint' }, ' ' + when(message.createdAt))),
        h('td', {}, message.state), h('td', {}, `${audienceWords(message.audience)} (${message.audienceSize})`),
        cell(f.sent, audience), cell(f.failed, audience), cell(f.rendered, f.sent), cell(f.opened, f.rendered), cell(actions, f.rendered), cell(f.dismissed, f.rendered));
    }));
  }
  search.addEventListener('input', () => draw().catch(() => {}));
  return poll(async () => {
    latest = (await api.get('/v1/messages?limit=100')).items;
    await draw();
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
  const warnings = h('div', { class: 'message-warnings' });
  const composed = h('div');
  const waiting = h('section', { 'aria-label': 'Waiting for credentials' });
  root.append(heading, notice, warnings,
    h('div', { class: 'message-top' },
      h('div', {}, h('h2', {}, 'Funnel'), funnel, waiting, h('h2', {}, 'Failures'), failures),
      h('div', {}, h('h2', {}, 'The message'), composed, summary, cancel)),
    h('h2', {}, 'Delivery log'), h('div', { class: 'field inline' }, h('label', { for: 'state-filter' }, 'Show'), filter), log);
  const devices = new Map();

  let state = null;
  async function refresh() {
    const [message, counts] = await Promise.all([api.get(`/v1/messages/${encodeURIComponent(id)}`), api.get(`/v1/messages/${encodeURIComponent(id)}/funnel`)]);
    state = message.state;
    heading.textContent = message.message.title || message.message.body || 'Message';
    replace(summary, h('dl', { class: 'facts' },
      h('dt', {}, 'ID'), h('dd', {}, message.id), h('dt', {}, 'State'), h('dd', { id: 'message-state' }, message.state),
      h('dt', {}, 'Send at'), h('dd', {}, when(message.sendAt)),
      h('dt', {}, 'Audience'), h('dd', { id: 'message-audience' }, `${audienceWords(message.audience)}: ${message.audienceSize} device${message.audienceSize === 1 ? '' : 's'} when sent`),
      message.failureReason ? [h('dt', {}, 'Why it failed'), h('dd', {}, message.failureReason)] : null,
      pacingFacts(message)));
    cancel.hidden = finalStates.has(message.state);
    replace(composed, composedView(message.message, message.variants));
    replace(warnings, warningsView([...(warningsByMessage.get(id) || []), ...(message.warnings || [])]));
    replace(funnel, funnelView(counts, (message.message.buttons || []).map((button) => button.id)));
    sizeBars(funnel);
    replace(waiting, waitingView(counts.waitingForCredentials));
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
  // Each device named by what people know it by (its user, platform, locale), read once.
  async function drawLog(items) {
    await Promise.all(items.filter((d) => d.deviceId && !devices.has(d.deviceId)).map(async (d) => {
      devices.set(d.deviceId, await api.get(`/v1/devices/${encodeURIComponent(d.deviceId)}`).catch(() => null));
    }));
    return deliveryTable(items, { devices });
  }
  const logPath = () => `/v1/messages/${encodeURIComponent(id)}/deliveries` + (filter.value ? `?state=${encodeURIComponent(filter.value)}` : '');
  const list = newestFirst({ path: logPath(), size: 100, draw: drawLog, empty: 'No deliveries in this state.', nouns: ['delivery', 'deliveries'], id: 'message-log' });
  log.append(list.element);
  const refreshLog = () => list.reload();
  filter.addEventListener('change', () => list.load(logPath()).catch((error) => list.fail(error.message)));
  cancel.addEventListener('click', async () => {
    // What a cancel stops cannot be sent again: it asks first, naming the message.
    if (!window.confirm(`Cancel “${heading.textContent}”? Its deliveries not sent yet will not go; this cannot be undone.`)) return;
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

/** A device as people know it: its user (else its platform), and its locale. */
function deviceName(delivery, device) {
  const platform = { ios: 'iPhone', android: 'Android phone' }[delivery.platform] || delivery.platform;
  if (!device) return `An ${platform === 'iPhone' ? 'iPhone' : platform} (${delivery.deviceId.slice(0, 8)}…)`;
  return (device.externalUserId || `${platform === 'iPhone' ? 'An iPhone' : 'An ' + platform} without a user`) + (device.locale ? ` · ${device.locale}` : '');
}

export function deliveryTable(items, { showDevice = true, devices = new Map() } = {}) {
  return h('table', { class: 'deliveries' },
    h('thead', {}, h('tr', {}, [showDevice ? 'Device' : 'Message', 'Platform', 'State', 'History'].map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, items.map((delivery) => h('tr', {},
      h('td', {}, showDevice
        ? (delivery.deviceId ? [h('a', { href: `#/devices/${delivery.deviceId}` }, deviceName(delivery, devices.get(delivery.deviceId))),
          h('span', { class: 'hint device-id' }, ' ' + delivery.deviceId)] : '(deleted)')
        : h('a', { href: `#/messages/${delivery.messageId}` }, delivery.messageId.slice(0, 13) + '…')),
      h('td', {}, platformName(delivery.platform), delivery.variant ? h('span', { class: 'variant' }, ` · ${delivery.variant}`) : null), h('td', {}, delivery.state),
      h('td', {}, h('ol', { class: 'history' }, delivery.history.map((event) => h('li', {}, h('time', {}, when(event.at)), ' ', describeEvent(event)))))))));
}
