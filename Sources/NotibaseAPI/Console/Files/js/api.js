// The API, with the key kept in sessionStorage (never in a URL, never in localStorage).

const storageKey = 'notibase.key';

export class APIError extends Error {
  constructor(status, body) {
    const detail = (body && body.error) || {};
    super(detail.message || `the server answered ${status}`);
    this.status = status;
    this.code = detail.code || 'http_' + status;
    this.field = detail.field || null;
    this.issues = detail.issues || [];
  }
}

export function key() { return sessionStorage.getItem(storageKey); }
export function keyKind() {
  const current = key() || '';
  if (current.startsWith('nb_admin_')) return 'admin';
  if (current.startsWith('nb_server_')) return 'server';
  return null;
}
export function setKey(value) { sessionStorage.setItem(storageKey, value); }
export function clearKey() { sessionStorage.removeItem(storageKey); }

/** Calls the API; resolves with the parsed JSON (or null for 204), rejects with APIError. */
export async function call(method, path, body, withKey = key()) {
  const headers = { Accept: 'application/json' };
  if (withKey) headers.Authorization = 'Bearer ' + withKey;
  const init = { method, headers, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (response.status === 401 && withKey && withKey === key()) {
    // The signed-in key stopped working (rotated, or its app deleted): the shell signs out.
    window.dispatchEvent(new CustomEvent('notibase:unauthorized'));
  }
  if (!response.ok) throw new APIError(response.status, json);
  return json;
}

export const get = (path) => call('GET', path);
export const post = (path, body) => call('POST', path, body);
