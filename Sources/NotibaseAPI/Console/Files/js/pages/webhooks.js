// Webhooks (server key): the app's endpoints, each with its state, its recent attempts, a test
// event, a replay and a new secret (shown once, as keys are); add, edit, disable and delete them.
// An attempt's answer is text from someone else's server: shown as text only, never as HTML.
import { h, replace, field, setFieldError, announce, when } from '../dom.js';
import * as api from '../api.js';
import { secretBox, errorsInto } from './apps.js';

const outcomes = { answered: 'Answered', timed_out: 'Timed out', failed: 'Failed to connect', refused: 'Refused (address policy)' };
const path = (endpoint, rest = '') => `/v1/webhooks/${encodeURIComponent(endpoint.id)}${rest}`;

// The types as checkboxes, with "every type" (also those added later) as the first: the API's
// `types` left out (null). `eventTypes` are the API's own (GET /v1/webhooks/event-types), each
// with its description; `chosen` null means every type.
function typesField(eventTypes, chosen) {
  const every = h('input', { type: 'checkbox', name: 'every', checked: !chosen });
  const boxes = eventTypes.map(({ type }) => h('input', { type: 'checkbox', value: type, checked: !chosen || chosen.includes(type) }));
  const sync = () => { for (const box of boxes) box.disabled = every.checked; };
  every.addEventListener('change', sync);
  sync();
  const error = h('p', { class: 'error', hidden: true });
  const wrapper = h('div', { class: 'field', 'data-field': 'types' },
    h('fieldset', {}, h('legend', {}, 'Event types'),
      h('label', { class: 'check' }, every, ' Every type, also those added later'),
      h('div', { class: 'checks' }, boxes.map((box, index) => h('label', { class: 'check', title: eventTypes[index].description }, box, ' ', h('code', {}, box.value))))),
    error);
  wrapper.value = () => (every.checked ? null : boxes.filter((box) => box.checked).map((box) => box.value));
  return wrapper;
}

function clearErrors(form) { form.querySelectorAll('.field').forEach((wrapper) => setFieldError(wrapper, null)); }

// The form that adds an endpoint; its secret is shown once in `reveal`.
function addForm(eventTypes, refresh, reveal) {
  const url = h('input', { type: 'text', name: 'url', autocomplete: 'off', spellcheck: false, placeholder: 'https://hooks.example.com/notibase' });
  const description = h('input', { type: 'text', name: 'description', autocomplete: 'off', maxlength: 500 });
  const types = typesField(eventTypes, null);
  const form = h('form', { class: 'card', novalidate: true, 'aria-labelledby': 'add-webhook-title' },
    h('h2', { id: 'add-webhook-title' }, 'Add an endpoint'),
    field('URL', url, { name: 'url', hint: 'https, on a public address: Notibase POSTs batches of signed events to it.' }),
    types, field('Description', description, { name: 'description' }),
    h('button', { type: 'submit', class: 'primary' }, 'Add the endpoint'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const body = { url: url.value.trim() };
    const chosen = types.value();
    if (chosen) body.types = chosen;
    if (description.value.trim()) body.description = description.value.trim();
    try {
      const endpoint = await api.post('/v1/webhooks', body);
      reveal(secretBox(`The endpoint ${endpoint.url} is added. Its signing secret:`, [['Signing secret', endpoint.secret]]));
      url.value = '';
      description.value = '';
      refresh();
    } catch (error) { errorsInto(form, error); }
  });
  return form;
}

function editForm(endpoint, eventTypes, refresh) {
  const url = h('input', { type: 'text', autocomplete: 'off', spellcheck: false, value: endpoint.url });
  const description = h('input', { type: 'text', autocomplete: 'off', maxlength: 500, value: endpoint.description || '' });
  const enabled = h('input', { type: 'checkbox', checked: endpoint.enabled });
  const every = endpoint.types.length === eventTypes.length && eventTypes.every(({ type }) => endpoint.types.includes(type));
  const types = typesField(eventTypes, every ? null : endpoint.types);
  const form = h('form', { class: 'edit-webhook', novalidate: true, 'aria-label': `Edit ${endpoint.url}` },
    field('URL', url, { name: 'url' }), types, field('Description', description, { name: 'description' }),
    h('div', { class: 'field', 'data-field': 'enabled' }, h('label', { class: 'check' }, enabled, ' Enabled'), h('p', { class: 'error', hidden: true })),
    h('button', { type: 'submit' }, 'Save'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const body = { url: url.value.trim(), types: types.value(), description: description.value.trim() || null, enabled: enabled.checked };
    try {
      await api.call('PATCH', path(endpoint), body);
      announce('The endpoint is saved');
      refresh();
    } catch (error) { errorsInto(form, error); }
  });
  return h('details', { class: 'more' }, h('summary', {}, 'Edit'), form);
}

// Replays the endpoint's events since a time the reader gives in their own time zone.
function replayForm(endpoint) {
  const since = h('input', { type: 'datetime-local', step: 1 });
  const sinceField = field('Send again every event since', since, { name: 'since', hint: 'In your time zone; events retention still keeps are sent again, in order.' });
  const done = h('p', { class: 'hint', role: 'status' });
  const form = h('form', { class: 'replay', novalidate: true, 'aria-label': `Replay events to ${endpoint.url}` }, sinceField, h('button', { type: 'submit' }, 'Replay'), done);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    setFieldError(sinceField, null);
    done.textContent = '';
    const date = new Date(since.value);
    if (!since.value || Number.isNaN(date.getTime())) { setFieldError(sinceField, 'Choose a date and time.'); return; }
    try {
      const answer = await api.post(path(endpoint, '/replay'), { since: date.toISOString() });
      done.textContent = `${answer.events} events since ${when(answer.since)} are sent again.`;
    } catch (error) { setFieldError(sinceField, error.message); }
  });
  return h('details', { class: 'more' }, h('summary', {}, 'Replay events'), form);
}

