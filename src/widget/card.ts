// One product card: image with alt text, vendor, title, price and compare-at price, and the
// add-to-cart, save and hide buttons. Built with DOM calls (text never goes through innerHTML).
import type { WidgetConfig } from './config.js';
import { formatPrice } from './format.js';
import { savedProducts } from './storage.js';
import { bareId, type RecommendedProduct } from './types.js';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(className: string, text: string, label: string): HTMLButtonElement {
  const node = el('button', className, text);
  node.type = 'button';
  node.setAttribute('aria-label', label);
  node.title = label;
  return node;
}

/** What a card shows: a new card is built when this changes. */
export function cardSignature(product: RecommendedProduct): string {
  return [product.title, product.handle, product.image, product.price, product.compareAtPrice, product.vendor].join('\u0000');
}

export function renderCard(product: RecommendedProduct, config: WidgetConfig): HTMLLIElement {
  const id = bareId(product.id);
  const card = el('li', 'pw-card');
  card.dataset.productId = id;
  card.setAttribute('aria-roledescription', 'slide');

  const link = el('a', 'pw-link');
  link.href = config.linkBase + encodeURIComponent(product.handle || id);
  const media = el('span', 'pw-media');
  if (product.image) {
    const img = el('img', 'pw-img');
    img.src = new URL(product.image, config.api).href;
    img.alt = product.title;
    img.loading = 'lazy';
    img.decoding = 'async';
    img.width = img.height = 400;
    media.append(img);
  }
  link.append(media);
  if (product.vendor) link.append(el('span', 'pw-vendor', product.vendor));
  link.append(el('span', 'pw-name', product.title));
  card.append(link);

  if (product.price !== null) {
    const onSale = product.compareAtPrice !== null && Number(product.compareAtPrice) > Number(product.price);
    const price = el('p', onSale ? 'pw-price pw-sale' : 'pw-price');
    const now = el('span', 'pw-now');
    if (onSale) now.append(el('span', 'pw-sr', 'Sale price '));
    now.append(formatPrice(product.price, config.currency, config.locale));
    price.append(now);
    if (onSale) {
      const was = el('s', 'pw-was');
      was.append(el('span', 'pw-sr', 'Regular price '), formatPrice(product.compareAtPrice!, config.currency, config.locale));
      price.append(was);
    }
    card.append(price);
  }

  // The add button under the price; save and hide float on the image (after it in tab order).
  const tools = el('div', 'pw-tools');
  const save = button('pw-save', '', `Save ${product.title}`);
  setSaved(save, savedProducts.has(id));
  tools.append(save, button('pw-hide', '✕', `Hide ${product.title}`));
  card.append(button('pw-add', 'Add to cart', `Add ${product.title} to cart`), tools);
  return card;
}

export function setSaved(save: Element, saved: boolean): void {
  save.setAttribute('aria-pressed', String(saved));
  save.textContent = saved ? '♥' : '♡';
}
