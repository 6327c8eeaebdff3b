// The console's shell: sign-in, navigation by the URL's fragment, one page at a time.
import { h, replace, field, setFieldError, announce } from './dom.js';
import * as api from './api.js';
import { composePage } from './pages/compose.js';
import { messagesPage, messagePage } from './pages/messages.js';
import { devicesPage, devicePage } from './pages/devices.js';
import { appsPage } from './pages/apps.js';
import { webhooksPage } from './pages/webhooks.js';

const main = () => document.getElementById('main');
let stopCurrent = null;
// Why the console signed out by itself, shown on the sign-in page until someone signs in: a page
// change after the sign-out (a link, the back button) must not lose the reason.
let signedOutReason = null;

const routes = [
  [/^#\/compose$/, () => composePage, 'server'],
  [/^#\/messages$/, () => messagesPage, 'server'],
  [/^#\/messages\/([\w-]+)$/, (m) => (root) => messagePage(root, m[1]), 'server'],
  [/^#\/devices$/, () => devicesPage, 'server'],
  [/^#\/devices\/([\w-]+)$/, (m) => (root) => devicePage(root, m[1]), 'server'],
  [/^#\/webhooks$/, () => webhooksPage, 'server'],
  [/^#\/apps$/, () => appsPage, 'admin'],
];

function signInPage(root, message) {
  const input = h('input', { type: 'password', name: 'key', autocomplete: 'off', spellcheck: false, required: true });
  const keyField = field('Server key or admin key', input, {
    hint: 'An app\'s server key (nb_server_…) to compose and read results; the admin key (nb_admin_…) to manage apps. Kept in this tab only.',
  });
  const form = h('form', { class: 'card narrow', 'aria-labelledby': 'signin-title', novalidate: true },
    h('h1', { id: 'signin-title' }, 'Sign in'), keyField, h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = input.value.trim();
    setFieldError(keyField, null);
    const kind = value.startsWith('nb_admin_') ? 'admin' : value.startsWith('nb_server_') ? 'server' : null;
    if (!kind) {
      setFieldError(keyField, 'This is not a server key (nb_server_…) or the admin key (nb_admin_…). The client key cannot sign in.');
      input.focus();
      return;
    }
    try {
      await api.call('GET', kind === 'admin' ? '/v1/apps' : '/v1/messages?limit=1', undefined, value);
    } catch (error) {
      setFieldError(keyField, error.status === 401 || error.status === 403 ? 'The server did not accept this key.' : error.message);
      input.focus();
      return;
    }
    api.setKey(value);
    signedOutReason = null;
    location.hash = kind === 'admin' ? '#/apps' : '#/compose';
    render();
  });
  const notice = message ?? signedOutReason;
  replace(root, notice ? h('p', { class: 'notice', role: 'alert' }, notice) : null, form);
  input.focus();
}

export function render() {
  if (stopCurrent) { stopCurrent(); stopCurrent = null; }
  const root = main();
  const kind = api.keyKind();
  const nav = document.getElementById('nav');
  nav.hidden = !kind;
  if (!kind) { signInPage(root); return; }
  const hash = location.hash || (kind === 'admin' ? '#/apps' : '#/compose');
  for (const link of nav.querySelectorAll('a')) {
    const allowed = link.dataset.page === 'apps' ? kind === 'admin' : kind === 'server';
    link.hidden = !allowed;
    if (hash.startsWith('#/' + link.dataset.page)) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  for (const [pattern, page, needs] of routes) {
    const match = hash.match(pattern);
    if (!match) continue;
    if (needs !== kind) {
      replace(root, h('p', { class: 'notice', role: 'alert' }, needs === 'admin'
        ? 'The apps page needs the admin key: sign out and sign in with it.'
        : 'This page needs an app\'s server key: sign out and sign in with it.'));
      return;
    }
    root.replaceChildren();
    const stop = page(match)(root);
    stopCurrent = typeof stop === 'function' ? stop : null;
    const heading = root.querySelector('h1');
    if (heading) { heading.tabIndex = -1; heading.focus(); announce(heading.textContent); }
    return;
  }
  location.hash = kind === 'admin' ? '#/apps' : '#/compose';
}

/** Called by pages when the API says the key is no longer valid. */
export function signedOut(message) {
  api.clearKey();
  signedOutReason = message;
  signInPage(main(), message);
  document.getElementById('nav').hidden = true;
}

// What /healthz's "trial" list means, shown above every page (the sign-in page too): a server
// left in a trial mode looks healthy and reports pushes sent that reach no one.
const trialMeanings = {
  'sender=simulated': ['--sender simulated', 'nothing is delivered to Apple or Google; every push is answered by a simulated device and counted as sent.'],
  'sender=accept': ['--sender accept', 'nothing is delivered to Apple or Google; every push is accepted at once and counted as sent.'],
  'webhook-allow-insecure': ['--webhook-allow-insecure', 'webhooks may go over plain http to this machine and the internal network.'],
};

async function showTrialBanner() {
  let settings = [];
  try {
    const health = await (await fetch('/healthz', { cache: 'no-store', credentials: 'omit' })).json();
    settings = Array.isArray(health.trial) ? health.trial : [];
  } catch { return; }
  const banner = document.getElementById('trial');
  if (settings.length === 0) { banner.hidden = true; return; }
  replace(banner,
    h('strong', {}, 'Trial mode: not for production.'),
    h('ul', {}, settings.map((name) => {
      const [option, meaning] = trialMeanings[name] || [name, 'a setting for tests and demos only.'];
      return h('li', {}, h('code', {}, option), ': ' + meaning);
    })));
  banner.hidden = false;
}

window.addEventListener('hashchange', render);
window.addEventListener('notibase:unauthorized', () => {
  if (stopCurrent) { stopCurrent(); stopCurrent = null; }
  signedOut('The server no longer accepts this key (was it rotated?). Sign in again.');
});
document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('sign-out').addEventListener('click', () => { api.clearKey(); signedOutReason = null; location.hash = ''; render(); });
  render();
  showTrialBanner();
});
