// Components V2 messages as the playground draws them (playground.js calls
// componentElement for a message with the flag; el, markdown, colour and buttonElement
// are playground.js's).
"use strict";

// A Components V2 message (flag 1 << 15) is its components alone, drawn in order as Discord
// draws them: a container (an accent bar, like an embed's), sections (text beside an
// accessory), text displays (markdown, as an embed's text), separators and action rows.
const IS_COMPONENTS_V2 = 1 << 15;

function componentElement(message, c) {
  if (c.type === 1) return rowElement(message, c);
  if (c.type === 10) return el("div", "text-display", markdown(c.content || ""));
  if (c.type === 14) {
    const kind = c.divider === false ? "separator" : "separator divider";
    return el("div", c.spacing === 2 ? `${kind} large` : kind);
  }
  if (c.type === 11) return Object.assign(el("img", "thumbnail"), { src: c.media.url });
  if (c.type === 12) {
    const gallery = el("div", "gallery");
    for (const item of c.items || []) {
      gallery.append(Object.assign(el("img"), { src: item.media.url }));
    }
    return gallery;
  }
  const node = el("div", c.type === 17 ? "container" : "section");
  if (c.type === 17) node.style.borderLeftColor = colour(c.accent_color);
  const inner = c.type === 9 ? el("div", "section-texts") : node;
  for (const child of c.components || []) inner.append(componentElement(message, child));
  if (c.type === 9) {
    node.append(inner);
    const accessory = c.accessory || {};
    if (accessory.type === 2) node.append(buttonElement(message, accessory));
    else if (accessory.type === 11) node.append(componentElement(message, accessory));
  }
  return node;
}