/** The endpoint's recent attempts; the answer's first bytes as text (textContent), never HTML. */
export function attemptsTable(items) {
  if (!items.length) return h('p', { class: 'hint' }, 'No attempts yet.');
  return h('table', { class: 'attempts' },
    h('thead', {}, h('tr', {}, ['When', 'Outcome', 'Status', 'Latency', 'Events', 'Next retry', 'Answer'].map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, items.map((attempt) => h('tr', { class: attempt.outcome === 'answered' && attempt.status >= 200 && attempt.status < 300 ? 'ok' : 'bad' },
      h('td', {}, when(attempt.at)), h('td', {}, outcomes[attempt.outcome] || attempt.outcome),
      h('td', { class: 'number' }, attempt.status ?? '—'), h('td', { class: 'number' }, `${attempt.latencyMs} ms`),
      h('td', { class: 'number' }, attempt.events), h('td', {}, attempt.nextRetryAt ? when(attempt.nextRetryAt) : '—'),
      h('td', {}, h('pre', { class: 'answer' }, attempt.answer || ''))))));
}

function endpointCard(endpoint, eventTypes, refresh, reveal) {
  const attempts = h('div', { class: 'attempts-list' }, h('p', { class: 'hint' }, 'Loading…'));
  const loadAttempts = async () => {
    try {
      const answer = await api.get(path(endpoint, '/attempts?limit=20'));
      replace(attempts, attemptsTable(answer.items || []));
    } catch (error) { replace(attempts, h('p', { class: 'error' }, error.message)); }
  };
  const action = (label, run, className) => h('button', { type: 'button', class: className, onclick: async () => {
    try { await run(); } catch (error) { announce(error.message); replace(attempts, h('p', { class: 'error', role: 'alert' }, error.message)); }
  } }, label);
  const state = endpoint.enabled
    ? h('p', { class: 'health ok' }, 'Enabled' + (endpoint.failingSince ? `: failing since ${when(endpoint.failingSince)}` : ''))
    : h('p', { class: 'health failing' }, 'Disabled' + (endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''));
  const every = endpoint.types.length === eventTypes.length;
  const id = `webhook-${endpoint.id}`;
  const card = h('article', { class: 'card webhook', 'aria-labelledby': id, 'data-id': endpoint.id },
    h('h3', { id, class: 'webhook-url' }, endpoint.url), state,
    h('dl', { class: 'facts' },
      endpoint.description ? [h('dt', {}, 'Description'), h('dd', {}, endpoint.description)] : null,
      h('dt', {}, 'Event types'), h('dd', { class: 'types' }, every ? 'Every type' : endpoint.types.join(', ')),
      endpoint.nextAttemptAt ? [h('dt', {}, 'Next attempt'), h('dd', {}, when(endpoint.nextAttemptAt))] : null,
      h('dt', {}, 'Created'), h('dd', {}, when(endpoint.createdAt))),
    h('div', { class: 'actions' },
      action('Send a test event', async () => {
        await api.post(path(endpoint, '/test'));
        announce('A test event is on its way');
        setTimeout(loadAttempts, 1500);
      }),
      action('Rotate the secret', async () => {
        if (!confirm(`Rotate the signing secret of ${endpoint.url}? The current one keeps signing beside the new one for 24 hours.`)) return;
        const answer = await api.post(path(endpoint, '/rotate-secret'));
        reveal(secretBox(`The new signing secret of ${endpoint.url}.`, [['Signing secret', answer.secret]]));
      }),
      action(endpoint.enabled ? 'Disable' : 'Enable', async () => {
        await api.call('PATCH', path(endpoint), { enabled: !endpoint.enabled });
        announce(endpoint.enabled ? 'The endpoint is disabled' : 'The endpoint is enabled');
        refresh();
      }),
      action('Refresh attempts', loadAttempts),
      action('Delete', async () => {
        if (!confirm(`Delete the endpoint ${endpoint.url}? Events stop going to it at once.`)) return;
        await api.call('DELETE', path(endpoint));
        announce('The endpoint is deleted');
        refresh();
      }, 'danger')),
    editForm(endpoint, eventTypes, refresh), replayForm(endpoint),
    h('h4', {}, 'Recent attempts'), attempts);
  loadAttempts();
  return card;
}

export function webhooksPage(root) {
  const revealed = h('div', { 'aria-live': 'assertive' });
  const list = h('div', { class: 'webhooks' });
  const reveal = (node) => { replace(revealed, node); node.scrollIntoView({ block: 'nearest' }); };
  root.append(h('h1', {}, 'Webhooks'), revealed);
  // The forms offer the API's own event types, each with what it means.
  api.get('/v1/webhooks/event-types').then(({ items: eventTypes }) => {
    async function refresh() {
      try {
        const answer = await api.get('/v1/webhooks');
        const items = answer.items || [];
        replace(list, items.length ? items.map((endpoint) => endpointCard(endpoint, eventTypes, refresh, reveal)) : h('p', {}, 'No endpoints yet.'));
      } catch (error) { replace(list, h('p', { class: 'error' }, error.message)); }
    }
    root.append(addForm(eventTypes, refresh, reveal), h('h2', {}, 'Endpoints'), list);
    refresh();
  }, (error) => root.append(h('p', { class: 'error' }, error.message)));
}
