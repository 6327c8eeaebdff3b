// Compose: every field of a message, its audience with a live count, and a live preview that the
// server computes (POST /v1/preview), so the console and the server never disagree. The preview
// stays beside the form (sticky) and Send stays in view; what is rarely changed folds away.
import { h, replace, field, setFieldError, announce } from '../dom.js';
import * as api from '../api.js';
import { renderPreview } from './preview.js';
import { credentialBanners } from './credentials.js';
import { rememberWarnings } from './messages.js';

const buttonOptions = ['foreground', 'destructive', 'authenticationRequired'];
/** Sending to everyone, or to more devices than this, asks first, naming how many. */
export const confirmAbove = 100;
const optionLabels = { foreground: 'Opens the app (foreground)', destructive: 'Destructive (red)', authenticationRequired: 'Unlock first' };

function debounce(fn, ms) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

function buttonRow(list, onChange) {
  const id = h('input', { type: 'text', name: 'button-id', maxlength: 64, autocomplete: 'off' });
  const text = h('input', { type: 'text', name: 'button-text', autocomplete: 'off' });
  const url = h('input', { type: 'text', name: 'button-url', autocomplete: 'off', placeholder: 'app://…' });
  // Foreground is what a button does unless told otherwise (an absent options list means it).
  const options = buttonOptions.map((option) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', value: option, checked: option === 'foreground' }), ' ' + optionLabels[option]));
  const input = h('input', { type: 'checkbox', name: 'button-input' });
  const placeholder = h('input', { type: 'text', name: 'button-placeholder', autocomplete: 'off' });
  const sendTitle = h('input', { type: 'text', name: 'button-send', autocomplete: 'off', placeholder: 'Send' });
  const remove = h('button', { type: 'button', class: 'link' }, 'Remove button');
  const row = h('fieldset', { class: 'button-row' },
    h('legend', {}, 'Button'),
    field('ID', id), field('Text', text), field('Deep link', url),
    h('div', { class: 'field' }, h('span', { class: 'label' }, 'Options'), h('div', { class: 'checks' }, options)),
    h('label', { class: 'check' }, input, ' Text input'), field('Input placeholder', placeholder), field('Input send button', sendTitle),
    remove);
  row.read = () => {
    const button = { id: id.value, text: text.value };
    const chosen = options.map((label) => label.querySelector('input')).filter((box) => box.checked).map((box) => box.value);
    if (chosen.join() !== 'foreground') button.options = chosen;
    if (url.value) button.url = url.value;
    if (input.checked) {
      button.input = {};
      if (placeholder.value) button.input.placeholder = placeholder.value;
      if (sendTitle.value) button.input.button = sendTitle.value;
    }
    return button;
  };
  remove.addEventListener('click', () => { row.remove(); renumber(list); onChange(); });
  row.addEventListener('input', onChange);
  return row;
}

// A per-locale variant: its own title, subtitle, body and button texts; everything else is the
// default message's.
function variantRow(onChange) {
  const locale = h('input', { type: 'text', name: 'variant-locale', autocomplete: 'off', placeholder: 'fr or pt-BR', maxlength: 35 });
  const title = h('input', { type: 'text', name: 'variant-title', autocomplete: 'off' });
  const subtitle = h('input', { type: 'text', name: 'variant-subtitle', autocomplete: 'off' });
  const body = h('textarea', { name: 'variant-body', rows: 2 });
  const buttonTexts = h('input', { type: 'text', name: 'variant-buttons', autocomplete: 'off' });
  const remove = h('button', { type: 'button', class: 'link' }, 'Remove variant');
  const localeField = field('Locale', locale);
  const row = h('fieldset', { class: 'variant-row' }, h('legend', {}, 'Variant'),
    localeField, field('Title', title), field('Subtitle', subtitle), field('Body', body),
    field('Button texts (comma-separated, in order)', buttonTexts), remove);
  row.locale = () => locale.value.trim();
  row.read = (base) => {
    const message = { ...base };
    for (const [name, control] of [['title', title], ['subtitle', subtitle], ['body', body]]) {
      if (control.value) message[name] = control.value; else delete message[name];
    }
    const texts = buttonTexts.value.split(',').map((t) => t.trim());
    if (base.buttons) message.buttons = base.buttons.map((button, index) => ({ ...button, text: texts[index] || button.text }));
    return message;
  };
  row.update = () => { localeField.dataset.field = `variants.${locale.value.trim()}`; };
  remove.addEventListener('click', () => { row.remove(); onChange(); });
  row.addEventListener('input', () => { row.update(); onChange(); });
  return row;
}

function renumber(list) {
  [...list.children].forEach((row, index) => {
    row.querySelector('legend').textContent = `Button ${index + 1}`;
    row.querySelectorAll('.field').forEach((wrapper) => {
      const label = wrapper.querySelector('label');
      const name = { 'button-id': 'id', 'button-text': 'text', 'button-url': 'url' }[wrapper.querySelector('input')?.name];
      if (name) wrapper.dataset.field = `message.buttons[${index}].${name}`;
      if (label && !label.dataset.base) label.dataset.base = label.textContent;
    });
  });
}

export function composePage(root) {
  const c = {};
  const text = (name, attributes = {}) => (c[name] = h('input', { type: 'text', name, autocomplete: 'off', ...attributes }));
  const area = (name, attributes = {}) => (c[name] = h('textarea', { name, rows: 3, ...attributes }));
  const fields = {};
  const add = (name, label, control, hint) => (fields[name] = field(label, control, { hint, name }));

  // A silent background push draws nothing: the drawn fields hide, only the data (and the
  // delivery options) stay.
  const backgroundField = add('message.background', 'Kind', h('label', { class: 'check' },
    c.background = h('input', { type: 'checkbox', name: 'background' }), ' Background (silent): wakes the app with its data, draws nothing'));
  const content = h('fieldset', {}, h('legend', {}, 'Content'),
    backgroundField,
    add('message.title', 'Title', text('title')),
    add('message.subtitle', 'Subtitle', text('subtitle')),
    add('message.body', 'Body', area('body')),
    add('message.image', 'Image URL', text('image', { inputmode: 'url', placeholder: 'https://…' }), 'https; iOS attaches images up to 10 MB.'),
    add('message.url', 'Deep link', text('url', { placeholder: 'app://…' })),
    h('details', { class: 'more', id: 'more-content' }, h('summary', {}, 'Sound, badge, thread, category, interruption level, data'),
    add('message.sound', 'Sound', text('sound', { placeholder: 'default' })),
    add('message.badge', 'Badge', text('badge', { inputmode: 'numeric' })),
    add('message.threadId', 'Thread', text('threadId')),
    add('message.category', 'App category (instead of buttons)', text('category'), 'A category the app registers itself; buttons above replace it.'),
    add('message.interruptionLevel', 'Interruption level', c.interruptionLevel = h('select', { name: 'interruptionLevel' }, h('option', { value: '' }, 'Default'),
      ['passive', 'active', 'time-sensitive', 'critical'].map((level) => h('option', { value: level }, level)))),
    add('message.data', 'Data (JSON object)', area('data', { class: 'code', placeholder: '{"orderId": "4242"}' }))),
  );
  const buttons = h('div', { class: 'buttons' });
  const addButton = h('button', { type: 'button' }, 'Add a button');
  const buttonsSet = h('fieldset', {}, h('legend', {}, 'Buttons'), buttons, addButton);

  const variants = h('div', { class: 'variants' });
  const addVariant = h('button', { type: 'button' }, 'Add a locale variant');
  const variantsSet = h('fieldset', {}, h('legend', {}, 'Per-locale variants'),
    h('p', { class: 'hint' }, 'Each device gets the variant of its locale (pt-BR), else of its language (pt), else the message above.'),
    variants, addVariant);
  fields.variants = variantsSet;
  variantsSet.dataset.field = 'variants';
  variantsSet.append(h('p', { class: 'error', hidden: true }));
  const previewLocale = h('select', { id: 'preview-locale' }, h('option', { value: '' }, 'the message (default)'));

  const audienceKind = c.audienceKind = h('select', { name: 'audienceKind' },
    h('option', { value: 'all' }, 'Everyone'), h('option', { value: 'deviceIds' }, 'Devices (IDs)'),
    h('option', { value: 'externalUserIds' }, 'External user IDs'), h('option', { value: 'allOf' }, 'Devices with all of these tags'),
    h('option', { value: 'anyOf' }, 'Devices with any of these tags'));
  const audienceCount = h('p', { class: 'count', 'aria-live': 'polite' });
  const audienceWarning = h('p', { class: 'warning unmatched', role: 'status', hidden: true });
  const audienceSet = h('fieldset', {}, h('legend', {}, 'Audience'),
    add('audience', 'Send to', audienceKind),
    add('audience.values', 'IDs or tags (comma-separated)', text('audienceValues')),
    audienceCount, audienceWarning);
  // The list of values only for an audience that has one, named after what it lists.
  const valuesLabels = { deviceIds: 'Device IDs (comma-separated)', externalUserIds: 'External user IDs (comma-separated)',
    allOf: 'Tags (comma-separated): devices with all of them', anyOf: 'Tags (comma-separated): devices with any of them' };
  const showValues = () => {
    fields['audience.values'].hidden = audienceKind.value === 'all';
    fields['audience.values'].querySelector('label').textContent = valuesLabels[audienceKind.value] || '';
  };
  audienceKind.addEventListener('change', showValues);
  showValues();

  const delivery = h('fieldset', {}, h('legend', {}, 'Delivery'),
    add('sendAt', 'Send at (empty: now)', c.sendAt = h('input', { type: 'datetime-local', name: 'sendAt' })),
    add('ttl', 'TTL (seconds)', text('ttl', { inputmode: 'numeric' })),
    add('priority', 'Priority', c.priority = h('select', { name: 'priority' }, h('option', { value: '' }, 'Default'),
      h('option', { value: 'high' }, 'high'), h('option', { value: 'normal' }, 'normal'))),
    add('collapseId', 'Collapse ID', text('collapseId')),
    add('idempotencyKey', 'Idempotency key', text('idempotencyKey')),
  );
  // Pacing: each device at its own local time, at most so many a minute, outside quiet hours.
  const pacing = h('fieldset', {}, h('legend', {}, 'Pacing'),
    add('localTime', 'Local time (each device at this time on its own clock; instead of Send at)', c.localTime = h('input', { type: 'time', name: 'localTime' })),
    add('localDate', 'On date (empty: the next time each clock shows it)', c.localDate = h('input', { type: 'date', name: 'localDate' })),
    add('fallbackTimeZone', 'Time zone of devices without one', text('fallbackTimeZone', { placeholder: 'UTC' })),
    add('ratePerMinute', 'At most … deliveries a minute (empty: the app\'s default)', text('ratePerMinute', { inputmode: 'numeric' })),
    add('quietHours', 'Quiet hours', h('label', { class: 'check' }, c.quietHours = h('input', { type: 'checkbox', name: 'quietHours' }), ' Wait outside the app\'s quiet hours')),
  );
  const formError = h('p', { class: 'error', role: 'alert', hidden: true });
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send');
  const schedule = h('details', { class: 'more', id: 'more-delivery' }, h('summary', {}, 'Schedule, pacing and delivery options'), delivery, pacing);
  // Send stays at the bottom of the window however long the form grows.
  const sendBar = h('div', { class: 'send-bar' }, formError, h('p', { class: 'hint', id: 'send-summary' }), send);
  const form = h('form', { class: 'compose', novalidate: true, 'aria-label': 'Message' }, audienceSet, content, buttonsSet, variantsSet, schedule, sendBar);
  const emptyPreview = () => h('p', { class: 'hint' }, 'Type a title or a body: the iPhone and Android previews appear here.');
  const preview = h('section', { class: 'preview', 'aria-label': 'Live preview', 'aria-live': 'off' }, emptyPreview());
  const previewSide = h('div', { class: 'preview-side' },
    h('h2', {}, 'Preview'), h('div', { class: 'field inline' }, h('label', { for: 'preview-locale' }, 'Locale'), previewLocale), preview);
  const banners = h('div', { class: 'banners' });
  root.append(h('h1', {}, 'Compose'), banners, h('div', { class: 'compose-layout' }, form, previewSide));
  // The signed-in app's credentials (a red banner when a provider refuses them) and its name,
  // which the preview's phones show.
  let appName = null;
  api.get('/v1/apps').then((apps) => {
    const app = apps.items && apps.items[0];
    if (!app) return;
    replace(banners, credentialBanners(app));
    appName = app.name;
    if (preview.dataset.answered === 'preview') refreshPreview();
  }).catch(() => {});

  // Errors are shown for the fields one has typed in (or all of them once Send is pressed): an
  // empty form is not wrong yet.
  const touched = new Set();
  let sendPressed = false;
  form.addEventListener('input', (event) => {
    const wrapper = event.target.closest && event.target.closest('[data-field]');
    if (wrapper) touched.add(wrapper);
    if (event.target.closest && event.target.closest('.button-row, .variant-row')) touched.add(event.target.closest('.button-row, .variant-row'));
  });
  const shows = (wrapper) => sendPressed || touched.has(wrapper) || [...touched].some((t) => t.contains(wrapper));

  function readVariants(base) {
    const rows = [...variants.children];
    if (!rows.length) return undefined;
    const result = {};
    for (const row of rows) if (row.locale()) result[row.locale()] = row.read(base);
    return result;
  }
  function syncLocales() {
    const chosen = previewLocale.value;
    const locales = [...variants.children].map((row) => row.locale()).filter(Boolean);
    const shown = [...previewLocale.options].slice(1).map((option) => option.value);
    if (shown.join('\n') === locales.join('\n')) return;  // unchanged: keep the options (and the reader's place)
    replace(previewLocale, h('option', { value: '' }, 'the message (default)'), locales.map((locale) => h('option', { value: locale }, locale)));
    previewLocale.value = locales.includes(chosen) ? chosen : '';
  }

  const parseJSON = (value, name) => {
    if (!value.trim()) return undefined;
    try { return JSON.parse(value); } catch { throw { field: name, message: 'is not valid JSON' }; }
  };
  function readMessage() {
    if (c.background.checked) {
      const data = parseJSON(c.data.value, 'message.data');
      return data === undefined ? { background: true } : { background: true, data };
    }
    const message = {};
    for (const name of ['title', 'subtitle', 'body', 'image', 'url', 'sound', 'threadId', 'category', 'interruptionLevel']) if (c[name].value) message[name] = c[name].value;
    if (c.badge.value) message.badge = /^-?\d+$/.test(c.badge.value) ? Number(c.badge.value) : c.badge.value;
    const data = parseJSON(c.data.value, 'message.data');
    if (data !== undefined) message.data = data;
    const rows = [...buttons.children].map((row) => row.read());
    if (rows.length) message.buttons = rows;
    return message;
  }
  function readOptions(body) {
    if (c.ttl.value) body.ttl = /^\d+$/.test(c.ttl.value) ? Number(c.ttl.value) : c.ttl.value;
    if (c.priority.value) body.priority = c.priority.value;
    if (c.collapseId.value) body.collapseId = c.collapseId.value;
    return body;
  }
  function readPacing(body) {
    if (c.localTime.value) body.localTime = c.localTime.value.slice(0, 5);
    if (c.localDate.value) body.localDate = c.localDate.value;
    if (c.fallbackTimeZone.value) body.fallbackTimeZone = c.fallbackTimeZone.value.trim();
    if (c.ratePerMinute.value) body.ratePerMinute = /^\d+$/.test(c.ratePerMinute.value) ? Number(c.ratePerMinute.value) : c.ratePerMinute.value;
    if (c.quietHours.checked) body.quietHours = true;
    return body;
  }
  function readAudience() {
    const values = c.audienceValues.value.split(',').map((v) => v.trim()).filter(Boolean);
    switch (audienceKind.value) {
      case 'all': return { all: true };
      case 'allOf': return { tags: { allOf: values } };
      case 'anyOf': return { tags: { anyOf: values } };
      default: return { [audienceKind.value]: values };
    }
  }
  function clearErrors() {
    for (const wrapper of form.querySelectorAll('.field, [data-field]')) setFieldError(wrapper, null);
    formError.hidden = true;
  }
  function showErrors(issues) {
    let unplaced = [];
    for (const issue of issues) {
      const wrapper = form.querySelector(`[data-field="${CSS.escape(issue.field || '')}"]`)
        || form.querySelector(`[data-field="${CSS.escape((issue.field || '').replace(/\[\d+\]$/, ''))}"]`)
        || form.querySelector(`[data-field="${CSS.escape((issue.field || '').split('.').slice(0, 2).join('.'))}"]`)
        || form.querySelector(`[data-field="${CSS.escape((issue.field || '').split(/[.[]/)[0])}"]`);
      if (wrapper && !shows(wrapper)) continue;
      if (wrapper) {
        setFieldError(wrapper, issue.message);
        // An error in a folded section unfolds it.
        for (let fold = wrapper.closest('details'); fold; fold = fold.parentElement.closest('details')) fold.open = true;
      } else if (sendPressed || touched.size) unplaced.push(`${issue.field}: ${issue.message}`);
    }
    if (unplaced.length) { formError.textContent = unplaced.join(' '); formError.hidden = false; }
  }

  let sequence = 0;
  const refreshPreview = debounce(async () => {
    const mine = ++sequence;
    let body;
    try {
      const base = readMessage();
      syncLocales();
      const variant = previewLocale.value && (readVariants(base) || {})[previewLocale.value];
      body = readOptions({ message: variant || base });
    } catch (problem) {
      clearErrors(); showErrors([problem]); return;
    }
    if (body.message.background) {
      clearErrors();
      replace(preview, h('p', { class: 'hint', id: 'background-preview' },
        'Nothing is drawn: a background push wakes the app with its data (iOS throttles them, and drops them for an app the user force-quit).'));
      preview.dataset.answered = 'background';
      return;
    }
    if (!Object.keys(body.message).length) {
      // Nothing typed yet: nothing to ask the server (it would answer 400 for an empty message).
      clearErrors();
      replace(preview, emptyPreview());
      preview.dataset.answered = 'empty';
      return;
    }
    try {
      const answer = await api.post('/v1/preview', body);
      if (mine !== sequence) return;
      clearErrors();
      renderPreview(preview, answer, body.message, appName);
      preview.dataset.answered = 'preview';
    } catch (error) {
      if (mine !== sequence) return;
      // The last good preview stays; what to fix is shown next to each field.
      clearErrors();
      showErrors(error.issues.length ? error.issues : [{ field: error.field || '', message: error.message }]);
      preview.dataset.answered = 'issues';
    }
  }, 250);
  const refreshCount = debounce(async () => {
    const audience = readAudience();
    if (!audience.all && !c.audienceValues.value.trim()) {
      // Nothing to count yet: not an error before the IDs or tags are typed.
      audienceCount.textContent = '';
      audienceWarning.hidden = true;
      sendSummary.textContent = '';
      setFieldError(fields['audience.values'], null);
      return;
    }
    try {
      const answer = await api.post('/v1/audience/count', { audience });
      const unmatched = answer.unmatchedExternalUserIds || 0;
      const listed = new Set(audience.externalUserIds || []).size;
      audienceCount.textContent = `Reaches ${answer.count} device${answer.count === 1 ? '' : 's'} now.`;
      replace(audienceWarning, unmatched ? `${unmatched} of these ${listed} user IDs match no active device: ${unmatched === 1 ? 'that user does' : 'those users do'} not get it.` : '');
      audienceWarning.hidden = !unmatched;
      sendSummary.textContent = `To ${answer.count} device${answer.count === 1 ? '' : 's'} now.`;
      setFieldError(fields['audience.values'], null);
    } catch (error) {
      audienceCount.textContent = '';
      audienceWarning.hidden = true;
      setFieldError(fields['audience.values'], error.message);
    }
  }, 250);

  addButton.addEventListener('click', () => {
    const row = buttonRow(buttons, refreshPreview);
    buttons.append(row);
    renumber(buttons);
    row.querySelector('input').focus();
    refreshPreview();
  });
  addVariant.addEventListener('click', () => {
    const row = variantRow(refreshPreview);
    variants.append(row);
    row.querySelector('input').focus();
  });
  const drawn = ['message.title', 'message.subtitle', 'message.body', 'message.image', 'message.url', 'message.sound',
    'message.badge', 'message.threadId', 'message.category', 'message.interruptionLevel'];
  const showKind = () => {
    const silent = c.background.checked;
    for (const name of drawn) fields[name].hidden = silent;
    buttonsSet.hidden = silent;
    const more = content.querySelector('#more-content');
    if (silent) more.open = true;
  };
  c.background.addEventListener('change', () => { showKind(); refreshPreview(); });
  previewLocale.addEventListener('change', refreshPreview);
  buttonsSet.addEventListener('input', refreshPreview);
  content.addEventListener('input', refreshPreview);
  content.addEventListener('change', refreshPreview);
  delivery.addEventListener('input', refreshPreview);
  audienceSet.addEventListener('input', refreshCount);
  audienceSet.addEventListener('change', refreshCount);

  const sendSummary = sendBar.querySelector('#send-summary');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    sendPressed = true;
    clearErrors();
    let body;
    try {
      body = readOptions({ message: readMessage(), audience: readAudience() });
      const chosen = readVariants(body.message);
      if (chosen) body.variants = chosen;
      if (c.sendAt.value) body.sendAt = new Date(c.sendAt.value).toISOString().replace(/\.\d{3}Z$/, 'Z');
      if (c.idempotencyKey.value) body.idempotencyKey = c.idempotencyKey.value;
      readPacing(body);
    } catch (problem) {
      showErrors([problem]); return;
    }
    send.disabled = true;
    try {
      if (!(await confirmed(body))) return;
      const sent = await api.post('/v1/messages', body);
      rememberWarnings(sent.id, sent.warnings);
      announce('Message accepted');
      location.hash = '#/messages/' + sent.id;
    } catch (error) {
      showErrors(error.issues.length ? error.issues : [{ field: error.field || '', message: error.message }]);
      const first = form.querySelector('[aria-invalid="true"]');
      if (first) first.focus();
    } finally {
      send.disabled = false;
    }
  });
  // Everyone, or more than `confirmAbove` devices, asks first, naming how many it reaches now.
  async function confirmed(body) {
    const everyone = Boolean(body.audience.all);
    let count = null;
    try { count = (await api.post('/v1/audience/count', { audience: body.audience })).count; } catch { count = null; }
    if (!everyone && (count === null || count <= confirmAbove)) return true;
    const devices = count === null ? 'every device' : `${count} device${count === 1 ? '' : 's'}`;
    const later = body.sendAt || body.localTime ? ' (counted now; it is sent later)' : '';
    const title = body.message.title || body.message.body || 'this message';
    return window.confirm(`Send “${title}” to ${everyone ? `everyone: ${devices} now` : `${devices} now`}${later}?`);
  }

  preview.dataset.answered = 'empty';
  refreshCount();
}
