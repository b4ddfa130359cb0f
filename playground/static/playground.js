// The playground page: one server, its channels and players, drawn as a Discord client
// draws them, kept live over a websocket. Every action goes through the local Discord.
"use strict";

const state = {
  world: null,          // /api/state: players, channels, commands, names
  viewer: null,         // the player this page plays as (id)
  channel: null,        // the channel shown (id)
  messages: new Map(),  // id -> message, for the shown channel
  notes: new Map(),     // message id -> "This interaction failed" and other client notes
  dismissed: new Set(), // ephemeral messages the player dismissed
  unread: new Set(),    // channels with news
  socket: null,
  selected: 0,          // highlighted suggestion
};

const $ = (selector) => document.querySelector(selector);
const AVATAR_COLOURS = ["#5865f2", "#757e8a", "#3ba55c", "#faa61a", "#ed4245", "#eb459e"];

function el(tag, className, html) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (html !== undefined) node.innerHTML = html;
  return node;
}

// This run's token, served inside the page: the server refuses requests without it.
const TOKEN = document.querySelector('meta[name="playground-token"]').content;

async function api(path, body) {
  const headers = { "X-Playground-Token": TOKEN };
  const options = body === undefined ? { headers } : {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  return { ok: response.ok, data };
}

function markdown(text) {
  const world = state.world;
  return Markdown.render(text, {
    cdn: world.cdn,
    names: { users: world.users, channels: world.channel_names, roles: world.role_names },
  });
}

function avatar(id, name, small) {
  const node = el("span", small ? "avatar small" : "avatar");
  node.textContent = (name || "?")[0].toUpperCase();
  const index = Number(BigInt(id) % BigInt(AVATAR_COLOURS.length));
  node.style.background = AVATAR_COLOURS[index];
  return node;
}

function when(unix) {
  const date = new Date(unix * 1000);
  const time = new Intl.DateTimeFormat(undefined, { timeStyle: "short" }).format(date);
  const today = new Date().toDateString() === date.toDateString();
  return today ? `Today at ${time}` : `${date.toLocaleDateString()} ${time}`;
}

// -- the world: players and channels ---------------------------------------------------------

async function loadWorld() {
  const { data } = await api(state.viewer ? `/api/state?viewer=${state.viewer}` : "/api/state");
  state.world = data;
  const ids = (list) => list.map((x) => x.id);
  if (!ids(data.players).includes(state.viewer)) state.viewer = data.players[0].id;
  if (!ids(data.channels).includes(state.channel)) state.channel = data.channels[0].id;
  drawSidebar();
}

function drawSidebar() {
  const world = state.world;
  $("#guild-name").textContent = world.guild;
  const channels = $("#channels");
  channels.replaceChildren(...world.channels.map((channel) => {
    const item = el("li");
    item.textContent = channel.name;
    item.dataset.channelId = channel.id;
    item.classList.toggle("current", channel.id === state.channel);
    item.classList.toggle("unread", state.unread.has(channel.id));
    item.onclick = () => showChannel(channel.id);
    return item;
  }));
  const players = $("#players");
  players.replaceChildren(...world.players.map((player) => {
    const item = el("li");
    const name = Object.assign(el("span", "name"), { textContent: player.name, title: player.name });
    item.append(avatar(player.id, player.name, true), name);
    item.dataset.playerName = player.name;
    item.classList.toggle("current", player.id === state.viewer);
    item.onclick = () => playAs(player.id);
    return item;
  }));
  const me = world.players.find((p) => p.id === state.viewer);
  $("#you-avatar").replaceWith(Object.assign(avatar(me.id, me.name, true), { id: "you-avatar" }));
  $("#you-name").textContent = me.name;
  $("#you-name").title = me.name;
  const language = $("#language");
  language.replaceChildren(...world.languages.map(({ code, name }) => {
    const option = el("option");
    option.value = code;
    option.textContent = name;
    return option;
  }));
  language.value = me.language;
  const channel = world.channels.find((c) => c.id === state.channel);
  $("#channel-name").textContent = channel.name;
  $("#command-input").placeholder = `Message #${channel.name}: type / for the bot's commands`;
}

async function showChannel(id) {
  state.channel = id;
  state.unread.delete(id);
  drawSidebar();
  await loadMessages();
}

async function playAs(id) {
  closeModal(); // a form belongs to the player it was shown to
  state.viewer = id;
  if (state.socket && state.socket.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify({ viewer: id }));
  }
  await loadWorld(); // the commands offered depend on the player's permissions
  await loadMessages();
  document.body.dataset.playingAs = state.world.players.find((p) => p.id === id).name;
}

