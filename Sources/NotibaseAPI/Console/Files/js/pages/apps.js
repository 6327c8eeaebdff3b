// Apps (admin key): create an app, rotate its keys (each new key shown once, with a copy
// button), require identity verification or not, upload APNs and FCM credentials and see whether
// they work, and delete an app once its name is typed.
import { h, replace, field, setFieldError, announce, when, copyButton } from '../dom.js';
import * as api from '../api.js';
import { credentialsSummary, credentialBanners } from './credentials.js';
import { typedConfirmation } from '../confirm.js';

/** A new secret or key, shown once with a copy button. */
export function secretBox(title, entries) {
  return h('div', { class: 'secret', role: 'alert' },
    h('p', {}, h('strong', {}, title), ' Shown only this once: copy it now.'),
    h('dl', {}, entries.map(([name, value]) => [h('dt', {}, name), h('dd', {}, h('code', {}, value), ' ', copyButton(value, name.toLowerCase()))])));
}

/** An API error shown next to the field it names (or the form's first field). */
export function errorsInto(form, error) {
  const wrapper = error.field && form.querySelector(`[data-field="${CSS.escape(error.field)}"]`);
  if (wrapper) setFieldError(wrapper, error.message);
  else setFieldError(form.querySelector('.field[data-field="form"]') || form.querySelector('.field'), error.message);
}

// The file's bytes in base64, as the API takes a PKCS#12 file.
async function base64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

// APNs by a token key (.p8, key ID, team ID) or by a certificate (.p12 and its password).
function apnsForm(app, done) {
  const c = {
    authentication: h('select', {}, h('option', { value: 'token' }, 'Token key (.p8)'), h('option', { value: 'certificate' }, 'Certificate (.p12)')),
    keyId: h('input', { type: 'text', autocomplete: 'off' }), teamId: h('input', { type: 'text', autocomplete: 'off' }),
    bundleId: h('input', { type: 'text', autocomplete: 'off' }),
    // The API's names: sandbox is where development builds' tokens work.
    environment: h('select', {}, h('option', { value: 'production' }, 'Production'), h('option', { value: 'sandbox' }, 'Development (sandbox)')),
    privateKey: h('input', { type: 'file', accept: '.p8' }),
    pkcs12: h('input', { type: 'file', accept: '.p12,.pfx' }),
    pkcs12Password: h('input', { type: 'password', autocomplete: 'off' }),
  };
  const tokenFields = [field('Key ID', c.keyId, { name: 'keyId' }), field('Team ID', c.teamId, { name: 'teamId' })];
  const keyField = field('.p8 key file', c.privateKey, { name: 'privateKey' });
  const certificateFields = [field('.p12 certificate file', c.pkcs12, { name: 'pkcs12' }), field('Its password', c.pkcs12Password, { name: 'pkcs12Password' })];
  const show = () => {
    const certificate = c.authentication.value === 'certificate';
    for (const wrapper of [...tokenFields, keyField]) wrapper.hidden = certificate;
    for (const wrapper of certificateFields) wrapper.hidden = !certificate;
  };
  c.authentication.addEventListener('change', show);
  show();
  const form = h('form', { class: 'credentials', novalidate: true, 'aria-label': `APNs credentials for ${app.name}` },
    h('h4', {}, 'APNs'), field('Authentication', c.authentication, { name: 'authentication' }),
    tokenFields, field('Bundle ID', c.bundleId, { name: 'bundleId' }),
    field('Environment', c.environment, { name: 'environment' }), keyField, certificateFields,
    h('button', { type: 'submit' }, 'Upload APNs credentials'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    form.querySelectorAll('.field').forEach((w) => setFieldError(w, null));
    const body = { bundleId: c.bundleId.value, environment: c.environment.value };
    if (c.authentication.value === 'certificate') {
      const file = c.pkcs12.files[0];
      Object.assign(body, { pkcs12: file ? await base64(file) : '', pkcs12Password: c.pkcs12Password.value });
    } else {
      const file = c.privateKey.files[0];
      Object.assign(body, { keyId: c.keyId.value, teamId: c.teamId.value, privateKey: file ? await file.text() : '' });
    }
    try {
      await api.call('PUT', `/v1/apps/${encodeURIComponent(app.id)}/credentials/apns`, body);
      announce('APNs credentials stored');
      done();
    } catch (error) { errorsInto(form, error); }
  });
  return form;
}

