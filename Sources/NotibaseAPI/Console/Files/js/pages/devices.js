// Devices: find one by device ID, external user ID or token prefix; a device's details and its
// own delivery log, with "why no buttons / no image" answered from its render reports; sign the
// device out, delete it, or forget its user, each once a word is typed out.
import { h, replace, field, setFieldError, when, platformName, announce } from '../dom.js';
import * as api from '../api.js';
import { describeEvent } from './messages.js';
import { newestFirst } from '../lists.js';
import { typedConfirmation } from '../confirm.js';

/** How long a phone has to report drawing a delivery before the console says it has not. */
export const reportGraceSeconds = 120;

export function devicesPage(root) {
  const kind = h('select', { name: 'by' }, h('option', { value: 'externalUserId' }, 'External user ID'),
    h('option', { value: 'id' }, 'Device ID'), h('option', { value: 'tokenPrefix' }, 'Token prefix'));
  const query = h('input', { type: 'search', name: 'q', autocomplete: 'off' });
  const queryField = field('Find', query);
  const form = h('form', { class: 'search', role: 'search', novalidate: true },
    field('By', kind), queryField, h('button', { type: 'submit', class: 'primary' }, 'Find'));
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const list = newestFirst({ path: '/v1/devices', size: 50, draw: deviceList, empty: 'No device matches.', nouns: ['device', 'devices'], id: 'devices' });
  root.append(h('h1', {}, 'Devices'), form, results);

  async function search() {
    setFieldError(queryField, null);
    const value = query.value.trim();
    try {
      if (kind.value === 'id' && value) {
        replace(results, deviceList([await api.get(`/v1/devices/${encodeURIComponent(value)}`)]));
        return;
      }
      await list.load(value ? `/v1/devices?${kind.value}=${encodeURIComponent(value)}` : '/v1/devices');
      replace(results, list.element);
    } catch (error) {
      replace(results);
      setFieldError(queryField, error.status === 404 ? 'No device has this ID.' : error.message);
    }
  }
  form.addEventListener('submit', (event) => { event.preventDefault(); search(); });
  search();
}

function shortToken(token) { return token.length > 12 ? token.slice(0, 8) + '…' : token; }

function deviceList(items) {
  return h('table', { class: 'devices' },
    h('thead', {}, h('tr', {}, ['Device', 'Platform', 'External user', 'Token', 'Tags', 'Active'].map((n) => h('th', { scope: 'col' }, n)))),
    h('tbody', {}, items.map((device) => h('tr', {},
      h('th', { scope: 'row' }, h('a', { href: `#/devices/${device.id}` }, device.id)),
      h('td', {}, platformName(device.platform)), h('td', {}, device.externalUserId || ''), h('td', {}, shortToken(device.token)),
      h('td', {}, device.tags.join(', ')), h('td', {}, device.active ? 'yes' : `no: ${device.deactivatedReason || ''}`)))));
}

/** When the provider accepted a delivery (ms since 1970), or null. */
function sentAt(delivery) {
  const sent = delivery.history.filter((event) => event.event === 'sent').pop();
  const at = sent ? Date.parse(sent.at) : NaN;
  return Number.isNaN(at) ? null : at;
}

/** A delivery the phone may still report: sent within the grace period, no render report yet. */
export function awaitingReport(delivery, now = Date.now()) {
  const at = sentAt(delivery);
  return delivery.state === 'sent' && at !== null && now - at < reportGraceSeconds * 1000;
}

