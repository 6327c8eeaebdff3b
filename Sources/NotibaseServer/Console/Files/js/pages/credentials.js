// An app's provider credentials in words: what is stored (labels, not field names; dates as the
// reader writes them), whether they work (health), and the banners the apps and compose pages show
// when they fail or when there are none.
import { h, when, words } from '../dom.js';

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
  return [...failing, ...expiring];
}
