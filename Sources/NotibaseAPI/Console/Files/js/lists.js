// Lists that can be long (a device's or a message's deliveries, the devices), read newest first a
// page at a time: the page says how many there are and offers the next page.
import { h, replace } from './dom.js';
import * as api from './api.js';

/**
 * A list of `path` (its filters in the query, no paging) read newest first, `size` at a time.
 * `draw(items)` makes the list's element (it may be async); `empty` is shown when there is none;
 * `nouns` name what is counted, one and many (['delivery', 'deliveries']). Returns `{ element, load, reload }`:
 * `load(path)` reads the first page again (a new filter), `reload()` the pages shown (polling),
 * `fail(text)` shows an error in the list's place.
 */
export function newestFirst({ path, size, draw, empty, nouns, id }) {
  const body = h('div');
  const count = h('p', { class: 'list-count', id: id ? `${id}-count` : null, 'aria-live': 'polite' });
  const more = h('button', { type: 'button', class: 'more', id: id ? `${id}-more` : null, hidden: true }, 'Show more');
  const element = h('div', { class: 'paged' }, count, body, h('div', { class: 'list-footer' }, more));
  let items = [];
  let next = null;
  let total = null;
  let pages = 1;
  let source = path;

  const url = (cursor) => source + (source.includes('?') ? '&' : '?') + `order=newest&total=true&limit=${size}` +
    (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
  const plural = (n) => `${n} ${n === 1 ? nouns[0] : nouns[1]}`;

  async function read(pageCount) {
    let got = [];
    let cursor = null;
    let page = null;
    for (let i = 0; i < pageCount; i += 1) {
      page = await api.get(url(cursor));
      got = got.concat(page.items);
      cursor = page.nextCursor || null;
      if (!cursor) break;
    }
    return { got, cursor, total: page && typeof page.total === 'number' ? page.total : null };
  }

  async function show() {
    replace(body, items.length ? await draw(items) : h('p', {}, empty));
    const hasMore = total === null ? Boolean(next) : items.length < total;
    if (!items.length) {
      count.textContent = '';
    } else if (total === null) {
      count.textContent = `The newest ${plural(items.length)}${hasMore ? '; there are more' : ''}.`;
    } else {
      count.textContent = hasMore ? `The newest ${items.length} of ${plural(total)}.` : `All ${plural(total)}, newest first.`;
    }
    more.hidden = !hasMore;
    more.textContent = total === null ? `Show ${size} more` : `Show ${Math.min(size, total - items.length)} more of the ${total - items.length} older`;
  }

  async function reload() {
    ({ got: items, cursor: next, total } = await read(pages));
    await show();
  }

  async function load(newPath = source) {
    source = newPath;
    pages = 1;
    await reload();
  }

  function fail(text) {
    replace(body, h('p', { class: 'error' }, text));
    count.textContent = '';
    more.hidden = true;
  }

  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const page = await api.get(url(next));
      // Deliveries written since the first page push the list down: an item already shown is not shown twice.
      const shown = new Set(items.map((item) => item.id));
      items = items.concat(page.items.filter((item) => !shown.has(item.id)));
      next = page.nextCursor || null;
      if (typeof page.total === 'number') total = page.total;
      pages += 1;
      await show();
    } catch (error) {
      fail(error.message);
    } finally {
      more.disabled = false;
    }
  });

  return { element, load, reload, fail };
}