function fcmForm(app, done) {
  const json = h('textarea', { class: 'code', rows: 4, spellcheck: false, placeholder: 'Paste the service account JSON, or choose its file' });
  const file = h('input', { type: 'file', accept: '.json,application/json' });
  file.addEventListener('change', async () => { if (file.files[0]) json.value = await file.files[0].text(); });
  const jsonField = field('Service account JSON', json, { name: 'form' });
  const form = h('form', { class: 'credentials', novalidate: true, 'aria-label': `FCM credentials for ${app.name}` },
    h('h4', {}, 'FCM (HTTP v1 service account)'), jsonField, field('Or its file', file),
    h('button', { type: 'submit' }, 'Upload FCM credentials'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    setFieldError(jsonField, null);
    let body;
    try { body = JSON.parse(json.value); } catch { setFieldError(jsonField, 'This is not JSON: paste the whole key file.'); return; }
    try {
      await api.call('PUT', `/v1/apps/${encodeURIComponent(app.id)}/credentials/fcm`, body);
      announce('FCM credentials stored');
      done();
    } catch (error) { setFieldError(jsonField, (error.field ? error.field + ': ' : '') + error.message); }
  });
  return form;
}

function appCard(app, refresh, reveal) {
  const verification = h('input', { type: 'checkbox', checked: app.requireIdentityVerification });
  verification.addEventListener('change', async () => {
    try {
      await api.call('PATCH', `/v1/apps/${encodeURIComponent(app.id)}`, { requireIdentityVerification: verification.checked });
      announce(verification.checked ? 'Identity verification required' : 'Identity verification no longer required');
    } catch (error) { verification.checked = !verification.checked; announce(error.message); }
  });
  const rotate = (kind) => h('button', { type: 'button', onclick: async () => {
    if (!confirm(`Rotate the ${kind} key of ${app.name}? The current one stops working at once.`)) return;
    try {
      const answer = await api.post(`/v1/apps/${encodeURIComponent(app.id)}/keys/${kind}/rotate`);
      reveal(secretBox(`The new ${kind} key of ${app.name}.`, [[`${kind} key`, answer.key]]));
    } catch (error) { announce(error.message); }
  } }, `Rotate the ${kind} key`);
  return h('article', { class: 'card app', 'aria-labelledby': `app-${app.id}` },
    h('h3', { id: `app-${app.id}` }, app.name),
    credentialBanners(app),
    h('dl', { class: 'facts' }, h('dt', {}, 'App ID'), h('dd', {}, h('code', {}, app.id), ' ', copyButton(app.id, 'app ID')),
      h('dt', {}, 'Created'), h('dd', {}, when(app.createdAt))),
    h('div', { class: 'credentials-summary' }, credentialsSummary(app)),
    h('label', { class: 'check' }, verification, ' Require identity verification (devices register external user IDs only with a token from your backend)'),
    h('div', { class: 'actions' }, rotate('server'), rotate('client')),
    h('details', {}, h('summary', {}, 'Upload credentials'), apnsForm(app, refresh), fcmForm(app, refresh)),
    deleteForm(app, refresh));
}

// Deleting takes the app's name typed out: its devices, messages and history go with it.
function deleteForm(app, done) {
  return typedConfirmation({
    summary: 'Delete this app', label: `Type “${app.name}” to delete this app`, expected: app.name, button: `Delete ${app.name}`,
    hint: 'Its keys stop working at once; its devices, messages and delivery log are deleted.', className: 'delete-app',
    run: async () => {
      await api.call('DELETE', `/v1/apps/${encodeURIComponent(app.id)}`);
      announce(`${app.name} is deleted`);
      done();
    },
  });
}

export function appsPage(root) {
  const name = h('input', { type: 'text', name: 'name', maxlength: 100, autocomplete: 'off', required: true });
  const nameField = field('Name', name, { name: 'name' });
  const verify = h('input', { type: 'checkbox', checked: true });
  const create = h('form', { class: 'card', novalidate: true, 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, 'Create an app'), nameField,
    h('label', { class: 'check' }, verify, ' Require identity verification'), h('button', { type: 'submit', class: 'primary' }, 'Create'));
  const revealed = h('div', { 'aria-live': 'assertive' });
  const list = h('div', { class: 'apps' });
  root.append(h('h1', {}, 'Apps'), revealed, create, h('h2', {}, 'Every app'), list);
  const reveal = (node) => { replace(revealed, node); node.scrollIntoView({ block: 'nearest' }); };

  async function refresh() {
    try {
      const apps = await api.get('/v1/apps');
      const items = apps.items || apps;
      replace(list, items.length ? items.map((app) => appCard(app, refresh, reveal)) : h('p', {}, 'No apps yet.'));
    } catch (error) { replace(list, h('p', { class: 'error' }, error.message)); }
  }
  create.addEventListener('submit', async (event) => {
    event.preventDefault();
    setFieldError(nameField, null);
    try {
      const app = await api.post('/v1/apps', { name: name.value, requireIdentityVerification: verify.checked });
      reveal(secretBox(`${app.name} is created.`, [['Server key', app.serverKey], ['Client key', app.clientKey]]));
      name.value = '';
      refresh();
    } catch (error) { setFieldError(nameField, error.message); name.focus(); }
  });
  refresh();
}
