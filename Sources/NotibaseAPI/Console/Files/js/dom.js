// Building the page without ever parsing text as HTML: every value from the API is shown with
// textContent, attributes are set one by one, and no markup string is ever assigned.

/** Creates an element: h('p', {class: 'x', onclick: f}, 'text', child, ...). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = value;
    } else if (name in element && typeof value !== 'string') {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends strings (as text) and nodes, flattening arrays, skipping null. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces a node's children. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** Announces a short message to screen readers. */
export function announce(text) {
  const status = document.getElementById('status');
  if (status) status.textContent = text;
}

/** A labelled field: <div class="field"><label>…</label><input>…<p class="error"></p></div>. */
export function field(label, control, { hint, name } = {}) {
  const id = control.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  const error = h('p', { class: 'error', id: `${id}-error`, hidden: true });
  const described = [error.id];
  let hintNode = null;
  if (hint) {
    hintNode = h('p', { class: 'hint', id: `${id}-hint` }, hint);
    described.unshift(hintNode.id);
  }
  control.setAttribute('aria-describedby', described.join(' '));
  const wrapper = h('div', { class: 'field' }, h('label', { for: id }, label), control, hintNode, error);
  if (name) wrapper.dataset.field = name;
  return wrapper;
}

/** Shows (or clears, with null) the error of a field made by field(). */
export function setFieldError(wrapper, text) {
  if (!wrapper) return;
  const control = wrapper.querySelector('input, textarea, select');
  const error = wrapper.querySelector('.error');
  if (!error) return;
  error.textContent = text || '';
  error.hidden = !text;
  if (control) control.setAttribute('aria-invalid', text ? 'true' : 'false');
}

const timeFormat = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' };

/** A time as the reader's locale writes it, in the reader's time zone, naming the zone. */
export function when(text) {
  if (!text) return '';
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleString(undefined, timeFormat);
}

/** A share as a whole percentage ("0%" when there is nothing to share). */
export function percent(part, whole) {
  if (!whole) return '0%';
  const value = (part / whole) * 100;
  return (value > 0 && value < 1 ? '<1' : String(Math.round(value))) + '%';
}

/** A camelCase name in words: "clientEmail" → "Client email". */
export function words(name) {
  const spaced = String(name).replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A button that copies `text` to the clipboard and says so. */
export function copyButton(text, what) {
  const button = h('button', { type: 'button', class: 'copy', 'aria-label': `Copy the ${what}` }, 'Copy');
  button.addEventListener('click', async () => {
    let copied = false;
    try { await navigator.clipboard.writeText(text); copied = true; } catch { copied = false; }
    button.textContent = copied ? 'Copied' : 'Select and copy by hand';
    announce(copied ? `The ${what} is copied` : `The browser refused the clipboard: select the ${what} and copy it`);
  });
  return button;
}

/** A platform as people say it: "iOS", "Android". */
export function platformName(platform) {
  return { ios: 'iOS', android: 'Android' }[platform] || String(platform);
}
