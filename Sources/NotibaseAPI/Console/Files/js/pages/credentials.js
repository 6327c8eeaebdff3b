// An app's provider credentials in words: what is stored (labels, not field names; dates as the
// reader writes them), whether they work (health, from sends; the provider's answer when asked,
// with a "Test now" button), and the banners the apps and compose pages show when they fail or
// when there are none.
import { h, when, words, replace, announce } from '../dom.js';
import * as api from '../api.js';

const providers = { apns: 'APNs', fcm: 'FCM' };
const platforms = { apns: 'iPhones', fcm: 'Android phones' };
const labels = {
  keyId: 'Key ID', teamId: 'Team ID', bundleId: 'Bundle ID', environment: 'Environment', projectId: 'Project',
  clientEmail: 'Service account', updatedAt: 'Uploaded', expiresAt: 'Certificate expires', subject: 'Certificate',
  authentication: 'Authentication',
};
const authentications = { certificate: 'Certificate', token: 'Token (.p8 key)' };
const environments = { sandbox: 'Development (sandbox)', development: 'Development (sandbox)', production: 'Production' };
const dates = new Set(['updatedAt', 'expiresAt']);

function value(name, text) {
  if (name === 'environment') return environments[text] || text;
  if (name === 'authentication') return authentications[text] || text;
  return dates.has(name) ? when(text) : String(text);
}

/** The health of one provider's credentials, in words. */
export function healthText(health) {
  if (!health) return null;
  switch (health.state) {
    case 'ok': return 'Working' + (health.lastSuccessAt ? `: last accepted ${when(health.lastSuccessAt)}` : '');
    case 'failing': return 'Failing' + (health.lastFailureReason ? `: ${health.lastFailureReason}` : '') + (health.lastFailureAt ? ` (${when(health.lastFailureAt)})` : '');
    case 'untested': return 'Not used yet: the first send will tell';
    default: return String(health.state);
  }
}

/** What the provider said when asked about the credentials (docs/decisions/0046), in words. */
export function testText(test) {
  if (!test) return null;
  const at = test.testedAt ? ` (${when(test.testedAt)})` : '';
  switch (test.state) {
    case 'verified': return `Verified by the provider${at}`;
    case 'rejected': return `Refused when tested${at}: ${test.reason || 'no reason given'}` + (test.fix ? `. ${test.fix}` : '');
    case 'unreachable': return `Could not be tested${at}: ${test.reason || 'no answer'}` + (test.fix ? `. ${test.fix}` : '');
    case 'testing': return 'Testing with the provider…';
    default: return 'Not tested' + (test.fix ? `: ${test.fix}` : '');
  }
}

// The test's line and its "Test now" button, which asks the provider again and shows the answer.
function testLine(app, provider, test) {
  const line = h('p', { class: `test ${test ? test.state : 'untested'}`, role: 'status' }, testText(test) || 'Not tested');
  const button = h('button', { type: 'button', onclick: async () => {
    button.disabled = true;
    replace(line, testText({ state: 'testing' }));
    try {
      const answer = await api.post(`/v1/apps/${encodeURIComponent(app.id)}/credentials/${provider}/test`);
      line.className = `test ${answer.state}`;
      replace(line, testText(answer));
      announce(`${providers[provider] || provider} credentials: ${testText(answer)}`);
    } catch (error) { replace(line, error.message); announce(error.message); }
    button.disabled = false;
  } }, 'Test now');
  return h('div', { class: 'credential-test' }, line, button);
}

/** Each provider's stored credentials as a list of facts. */
export function credentialsSummary(app) {
  const set = Object.entries(app.credentials || {}).sort();
  if (!set.length) return null;
  return set.map(([provider, summary]) => {
    const facts = Object.entries(summary).filter(([name, text]) => !['health', 'provider', 'expiresSoon'].includes(name) && typeof text !== 'object')
      .sort(([a], [b]) => (a === 'updatedAt') - (b === 'updatedAt') || a.localeCompare(b));
    const health = healthText(summary.health);
    return h('section', { class: 'credential', 'data-provider': provider, 'aria-label': `${providers[provider] || provider} credentials` },
      h('h4', {}, providers[provider] || provider),
      health ? h('p', { class: `health ${summary.health.state}` }, health) : null,
      testLine(app, provider, summary.test),
      h('dl', { class: 'facts' }, facts.map(([name, text]) => [h('dt', {}, labels[name] || words(name)), h('dd', {}, value(name, text))])));
  });
}

/** A red banner for each provider whose credentials fail or whose certificate expires within 30
 * days (the API's expiresSoon), and a notice when there are none. */
export function credentialBanners(app) {
  const set = Object.entries(app.credentials || {}).sort();
  if (!set.length) {
    return [h('p', { class: 'notice', role: 'status' },
      `${app.name} has no APNs or FCM credentials: with real providers nothing is delivered until they are uploaded (Apps, with the admin key).`)];
  }
  const failing = set.filter(([, summary]) => summary.health && summary.health.state === 'failing').map(([provider, summary]) =>
    h('p', { class: 'banner', role: 'alert', 'data-provider': provider },
      h('strong', {}, `${providers[provider] || provider} credentials are failing`),
      `: ${summary.health.lastFailureReason || 'the provider refuses them'}. Messages to ${platforms[provider] || 'these devices'} wait until they are fixed.`));
  const expiring = set.filter(([, summary]) => summary.expiresSoon === true).map(([provider, summary]) =>
    h('p', { class: 'banner', role: 'alert', 'data-provider': provider },
      h('strong', {}, `The ${providers[provider] || provider} certificate expires ${when(summary.expiresAt)}`),
      `: renew it in the Apple Developer account and upload the new one, or ${platforms[provider] || 'these devices'} stop getting messages.`));
  const refused = set.filter(([, summary]) => summary.test && summary.test.state === 'rejected' && !(summary.health && summary.health.state === 'failing'))
    .map(([provider, summary]) => h('p', { class: 'banner', role: 'alert', 'data-provider': provider },
      h('strong', {}, `${providers[provider] || provider} refused these credentials when tested`),
      `: ${summary.test.reason || 'no reason given'}. ${summary.test.fix || ''} Fix them before the first push to ${platforms[provider] || 'these devices'}.`));
  return [...failing, ...refused, ...expiring];
}