/** Why a rendered notification lacks its buttons or image, from its render report. */
export function explain(delivery, message) {
  const rendered = delivery.history.filter((event) => event.event === 'rendered' && event.render).pop();
  if (!rendered) {
    if (delivery.state === 'failed') return [`It was never shown: ${delivery.history.filter((e) => e.event === 'failed').map((e) => e.reason).pop() || 'the delivery failed'}.`];
    if (delivery.state === 'sent' && !awaitingReport(delivery)) return ['The provider accepted it, but the phone has not reported drawing it (no Notibase extension or SDK, the app was deleted, or the phone is offline).'];
    return [];
  }
  const render = rendered.render;
  const answers = [];
  const asked = message ? (message.buttons || []).length : null;
  if ((render.buttons || []).length === 0 && asked !== 0) {
    answers.push('No buttons: ' + ((render.diagnostics || []).join('; ') || `the category ${render.categoryId || ''} had no actions when iOS drew it`) + '.');
  }
  if ((render.buttons || []).length === 0 && asked === 0 && message && message.category) {
    answers.push(`No Notibase buttons: the message names the app's own category “${message.category}”, so only a category the app registered itself can give it buttons.`);
  }
  if (!render.imageAttached && render.imageFailure) answers.push('No image: ' + render.imageFailure + '.');
  if (render.completion && render.completion !== 'complete') answers.push(`The extension finished by ${render.completion} after ${render.elapsedMilliseconds} ms.`);
  return answers;
}

export function devicePage(root, id) {
  const heading = h('h1', {}, 'Device');
  const details = h('div');
  const filter = h('select', { id: 'device-state' }, h('option', { value: '' }, 'Every state'),
    ['sent', 'failed', 'rendered', 'opened', 'action', 'dismissed', 'queued', 'retrying', 'cancelled'].map((s) => h('option', { value: s }, s)));
  const log = h('div', { class: 'log' });
  const actions = h('div', { class: 'device-actions' });
  const done = h('div', { 'aria-live': 'polite' });
  root.append(heading, done, details, actions, h('h2', {}, 'Its delivery log'), h('div', { class: 'field inline' }, h('label', { for: 'device-state' }, 'Show'), filter), log);
  const messages = new Map();

  async function load() {
    try {
      const device = await api.get(`/v1/devices/${encodeURIComponent(id)}`);
      heading.textContent = `Device ${device.externalUserId ? '· ' + device.externalUserId : device.id}`;
      replace(details, h('dl', { class: 'facts' },
        [['ID', device.id], ['Platform', platformName(device.platform)], ['External user ID', device.externalUserId || '—'], ['Token', shortToken(device.token)],
          ['Tags', device.tags.join(', ') || '—'], ['Locale', device.locale || '—'], ['Time zone', device.timeZone || '—'],
          ['App version', device.appVersion || '—'], ['SDK version', device.sdkVersion || '—'],
          ['Active', device.active ? 'yes' : `no: ${device.deactivatedReason || ''} (${when(device.deactivatedAt)})`], ['Registered', when(device.createdAt)]]
          .map(([name, value]) => [h('dt', {}, name), h('dd', {}, value)])));
      replace(actions, deviceActions(device, { reload: load, finished }));
    } catch (error) {
      replace(details, h('p', { class: 'notice', role: 'alert' }, error.status === 404 ? 'There is no such device for this key.' : error.message));
      return;
    }
    await loadLog();
  }
  // What this device was sent: its variant's message, else the default.
  const sentMessage = (delivery) => {
    const stored = messages.get(delivery.messageId);
    return stored && ((delivery.variant && stored.variants && stored.variants[delivery.variant]) || stored.message);
  };
  async function drawLog(items) {
    for (const delivery of items) {
      if (!messages.has(delivery.messageId)) {
        messages.set(delivery.messageId, await api.get(`/v1/messages/${encodeURIComponent(delivery.messageId)}`).catch(() => null));
      }
    }
    return h('ol', { class: 'device-log' }, items.map((delivery) => {
      const message = sentMessage(delivery);
      const why = explain(delivery, message);
      return h('li', { class: 'delivery' },
        h('h3', {}, h('a', { href: `#/messages/${delivery.messageId}` }, (message && (message.title || message.body)) || delivery.messageId),
          delivery.variant ? ` (${delivery.variant})` : '', ' — ', delivery.state),
        why.length ? h('ul', { class: 'why', 'aria-label': 'Why' }, why.map((text) => h('li', {}, text))) : null,
        awaitingReport(delivery) ? h('p', { class: 'pending' },
          `Sent ${Math.max(0, Math.round((Date.now() - sentAt(delivery)) / 1000))} s ago: waiting for the phone to report drawing it ` +
          `(it is said here if it has not after ${reportGraceSeconds / 60} minutes).`) : null,
        h('ol', { class: 'history' }, delivery.history.map((event) => h('li', {}, h('time', {}, when(event.at)), ' ', describeEvent(event)))));
    }));
  }
  const logPath = () => `/v1/devices/${encodeURIComponent(id)}/deliveries` + (filter.value ? `?state=${encodeURIComponent(filter.value)}` : '');
  const list = newestFirst({ path: logPath(), size: 50, draw: drawLog, empty: 'Nothing delivered to this device yet.', nouns: ['delivery', 'deliveries'], id: 'device-log' });
  log.append(list.element);
  const loadLog = () => list.load(logPath()).catch((error) => list.fail(error.message));
  // The device is gone (deleted, or its user forgotten): say what happened instead of its page.
  function finished(text) {
    replace(done, h('p', { class: 'notice', role: 'status' }, text, ' ', h('a', { href: '#/devices' }, 'Back to the devices')));
    replace(details); replace(actions); log.replaceChildren();
    announce(text);
  }
  filter.addEventListener('change', () => loadLog());
  load();
}