async function loadMessages() {
  const query = `channel=${state.channel}&viewer=${state.viewer}`;
  const { data } = await api(`/api/messages?${query}`);
  state.messages = new Map(data.map((m) => [m.id, m]));
  drawMessages();
}

// -- messages ---------------------------------------------------------------------------------

function drawMessages() {
  const box = $("#messages");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const shown = [...state.messages.values()].filter((m) => !state.dismissed.has(m.id));
  const nodes = shown.map(messageElement);
  box.replaceChildren(...nodes);
  const table = shown.findLastIndex(isTable);
  if (table >= 0) nodes[table].classList.add("pinned");
  Markdown.tick(box);
  if (atBottom) box.scrollTop = box.scrollHeight;
}

// The table: the newest message everyone sees with the bot's buttons. It stays pinned at the
// top of the channel while the private replies under it scroll, so it is never pushed away.
function isTable(m) {
  return !m.ephemeral && m.author.bot && (m.components || []).length > 0;
}

function messageElement(m) {
  const node = el("div", "message");
  node.dataset.messageId = m.id;
  node.classList.toggle("ephemeral", m.ephemeral);
  if (m.used_by && m.used_command) {
    const used = el("div", "used");
    used.innerHTML = `<span><span class="who"></span> used <span class="cmd"></span></span>`;
    used.querySelector(".who").textContent = `@${m.used_by}`;
    used.querySelector(".cmd").textContent = `/${m.used_command}`;
    node.append(used);
  }
  node.append(avatar(m.author.id, m.author_name));
  const body = el("div", "body");
  const head = el("div", "head");
  head.append(Object.assign(el("span", "author"), { textContent: m.author_name }));
  if (m.author.bot) head.append(el("span", "app-tag", "APP"));
  head.append(Object.assign(el("span", "time"), { textContent: when(m.unix) }));
  body.append(head);
  if (m.loading) {
    body.append(el("div", "thinking", `${Markdown.escapeHtml(m.author_name)} is thinking…`));
  } else if (m.content) {
    const content = el("div", "content", markdown(m.content));
    if (m.edited_timestamp) content.append(el("span", "edited", "(edited)"));
    body.append(content);
  }
  if (m.flags & IS_COMPONENTS_V2) {
    for (const component of m.components || []) body.append(componentElement(m, component));
  } else {
    for (const embed of m.embeds || []) body.append(embedElement(embed));
    for (const row of m.components || []) body.append(rowElement(m, row));
  }
  const note = state.notes.get(m.id);
  if (note) body.append(Object.assign(el("div", "failed"), { textContent: note }));
  if (m.ephemeral) body.append(onlyYou(m));
  node.append(body);
  return node;
}

function onlyYou(m) {
  const eye = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">' +
    '<path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7Zm0 ' +
    '11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9Zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z"/></svg>';
  const footer = el("div", "only-you", `${eye} Only you can see this • <a>Dismiss message</a>`);
  footer.querySelector("a").onclick = () => { state.dismissed.add(m.id); drawMessages(); };
  return footer;
}

function colour(value) {
  return value === undefined || value === null ? "#1e1f22"
    : `#${Number(value).toString(16).padStart(6, "0")}`;
}

function embedElement(embed) {
  const node = el("div", "embed");
  node.style.borderLeftColor = colour(embed.color);
  if (embed.author && embed.author.name) {
    const author = el("div", "embed-author");
    if (embed.author.icon_url) author.append(Object.assign(el("img"), { src: embed.author.icon_url }));
    author.append(document.createTextNode(embed.author.name));
    node.append(author);
  }
  if (embed.title) {
    const title = el("div", "embed-title", markdown(embed.title));
    if (embed.url) title.innerHTML = `<a href="${encodeURI(embed.url)}">${title.innerHTML}</a>`;
    node.append(title);
  }
  if (embed.description) node.append(el("div", "embed-description", markdown(embed.description)));
  if (embed.fields && embed.fields.length) node.append(fieldsElement(embed.fields));
  if (embed.thumbnail && embed.thumbnail.url) {
    node.append(Object.assign(el("img", "embed-thumbnail"), { src: embed.thumbnail.url }));
  }
  if (embed.image && embed.image.url) {
    node.append(Object.assign(el("img", "embed-image"), { src: embed.image.url }));
  }
  const footerText = embed.footer && embed.footer.text;
  if (footerText || embed.timestamp) {
    const footer = el("div", "embed-footer");
    if (embed.footer && embed.footer.icon_url) {
      footer.append(Object.assign(el("img"), { src: embed.footer.icon_url }));
    }
    const parts = [footerText, embed.timestamp && when(Date.parse(embed.timestamp) / 1000)];
    footer.append(document.createTextNode(parts.filter(Boolean).join(" • ")));
    node.append(footer);
  }
  return node;
}

