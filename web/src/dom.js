// Small DOM helpers: h() builds HTML elements, s() SVG elements.
const SVGNS = 'http://www.w3.org/2000/svg';

function apply(node, props, kids) {
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else if (k === 'text') node.textContent = v;
    else if (k === 'value' && 'value' in node) node.value = v;
    else if (k === 'checked' && 'checked' in node) node.checked = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of kids.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

/** h builds an HTML element: h('button', {onclick}, 'text'). */
export function h(tag, props, ...kids) {
  return apply(document.createElement(tag), props, kids);
}

/** s builds an SVG element. */
export function s(tag, props, ...kids) {
  return apply(document.createElementNS(SVGNS, tag), props, kids);
}

/** svg makes the root of a board drawing with a viewBox. */
export function svg(viewBox, label, ...kids) {
  return s('svg', { viewBox, role: 'img', 'aria-label': label, class: 'board-svg' }, ...kids);
}

/**
 * activate makes an SVG element clickable and keyboard-operable. A mouse
 * button or a finger acts when it is let go: boards are drawn anew on
 * every message, and a press before a redraw with its release after it
 * makes no click (the two land on different elements), so such clicks
 * were lost. Clicks that no pointer made (detail 0: from the keyboard or
 * a script) still act.
 */
export function activate(node, label, fn) {
  node.setAttribute('tabindex', '0');
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.classList.add('hot');
  node.addEventListener('pointerup', (e) => { if (e.button !== 0) return; e.stopPropagation(); fn(); });
  node.addEventListener('click', (e) => { e.stopPropagation(); if (e.detail === 0) fn(); });
  node.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); fn(); }
  });
  return node;
}

/** SEAT_COLORS are the colours of seats 0..3 on every board. */
export const SEAT_COLORS = ['#d9a400', '#2f6fd0', '#d0392b', '#239b56'];
