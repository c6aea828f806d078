// Small DOM helpers: elements built with text nodes only (never innerHTML), so
// nothing the server or a tool definition says is ever read as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function el(tag, attributes, ...children) {
  return fill(document.createElement(tag), attributes, children);
}

export function svg(tag, attributes, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attributes, children);
}

export function show(container, ...children) {
  container.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined));
}

export function byId(id) {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no element #${id}`);
  return node;
}

export function fillSelect(select, options, selected) {
  select.replaceChildren(...options.map(([value, label]) => el("option", { value, selected: value === selected }, label)));
}

// A percentage as the server gave it: never rounded, so the page shows the evidence's own figure.
export function percent(value) {
  return value === null || value === undefined ? "no number" : `${value}%`;
}

export function interval(pair) {
  return Array.isArray(pair) && pair.length === 2 ? `[${percent(pair[0])}, ${percent(pair[1])}]` : "";
}
