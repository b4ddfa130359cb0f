// Discord's markdown subset, rendered to HTML: what a Discord client shows for a message's
// content and an embed's text. Text is escaped first; only the markup below becomes HTML.
"use strict";

const Markdown = (() => {
  const escapeHtml = (text) =>
    text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
        .replace(/"/g, "&quot;").replace(/'/g, "&#39;");

  const LOCALE = undefined; // the browser's, as Discord's client uses the user's
  const STYLES = {
    t: { timeStyle: "short" },
    T: { timeStyle: "medium" },
    d: { dateStyle: "short" },
    D: { dateStyle: "long" },
    f: { dateStyle: "long", timeStyle: "short" },
    F: { dateStyle: "full", timeStyle: "short" },
  };
  const UNITS = [["year", 31536000], ["month", 2592000], ["day", 86400],
                 ["hour", 3600], ["minute", 60], ["second", 1]];

  // "in 25 seconds", "3 minutes ago": Discord's <t:UNIX:R>, ticking on the client.
  function relative(unix, now = Date.now() / 1000) {
    const delta = unix - now;
    const size = Math.abs(delta);
    const [unit, seconds] = UNITS.find(([, s]) => size >= s) || ["second", 1];
    const format = new Intl.RelativeTimeFormat("en", { numeric: "always" });
    return format.format(Math.round(delta / seconds), unit);
  }

  function timestamp(unix, style) {
    if (style === "R") return relative(unix);
    const options = STYLES[style] || STYLES.f;
    return new Intl.DateTimeFormat(LOCALE, options).format(new Date(unix * 1000));
  }

  // Custom emojis are images on Discord's CDN; until the image loads (or if it never
  // does) the client shows the emoji's :name:.
  function emoji(name, id, animated, cdn) {
    const src = `${cdn}/emojis/${id}.${animated ? "gif" : "png"}`;
    return `<img class="emoji" src="${src}" alt=":${name}:" title=":${name}:" ` +
           `data-emoji-name="${name}" onerror="Markdown.emojiFallback(this)">`;
  }

  function emojiFallback(img) {
    const text = document.createElement("span");
    text.className = "emoji-text";
    text.textContent = img.alt;
    img.replaceWith(text);
  }

  // Mentions, timestamps, emojis and links become HTML kept apart from the markup pass.
  function entities(text, ctx, keep) {
    const names = ctx.names || {};
    const mention = (prefix, table, id, unknown) =>
      keep(`<span class="mention">${prefix}${escapeHtml(table[id] || unknown)}</span>`);
    return text
      .replace(/&lt;(a?):(\w{2,32}):(\d+)&gt;/g, (_, a, name, id) =>
        keep(emoji(name, id, a, ctx.cdn)))
      .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, unix, style) =>
        keep(`<span class="timestamp" data-unix="${unix}" data-style="${style || "f"}"` +
             ` title="${timestamp(Number(unix), "F")}">` +
             `${timestamp(Number(unix), style || "f")}</span>`))
      .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => mention("@", names.users || {}, id, "unknown-user"))
      .replace(/&lt;@&amp;(\d+)&gt;/g, (_, id) =>
        mention("@", names.roles || {}, id, "unknown-role"))
      .replace(/&lt;#(\d+)&gt;/g, (_, id) => mention("#", names.channels || {}, id, "unknown"))
      .replace(/\[([^\]\n]+)\]\((https?:\/\/[^)\s]+)\)/g, (_, label, url) =>
        `${keep(`<a href="${url}" target="_blank" rel="noreferrer">`)}${label}${keep("</a>")}`);
  }

  function inline(text) {
    return text
      .replace(/\*\*\*([^*\n]+?)\*\*\*/g, "<strong><em>$1</em></strong>")
      .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
      .replace(/__(.+?)__/g, "<u>$1</u>")
      .replace(/(^|[^\w*])\*(?!\s)([^*\n]+?)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|\W)_(?!\s)([^_\n]+?)_(?!\w)/g, "$1<em>$2</em>")
      .replace(/~~(.+?)~~/g, "<s>$1</s>")
      .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler" onclick="this.classList.add(\'shown\')">$1</span>');
  }

  function lines(text) {
    const out = [];
    let list = false;
    for (const line of text.split("\n")) {
      let match;
      const isItem = (match = /^\s*[-*] (.*)$/.exec(line)) && !/^-# /.test(line);
      if (list && !isItem) { out.push("</ul>"); list = false; }
      if (isItem) {
        if (!list) { out.push("<ul>"); list = true; }
        out.push(`<li>${inline(match[1])}</li>`);
      } else if ((match = /^(#{1,3}) (.+)$/.exec(line))) {
        out.push(`<h${match[1].length}>${inline(match[2])}</h${match[1].length}>`);
      } else if ((match = /^-# (.+)$/.exec(line))) {
        out.push(`<small class="subtext">${inline(match[1])}</small>`);
      } else if ((match = /^&gt; ?(.*)$/.exec(line))) {
        out.push(`<blockquote>${inline(match[1])}</blockquote>`);
      } else {
        out.push(`${inline(line)}<br>`);
      }
    }
    if (list) out.push("</ul>");
    return out.join("").replace(/(<br>)+$/, "");
  }

  // Code is kept apart first: nothing inside a code span or block is markup.
  function render(text, ctx = {}) {
    const codes = [];
    const keep = (html) => `\u0000${codes.push(html) - 1}\u0000`;
    let src = String(text || "")
      .replace(/```(?:[\w+-]*\n)?([\s\S]*?)```/g, (_, code) =>
        keep(`<pre><code>${escapeHtml(code.replace(/\n$/, ""))}</code></pre>`))
      .replace(/`([^`\n]+)`/g, (_, code) => keep(`<code>${escapeHtml(code)}</code>`));
    src = lines(entities(escapeHtml(src), ctx, keep));
    return src.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
  }

  function tick(root = document) {
    for (const span of root.querySelectorAll('.timestamp[data-style="R"]')) {
      span.textContent = relative(Number(span.dataset.unix));
    }
  }

  return { render, relative, timestamp, tick, emojiFallback, escapeHtml };
})();