// Inline fields share a row, up to three; a field that is not inline takes the whole row.
function fieldsElement(fields) {
  const grid = el("div", "embed-fields");
  let row = [];
  const flush = () => {
    for (const cell of row) cell.style.gridColumn = `span ${12 / row.length}`;
    row = [];
  };
  for (const field of fields) {
    const cell = el("div", field.inline ? "embed-field inline" : "embed-field");
    cell.append(el("div", "embed-field-name", markdown(field.name)));
    cell.append(el("div", "embed-field-value", markdown(field.value)));
    if (!field.inline || row.length === 3) flush();
    if (field.inline) row.push(cell);
    grid.append(cell);
  }
  flush();
  return grid;
}

function rowElement(message, row) {
  const node = el("div", "row");
  for (const part of row.components || []) {
    if (part.type !== 2) continue; // only buttons are drawn (the bot sends no select menus)
    node.append(buttonElement(message, part));
  }
  return node;
}

function buttonElement(message, part) {
  const button = el("button", `button style-${part.style}`);
  button.type = "button";
  button.disabled = Boolean(part.disabled);
  if (part.custom_id) button.dataset.customId = part.custom_id;
  if (part.emoji) button.innerHTML = buttonEmoji(part.emoji);
  if (part.label) button.append(document.createTextNode(part.label));
  if (part.style === 5 && part.url) button.onclick = () => window.open(part.url, "_blank");
  else button.onclick = () => press(message, part.custom_id);
  return button;
}

function buttonEmoji(emoji) {
  if (!emoji.id) return Markdown.escapeHtml(emoji.name || "");
  return Markdown.render(`<${emoji.animated ? "a" : ""}:${emoji.name}:${emoji.id}>`,
                         { cdn: state.world.cdn });
}

async function press(message, customId) {
  state.notes.delete(message.id);
  const { data } = await api("/api/press", {
    viewer: state.viewer, message: message.id, custom_id: customId,
  });
  const problem = data.failed || data.refused || data.error;
  if (problem) {
    state.notes.set(message.id, problem);
    drawMessages();
  }
  if (data.modal) showModal(data.modal);
}

// -- modals: the form a button or a command answers with (interaction response type 9) ------

const MODAL_SELECT_SOURCES = {
  5: () => namesOf(state.world.users), 6: () => namesOf(state.world.role_names),
  7: () => [...namesOf(state.world.users), ...namesOf(state.world.role_names)],
  8: () => namesOf(state.world.channel_names),
};

function namesOf(byId) {
  return Object.entries(byId).map(([value, label]) => ({ value, label }));
}

function showModal(modal) {
  closeModal();
  const backdrop = el("div", "modal-backdrop");
  backdrop.id = "modal";
  const form = el("form", "modal");
  form.setAttribute("role", "dialog");
  form.setAttribute("aria-modal", "true");
  form.dataset.interaction = modal.interaction;
  form.append(Object.assign(el("h2", "modal-title"), { textContent: modal.title }));
  const fields = el("div", "modal-fields");
  for (const item of modal.components || []) fields.append(...modalItem(item));
  const error = Object.assign(el("p", "error modal-error"), { role: "alert" });
  const footer = el("div", "modal-footer");
  const cancel = Object.assign(el("button", "button link"), { type: "button", textContent: "Cancel" });
  cancel.onclick = closeModal;
  const submit = Object.assign(el("button", "button style-1"), { type: "submit", textContent: "Submit" });
  footer.append(cancel, submit);
  form.append(fields, error, footer);
  form.addEventListener("submit", (event) => { event.preventDefault(); submitModal(form); });
  backdrop.append(form);
  document.body.append(backdrop);
  const first = form.querySelector("input, textarea, select");
  if (first) first.focus();
}

function closeModal() {
  const open = document.getElementById("modal");
  if (open) open.remove();
}

function modalItem(item) {
  if (item.type === 1) return (item.components || []).map((c) => modalField(c, c.label));
  if (item.type === 18) return [modalField(item.component, item.label, item.description)];
  if (item.type === 10) return [el("div", "content", markdown(item.content || ""))];
  return [];
}

// One labelled field; its control carries the component's custom id and type.
function modalField(component, label, description) {
  const field = el("label", "modal-field");
  const name = Object.assign(el("span", "modal-label"), { textContent: label || "" });
  if (component.required !== false && component.type === 4) name.classList.add("required");
  field.append(name);
  if (description) field.append(Object.assign(el("span", "modal-description"), { textContent: description }));
  const control = modalControl(component);
  control.dataset.customId = component.custom_id;
  control.dataset.type = component.type;
  control.classList.add("modal-control");
  field.append(control);
  return field;
}