/**
 * What can be done to a device from its page, each behind a typed confirmation (as deleting an
 * app): sign it out (POST /v1/devices/sign-out with its platform and token), delete it
 * (DELETE /v1/devices/{id}), forget its user (DELETE /v1/users/{externalUserId}).
 */
function deviceActions(device, { reload, finished }) {
  const user = device.externalUserId;
  const start = device.id.slice(0, 8);
  return h('section', { 'aria-label': 'Sign out, delete, forget' },
    user ? typedConfirmation({
      summary: 'Sign this device out', className: 'sign-out-device', expected: user, button: `Sign out ${user} on this device`,
      label: `Type “${user}” to sign this device out`,
      hint: 'Its external user ID is cleared (as the SDK\'s sign-out does); deliveries of messages to this user not sent yet are cancelled. The device stays registered.',
      run: async () => {
        await api.post('/v1/devices/sign-out', { platform: device.platform, token: device.token });
        announce(`${user} is signed out on this device`);
        await reload();
      },
    }) : null,
    typedConfirmation({
      summary: 'Delete this device', className: 'delete-device', expected: start, button: 'Delete this device',
      label: `Type “${start}” (the start of its ID) to delete this device`,
      hint: 'Its deliveries not sent yet fail; the phone gets no push until its app registers again. The counts stay.',
      run: async () => {
        await api.call('DELETE', `/v1/devices/${encodeURIComponent(device.id)}`);
        finished(`The device ${device.id} is deleted.`);
      },
    }),
    user ? typedConfirmation({
      summary: `Forget the user ${user}`, className: 'forget-user', expected: user, button: `Forget ${user}`,
      label: `Type “${user}” to forget this user`,
      hint: 'Every device of this user is deleted, the texts they typed into replies are removed, and their ID is taken out of the audiences that listed it. The counts stay.',
      run: async () => {
        const forgotten = await api.call('DELETE', `/v1/users/${encodeURIComponent(user)}`);
        finished(`${user} is forgotten: ${forgotten.devicesDeleted} device${forgotten.devicesDeleted === 1 ? '' : 's'} deleted, ` +
          `${forgotten.repliesRemoved} repl${forgotten.repliesRemoved === 1 ? 'y' : 'ies'} removed, ` +
          `${forgotten.messagesRewritten} message${forgotten.messagesRewritten === 1 ? '' : 's'}' audience rewritten.`);
      },
    }) : null);
}
