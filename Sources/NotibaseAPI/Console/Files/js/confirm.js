// What cannot be undone asks first: a folded "danger zone" whose button stays disabled until a
// word that names the thing (an app's name, a user's ID) is typed out exactly.
import { h, field, setFieldError } from './dom.js';

/**
 * `summary` folds the form; `label` asks for `expected` to be typed; `button` names the act;
 * `run()` does it (a rejection is shown under the field). Returns the `details` element.
 */
export function typedConfirmation({ summary, label, hint, expected, button: buttonText, run, className }) {
  const input = h('input', { type: 'text', autocomplete: 'off', spellcheck: false });
  const typed = field(label, input, { hint });
  const button = h('button', { type: 'submit', class: 'danger', disabled: true }, buttonText);
  input.addEventListener('input', () => { button.disabled = input.value !== expected; });
  const form = h('form', { class: className, novalidate: true, 'aria-label': buttonText }, typed, button);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (input.value !== expected) return;
    setFieldError(typed, null);
    button.disabled = true;
    try { await run(); } catch (error) { setFieldError(typed, error.message); button.disabled = false; }
  });
  return h('details', { class: 'danger-zone' }, h('summary', {}, summary), form);
}