function modalControl(c) {
  if (c.type === 4) {
    const input = el(c.style === 2 ? "textarea" : "input");
    input.value = c.value || "";
    if (c.placeholder) input.placeholder = c.placeholder;
    if (c.max_length) input.maxLength = c.max_length;
    if (c.min_length) input.minLength = c.min_length;
    input.required = c.required !== false;
    return input;
  }
  if (c.type === 23) {
    return Object.assign(el("input"), { type: "checkbox", checked: Boolean(c.default) });
  }
  const options = c.options || (MODAL_SELECT_SOURCES[c.type] || (() => []))();
  if (c.type === 21 || c.type === 22) {
    const group = el("div", "modal-choices");
    for (const option of options) {
      const choice = el("label", "modal-choice");
      const box = Object.assign(el("input"), {
        type: c.type === 21 ? "radio" : "checkbox", value: option.value,
        name: c.custom_id, checked: Boolean(option.default),
      });
      choice.append(box, document.createTextNode(option.label));
      group.append(choice);
    }
    return group;
  }
  const select = el("select");
  select.multiple = (c.max_values || 1) > 1;
  for (const option of options) {
    select.append(Object.assign(el("option"), {
      value: option.value, textContent: option.label, selected: Boolean(option.default),
    }));
  }
  return select;
}

// The value Discord's client sends for each field: text, a choice, choices, or true/false.
function modalValue(control) {
  const type = Number(control.dataset.type);
  if (type === 4) return control.value;
  if (type === 23) return control.checked;
  if (type === 21 || type === 22) {
    const picked = [...control.querySelectorAll("input:checked")].map((i) => i.value);
    return type === 21 ? (picked[0] ?? null) : picked;
  }
  return [...control.selectedOptions].map((o) => o.value);
}

async function submitModal(form) {
  if (!form.reportValidity()) return;
  const values = {};
  for (const control of form.querySelectorAll(".modal-control")) {
    values[control.dataset.customId] = modalValue(control);
  }
  const { data } = await api("/api/modal", {
    viewer: state.viewer, interaction: form.dataset.interaction, values,
  });
  const problem = data.failed || data.refused || data.error;
  if (problem) {
    form.querySelector(".modal-error").textContent = problem;
    return;
  }
  closeModal();
  if (data.modal) showModal(data.modal);
}

// -- live updates ----------------------------------------------------------------------------

function connect() {
  const query = new URLSearchParams({ viewer: state.viewer, token: TOKEN });
  const socket = new WebSocket(`ws://${location.host}/api/live?${query}`);
  state.socket = socket;
  socket.onopen = () => { $("#connection").classList.add("live"); loadMessages(); };
  socket.onclose = () => {
    $("#connection").classList.remove("live");
    setTimeout(connect, 1000);
  };
  socket.onmessage = (frame) => onEvent(JSON.parse(frame.data));
}

async function onEvent(event) {
  if (event.kind === "world") {
    await loadWorld();
    return;
  }
  const m = event.message;
  if (m.channel_id !== state.channel) {
    if (event.kind === "create") { state.unread.add(m.channel_id); drawSidebar(); }
    return;
  }
  if (m.ephemeral && m.interaction_metadata && m.interaction_metadata.user.id !== state.viewer) {
    return; // another player's (switched away while it was on its way)
  }
  if (event.kind === "delete") state.messages.delete(m.id);
  else state.messages.set(m.id, m);
  drawMessages();
}

// -- the command box -------------------------------------------------------------------------

function suggestions(text) {
  const commands = state.world.commands;
  if (!text.startsWith("/")) return { list: [], help: null };
  const typed = text.slice(1).replace(/\s+/g, " ");
  const exact = commands
    .filter((c) => typed === c.path || typed.startsWith(`${c.path} `))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (exact) return { list: [], help: exact };
  return { list: commands.filter((c) => c.path.startsWith(typed.trimStart())), help: null };
}

const TYPE_NAMES = { 3: "text", 4: "whole number", 5: "true/false", 6: "member", 7: "channel",
                     8: "role", 9: "member or role", 10: "number" };

