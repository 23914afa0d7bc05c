/**
 * The detail panel of one venue: basic details (address, contact, hours, images) and its
 * menus with prices in pounds, under the dietary notice the interface asks for.
 */
import { formatPounds, h, humanize, openState } from './format.js';
import type { BasicDetails, MenuList } from './types.js';

export const DIETARY_NOTICE =
  'Dietary information comes from the venue and may be incomplete or out of date. Checking that a venue and its dishes suit your dietary needs is your responsibility: ask the venue before you order.';

function safeLink(url: string, text: string): HTMLElement {
  // only web links become anchors; anything else (javascript:, data:) stays plain text
  if (!/^https?:\/\//i.test(url)) return h('span', '', text);
  const a = h('a', '', text);
  a.href = url;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}

/**
 * The phone number as a `tel:` link a phone visitor taps to call (audit 64c F5): the href is
 * the number with its spaces removed (RFC 3966 keeps digits, "+" and visual separators);
 * anything else than such a number stays plain text.
 */
function phoneLink(number: string): HTMLElement {
  const dialled = number.replace(/\s+/g, '');
  if (!/^\+?[0-9().-]+$/.test(dialled)) return h('span', '', number);
  const a = h('a', 'phone', number);
  a.href = `tel:${dialled}`;
  return a;
}

function hoursList(details: BasicDetails): HTMLElement {
  const list = h('ul', 'hours');
  for (const group of details.regularOpeningHours) {
    const slots = group.timeSlots.map((s) => (s.isClosed ? 'closed' : `${s.open}–${s.close}`)).join(', ');
    list.append(h('li', '', `${group.days.join(', ')}: ${slots}`));
  }
  return list;
}

function menuBlock(menu: MenuList[number]): HTMLElement {
  const block = h('section', 'menu');
  const title = h('h4', '', menu.name);
  if (menu.price !== undefined) title.append(h('span', 'price', ` ${formatPounds(menu.price)}`));
  block.append(title);
  if (menu.description !== undefined) block.append(h('p', 'muted', menu.description));
  for (const section of menu.sections) {
    block.append(h('h5', '', section.name));
    const items = h('ul', 'menu-items');
    for (const item of section.items) {
      const li = h('li', 'menu-item');
      const line = h('span', 'item-line');
      line.append(h('span', 'item-name', item.name));
      if (item.price !== undefined) line.append(h('span', 'price', formatPounds(item.price)));
      li.append(line);
      if (item.dietaryFlags !== undefined && item.dietaryFlags.length > 0) {
        const flags = h('span', 'flags');
        for (const flag of item.dietaryFlags) flags.append(h('span', 'flag', humanize(flag)));
        li.append(flags);
      }
      if (item.description !== undefined) li.append(h('span', 'muted item-description', item.description));
      items.append(li);
    }
    block.append(items);
  }
  return block;
}

export function renderDetails(panel: HTMLElement, details: BasicDetails, menus: MenuList, onClose: () => void): void {
  panel.replaceChildren();
  const header = h('div', 'details-header');
  const name = h('h2', '', details.displayName || details.name);
  name.id = 'details-name';
  name.dir = 'auto';
  name.tabIndex = -1;
  const close = h('button', 'close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close details');
  close.addEventListener('click', onClose);
  header.append(name, close);
  panel.append(header);

  const facts = h('p', 'muted');
  facts.textContent = [details.primaryGenre, ...details.additionalGenres].filter((g): g is string => g !== undefined).map(humanize).join(' · ');
  panel.append(facts);
  const state = openState(details.isOpen, details.regularOpeningHours.length > 0, { open: 'Open now', closed: 'Closed now' });
  panel.append(h('p', state.className, state.text));
  if (details.formattedAddress !== undefined) panel.append(h('p', 'address', details.formattedAddress));
  if (details.description !== undefined) panel.append(h('p', '', details.description));
  if (details.wordOnTheStreet !== undefined) panel.append(h('blockquote', '', details.wordOnTheStreet));
  const contact = h('p', 'contact');
  if (details.websiteUri !== undefined) contact.append(safeLink(details.websiteUri, 'Website'), ' ');
  if (details.contactNumber !== undefined) contact.append(phoneLink(details.contactNumber));
  if (contact.childNodes.length > 0) panel.append(contact);
  if (details.ratings?.rating !== undefined) {
    panel.append(h('p', '', `Rated ${details.ratings.rating} of 5${details.ratings.userRatingCount === undefined ? '' : ` (${details.ratings.userRatingCount} reviews)`}`));
  }
  if (details.regularOpeningHours.length > 0) {
    panel.append(h('h3', '', 'Opening hours'), hoursList(details));
  }
  if (details.images.length > 0) {
    const gallery = h('div', 'gallery');
    details.images.forEach((image, i) => {
      if (!/^https?:\/\//i.test(image.url)) return;
      const img = h('img');
      img.src = image.url;
      img.alt = image.caption ?? `${details.displayName} photo ${i + 1}`;
      img.loading = 'lazy';
      img.referrerPolicy = 'no-referrer';
      img.addEventListener('error', () => img.remove());
      gallery.append(img);
    });
    panel.append(gallery);
  }
  const menuSection = h('section', 'menus');
  menuSection.setAttribute('aria-label', 'Menus');
  menuSection.append(h('h3', '', 'Menu'));
  menuSection.append(h('p', 'dietary-notice', DIETARY_NOTICE));
  if (menus.length === 0) menuSection.append(h('p', 'muted', 'This venue has published no menu.'));
  for (const menu of menus) menuSection.append(menuBlock(menu));
  panel.append(menuSection);
  panel.hidden = false;
  name.focus();
}
