// The live preview: what an iPhone and an Android phone draw, from the server's answer to
// POST /v1/preview (the doctor's verdict for iOS, the FCM data for Android), the exact payloads
// against their limits, and why anything is missing.
import { h, replace } from '../dom.js';

// The image as the phone would show it; when this browser cannot load it (a host only the phones
// reach, as in the demo), a placeholder that names it.
function image(url, className, alt) {
  if (!url || !/^https:\/\//.test(url)) return null;
  const img = h('img', { class: className, alt, referrerpolicy: 'no-referrer' });
  img.src = url;
  img.addEventListener('error', () => img.replaceWith(h('div', { class: className + ' missing', role: 'img', 'aria-label': alt || 'image' },
    className === 'ios-thumb' ? '' : `Image: ${url} (this browser cannot load it; the phone downloads it)`)));
  return img;
}

function iPhone(ios, message, apns, appName) {
  if (!apns.payload) return h('p', { class: 'hint' }, 'No APNs payload (see the issues).');
  if (!ios) return h('p', { class: 'hint' }, 'This server has no iOS doctor (it runs only where the simulator builds).');
  const buttons = ios.buttons || [];
  const banner = h('div', { class: 'ios-banner', 'aria-label': 'iPhone banner' },
    h('div', { class: 'ios-app' }, h('span', { class: 'ios-icon', 'aria-hidden': 'true' }), appName.toUpperCase(), h('span', { class: 'ios-time' }, 'now')),
    h('div', { class: 'ios-row' },
      h('div', { class: 'ios-text' },
        ios.title ? h('p', { class: 'ios-title' }, ios.title) : null,
        ios.subtitle ? h('p', { class: 'ios-subtitle' }, ios.subtitle) : null,
        h('p', { class: 'ios-body' }, ios.body)),
      image(message.image, 'ios-thumb', '')));
  const expanded = h('div', { class: 'ios-expanded', 'aria-label': 'iPhone, expanded' },
    image(message.image, 'ios-picture', 'The notification\'s image'),
    h('div', { class: 'ios-text' },
      ios.title ? h('p', { class: 'ios-title' }, ios.title) : null,
      ios.subtitle ? h('p', { class: 'ios-subtitle' }, ios.subtitle) : null,
      h('p', { class: 'ios-body' }, ios.body)),
    buttons.length
      ? h('ul', { class: 'ios-actions', 'aria-label': 'Buttons as iOS draws them' },
        buttons.map((button) => h('li', { class: button.options.includes('destructive') ? 'destructive' : '' },
          button.title, button.textInput ? h('span', { class: 'hint' }, ' (text field)') : null,
          button.options.includes('authenticationRequired') ? h('span', { class: 'hint' }, ' (unlock first)') : null)))
      : h('p', { class: 'ios-none' }, 'No buttons'));
  return h('div', { class: 'phone ios' }, h('h3', {}, 'iPhone'), banner, h('h4', {}, 'Expanded (long press)'), expanded);
}

function android(data, appName) {
  if (!data) return h('p', { class: 'hint' }, 'No FCM message (see the issues).');
  const picture = image(data.image, 'android-picture', 'The notification\'s big picture');
  return h('div', { class: 'phone android' }, h('h3', {}, 'Android'),
    h('div', { class: 'android-card', 'aria-label': 'Android notification' },
      h('div', { class: 'android-app' }, h('span', { class: 'android-icon', 'aria-hidden': 'true' }), `${appName} · now`),
      data.title ? h('p', { class: 'android-title' }, data.title) : null,
      data.body ? h('p', { class: 'android-body' }, data.body) : null,
      picture,
      data.buttons.length
        ? h('ul', { class: 'android-actions', 'aria-label': 'Actions' }, data.buttons.slice(0, 3).map((button) => h('li', {}, String(button.text || ''))))
        : null),
    // The Notibase Android SDK adds at most three actions, as Android shows.
    data.buttons.length > 3 ? h('p', { class: 'hint' }, `Android shows the first 3 of ${data.buttons.length} buttons.`) : null);
}

function payload(name, rendered) {
  const size = rendered.bytes === undefined || rendered.bytes === null ? null : rendered.bytes;
  const over = size !== null && size > rendered.limit;
  return h('details', { class: 'payload' },
    h('summary', {}, `${name}: `, size === null ? 'not rendered' : `${size} of ${rendered.limit} bytes`,
      rendered.shortened.length ? ` — shortened: ${rendered.shortened.join(', ')}` : '',
      over ? ' — over the limit' : ''),
    h('meter', { min: 0, max: rendered.limit, value: size || 0, high: rendered.limit * 0.9, 'aria-label': `${name} size` }),
    rendered.error ? h('p', { class: 'error' }, rendered.error) : null,
    rendered.headers ? h('pre', {}, Object.entries(rendered.headers).map(([k, v]) => `${k}: ${v}`).join('\n')) : null,
    rendered.payload ? h('pre', { class: 'json' }, JSON.stringify(rendered.payload, null, 2)) : null);
}

/** `appName` is the signed-in app's (the phones show it), "Your app" until it is known. */
export function renderPreview(root, answer, message, appName) {
  const app = appName || 'Your app';
  const problems = (answer.ios && answer.ios.problems) || [];
  const notes = (answer.ios && answer.ios.notes) || [];
  const warnings = answer.issues.filter((issue) => issue.severity === 'warning');
  replace(root,
    h('div', { class: 'phones' }, iPhone(answer.ios, message, answer.apns, app), android(answer.android, app)),
    h('section', { class: 'doctor', 'aria-label': 'Doctor' },
      h('h3', {}, 'Doctor'),
      problems.length || warnings.length
        ? h('ul', { class: 'verdicts' },
          problems.map((text) => h('li', { class: 'problem' }, text)),
          warnings.map((issue) => h('li', { class: 'warning' }, `${issue.field}: ${issue.message}`)))
        : h('p', { class: 'ok' }, 'Nothing missing: iOS draws everything this message asks for.'),
      notes.length ? h('ul', { class: 'notes' }, notes.map((text) => h('li', {}, text))) : null,
      answer.ios && answer.ios.image && answer.ios.image.reason ? h('p', { class: 'hint' }, 'Image: ' + answer.ios.image.reason + '.') : null),
    h('section', { 'aria-label': 'Payloads' }, h('h3', {}, 'Payloads'), payload('APNs', answer.apns), payload('FCM', answer.fcm)));
}
