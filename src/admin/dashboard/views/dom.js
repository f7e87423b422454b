/** Building the page: its elements by id, and new elements with their attributes and children. */

export const byId = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A new element. Text goes in as text, never as HTML: task content comes from any client.
 * @param {string} tag
 * @param {Record<string, any>} [props] attributes; `text`, `className` and `dataset` (its undefined entries left out) are special
 * @param {...(Node | string | null | undefined | false)} children
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') el.textContent = value;
    else if (key === 'className') el.className = value;
    else if (key === 'dataset') {
      for (const [name, data] of Object.entries(value))
        if (data !== undefined) el.dataset[name] = String(data);
    } else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

/** A task state, coloured by style.css. */
export const badge = (/** @type {string} */ state) =>
  h('span', { className: `badge state-${state}`, 'data-testid': 'task-state', text: state });