function optionHelp(option) {
  const row = el("div", "option-help");
  const name = el("span", option.required ? "name required" : "name");
  name.textContent = `${option.name}:`;
  const limits = [];
  if ("min_value" in option || "max_value" in option) {
    limits.push(`${option.min_value ?? ""}–${option.max_value ?? ""}`);
  }
  if ("min_length" in option || "max_length" in option) {
    limits.push(`${option.min_length ?? 0}–${option.max_length ?? ""} characters`);
  }
  const about = ` ${TYPE_NAMES[option.type] || "value"}${limits.length ? `, ${limits.join(", ")}` : ""}` +
                ` — ${option.description}`;
  row.append(name, document.createTextNode(about));
  if (option.choices.length) {
    const choices = el("div", "choices");
    choices.textContent = `one of: ${option.choices.map((c) => c.name).join(" · ")}`;
    row.append(choices);
  }
  return row;
}

function drawSuggestions() {
  const box = $("#suggestions");
  const { list, help } = suggestions($("#command-input").value);
  if (help) {
    const title = el("div", "title");
    title.textContent = `/${help.path} — ${help.description}`;
    box.replaceChildren(title, ...help.options.map(optionHelp));
    box.hidden = help.options.length === 0;
    return;
  }
  state.selected = Math.min(state.selected, Math.max(0, list.length - 1));
  box.replaceChildren(el("div", "title", "Commands of Blackjack Dealer"), ...list.map((c, i) => {
    const item = el("div", i === state.selected ? "suggestion active" : "suggestion");
    item.dataset.path = c.path;
    item.append(Object.assign(el("span", "path"), { textContent: `/${c.path}` }));
    const opts = c.options.map((o) => (o.required ? o.name : `[${o.name}]`)).join(" ");
    item.append(Object.assign(el("span", "opts"), { textContent: opts }));
    item.append(Object.assign(el("span", "desc"), { textContent: c.description }));
    item.onclick = () => choose(c.path);
    return item;
  }));
  box.hidden = list.length === 0;
}

function choose(path) {
  const input = $("#command-input");
  input.value = `/${path} `;
  input.focus();
  drawSuggestions();
}

async function sendCommand(event) {
  event.preventDefault();
  const input = $("#command-input");
  const line = input.value.trim();
  if (!line) return;
  $("#command-error").textContent = "";
  if (!line.startsWith("/")) {
    $("#command-error").textContent =
      "The bot reads no messages: use its slash commands (type /).";
    return;
  }
  input.disabled = true;
  try {
    const { data } = await api("/api/command", {
      viewer: state.viewer, channel: state.channel, line,
    });
    if (data.refused || data.error) {
      $("#command-error").textContent = data.refused || data.error;
    } else {
      if (data.failed) $("#command-error").textContent = data.failed;
      input.value = "";
      if (data.modal) showModal(data.modal);
    }
  } finally {
    input.disabled = false;
    input.focus();
    drawSuggestions();
  }
}

function onKey(event) {
  const { list } = suggestions(event.target.value);
  if (!list.length) return;
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    const step = event.key === "ArrowDown" ? 1 : list.length - 1;
    state.selected = (state.selected + step) % list.length;
    drawSuggestions();
    event.preventDefault();
  } else if (event.key === "Tab") {
    choose(list[state.selected].path);
    event.preventDefault();
  }
}

async function addThing(form, input, path) {
  const name = input.value.trim();
  if (!name) return;
  const { ok, data } = await api(path, { name });
  $("#sidebar-error").textContent = ok ? "" : data.error;
  if (!ok) return;
  input.value = "";
  await loadWorld();
  if (path === "/api/players") await playAs(data.id);
  else await showChannel(data.id);
}

async function main() {
  await loadWorld();
  await loadMessages();
  document.body.dataset.playingAs = state.world.players.find((p) => p.id === state.viewer).name;
  connect();
  const input = $("#command-input");
  input.addEventListener("input", () => { state.selected = 0; drawSuggestions(); });
  input.addEventListener("keydown", onKey);
  input.addEventListener("blur", () => setTimeout(() => { $("#suggestions").hidden = true; }, 200));
  input.addEventListener("focus", drawSuggestions);
  $("#command-form").addEventListener("submit", sendCommand);
  $("#add-player").addEventListener("submit", (e) => {
    e.preventDefault();
    addThing(e.target, $("#new-player"), "/api/players");
  });
  // The language switch: the player's Discord client language, which their answers follow.
  $("#language").addEventListener("change", async (e) => {
    await api("/api/language", { viewer: state.viewer, language: e.target.value });
    await loadWorld();
  });
  $("#add-channel").addEventListener("submit", (e) => {
    e.preventDefault();
    addThing(e.target, $("#new-channel"), "/api/channels");
  });
  setInterval(() => Markdown.tick(), 1000);
  document.body.dataset.ready = "true";
}

main();
