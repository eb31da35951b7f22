/**
 * The embed copier's user script (`GET /api/embed-copier/userscript.js`), for a user-script
 * manager (Tampermonkey, Violentmonkey) in the browser where the user has the chat platform's
 * web client open. In the channels the user switches on, it reads each message's embeds from
 * the page as the client shows them and sends them, with the message id, to the user's
 * submission URL: a bot that posts only inside the platform still reaches the tracker. The
 * service dedupes by message id, so a message seen twice (scrolling back) makes one order.
 *
 * Without the manager's functions (GM_*), it falls back to `localStorage` and `fetch`, which is
 * how the browser test runs it.
 */

/** The script's text; `baseUrl` names the one host it may send to. */
export function userscript(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  return `// ==UserScript==
// @name         Order Tracker embed copier
// @namespace    ${baseUrl}
// @version      1.0.0
// @description  Copies checkout embeds from the chat web client to your Order Tracker.
// @match        https://discord.com/channels/*
// @match        https://*.discord.com/channels/*
// @downloadURL  ${baseUrl}/api/embed-copier/userscript.js
// @grant        GM_xmlhttpRequest
// @grant        GM_getValue
// @grant        GM_setValue
// @grant        GM_registerMenuCommand
// @connect      ${host}
// @run-at       document-idle
// ==/UserScript==
${SCRIPT}`;
}

/** Plain JavaScript (no template literals inside, so it can sit in one here). */
const SCRIPT = String.raw`(function () {
  "use strict";
  var PREFIX = "orderTrackerCopier.";
  var hasGM = typeof GM_getValue === "function";
  function load(name, fallback) {
    if (hasGM) return GM_getValue(name, fallback);
    var raw = localStorage.getItem(PREFIX + name);
    return raw === null ? fallback : JSON.parse(raw);
  }
  function save(name, value) {
    if (hasGM) GM_setValue(name, value);
    else localStorage.setItem(PREFIX + name, JSON.stringify(value));
  }
  function send(url, body, done) {
    var text = JSON.stringify(body);
    if (typeof GM_xmlhttpRequest === "function") {
      GM_xmlhttpRequest({
        method: "POST", url: url, data: text,
        headers: { "Content-Type": "application/json" },
        onload: function (r) { done(r.status); }, onerror: function () { done(0); },
      });
    } else {
      fetch(url, { method: "POST", body: text, headers: { "Content-Type": "application/json" } })
        .then(function (r) { done(r.status); }, function () { done(0); });
    }
  }

  // The channel is the last id of /channels/<server>/<channel>.
  function channelId() {
    var parts = location.pathname.split("/");
    return parts[1] === "channels" ? parts[3] || "" : "";
  }
  function enabledChannels() { return load("channels", []); }
  function toggleChannel() {
    var id = channelId();
    if (!id) return;
    var list = enabledChannels();
    var at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1); else list.push(id);
    save("channels", list);
    alert("Embed copier " + (at >= 0 ? "off" : "on") + " for this channel.");
    scan();
  }
  function setUrl() {
    var url = prompt("Your embed copier submission URL (Order Tracker, Settings):", load("submitUrl", ""));
    if (url !== null) save("submitUrl", url.trim());
  }
  if (typeof GM_registerMenuCommand === "function") {
    GM_registerMenuCommand("Set submission URL", setUrl);
    GM_registerMenuCommand("Copy this channel on/off", toggleChannel);
  }

  // The client renders an embed as an <article> whose CSS-module class names start with the
  // part's name (embedTitle__1a2b3): matched by prefix, as the hash changes between releases.
  function part(root, name) { return root.querySelector('[class*="' + name + '"]'); }
  function text(el) {
    if (!el) return undefined;
    var t = (el.innerText || el.textContent || "").trim();
    return t === "" ? undefined : t;
  }
  function imageIn(el) {
    var img = el && (el.tagName === "IMG" ? el : el.querySelector("img"));
    var src = img && (img.getAttribute("data-safe-src") || img.src);
    return src ? { url: src } : undefined;
  }
  function readEmbed(article) {
    var embed = { fields: [] };
    var title = part(article, "embedTitle");
    embed.title = text(title);
    var link = title && title.querySelector("a");
    if (link && link.href) embed.url = link.href;
    var author = text(part(article, "embedAuthorName"));
    if (author) embed.author = { name: author };
    embed.description = text(part(article, "embedDescription"));
    var fields = article.querySelectorAll('[class*="embedField_"]');
    for (var i = 0; i < fields.length; i++) {
      embed.fields.push({
        name: text(part(fields[i], "embedFieldName")),
        value: text(part(fields[i], "embedFieldValue")),
      });
    }
    var footer = text(part(article, "embedFooterText"));
    if (footer) embed.footer = { text: footer };
    var thumbnail = imageIn(part(article, "embedThumbnail"));
    if (thumbnail) embed.thumbnail = thumbnail;
    var image = imageIn(part(article, "embedImage")) || imageIn(part(article, "embedMedia"));
    if (image) embed.image = image;
    return embed;
  }

  var sent = {};
  var sentOrder = load("sent", []);
  sentOrder.forEach(function (id) { sent[id] = true; });
  function remember(id) {
    sent[id] = true;
    sentOrder.push(id);
    if (sentOrder.length > 1000) delete sent[sentOrder.shift()];
    save("sent", sentOrder);
  }
  // Refused for now (rate limit, outage): tried again at the next change of the page.
  function forget(id) {
    delete sent[id];
    sentOrder = sentOrder.filter(function (x) { return x !== id; });
    save("sent", sentOrder);
  }

  // Messages are <li id="chat-messages-<channel>-<message>">.
  function scan() {
    var url = load("submitUrl", "");
    var channel = channelId();
    if (!url || enabledChannels().indexOf(channel) < 0) return;
    var items = document.querySelectorAll('li[id^="chat-messages-"]');
    for (var i = 0; i < items.length; i++) {
      var messageId = items[i].id.split("-").pop();
      if (!messageId || sent[messageId]) continue;
      var articles = items[i].querySelectorAll('article[class*="embedWrapper"]');
      if (articles.length === 0) continue;
      var embeds = [];
      for (var j = 0; j < articles.length && j < 10; j++) embeds.push(readEmbed(articles[j]));
      remember(messageId);
      submit(url, embeds, messageId);
    }
  }

  function submit(url, embeds, messageId) {
    send(url, { embeds: embeds, messageId: messageId }, function (status) {
      if (status === 0 || status === 429 || status >= 500) forget(messageId);
    });
  }

  var timer = null;
  new MutationObserver(function () {
    if (timer === null) timer = setTimeout(function () { timer = null; scan(); }, 300);
  }).observe(document.body, { childList: true, subtree: true });
  scan();
})();
`;
