// The instant shell of <agent-chat> (the element build puts it in agent-chat.js, before the
// line that fetches the wasm). It draws each chat's frame and a working composer from plain
// DOM, with the classes and stylesheet the chat itself draws, so a person can type, paste and
// send at once. Enter or Send keeps the message as "sending"; when the chat mounts it takes
// the shell over (`take` below: text, caret, selection, focus, scroll, and the queued send),
// and if the wasm cannot load, the text stays editable with an error. Nothing typed is lost.
// `cargo xtask element` fills in the stylesheet and the texts (from
// agent-chat-core/locales/<lang>/chat.ftl).
// The stylesheet is the chat's first sheet, tokens on :host: the chat's wasm has no copy of
// it and reads this one by its name (`io::shell::shell_sheet`; the page's script also sets it
// on window).
const __agentChatSheet = "__AGENT_CHAT_SHELL_CSS__";
// The shell's own frame: full height, and in front of a chat still hidden.
const SHELL_FRAME_CSS = ".chat-shell{height:100%}.chat-shell--over{position:absolute;inset:0;z-index:1}";
const SHELL_TEXTS = __AGENT_CHAT_SHELL_TEXTS__;
// The files of the part the chat draws first (its message list and the chunks it shares).
const SHELL_FIRST_CHUNKS = __AGENT_CHAT_SHELL_CHUNKS__;
const SHELL_RTL = ["ar"];
// The send icon, built node by node: no HTML string is ever parsed, so the shell works on a
// page that enforces Trusted Types.
const SHELL_SVG = "http://www.w3.org/2000/svg";
function shellIcon() {
  const svg = document.createElementNS(SHELL_SVG, "svg");
  const attrs = { class: "chat-icon", viewBox: "0 0 24 24", width: "18", height: "18",
    fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round",
    "stroke-linejoin": "round", "aria-hidden": "true", focusable: "false" };
  for (const k in attrs) svg.setAttribute(k, attrs[k]);
  for (const d of ["M22 2 11 13", "M22 2 15 22 11 13 2 9 22 2z"]) {
    const path = document.createElementNS(SHELL_SVG, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

// The chat's own order (locale or lang attribute, the page's ?lang=, default-locale, the
// browser's language), each counted only if it names a shipped locale.
function shellLocale(host) {
  let page = null;
  try { page = new URLSearchParams(location.search).get("lang"); } catch (_) { /* no URL */ }
  const tags = [host.getAttribute("locale") || host.getAttribute("lang"), page,
    host.getAttribute("default-locale"), navigator.language];
  for (const tag of tags) {
    const lang = (tag || "").trim().toLowerCase().split(/[-_]/)[0];
    if (Object.prototype.hasOwnProperty.call(SHELL_TEXTS, lang)) return lang;
  }
  return "en";
}

function shellNode(tag, cls, attrs) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  for (const k in attrs || {}) el.setAttribute(k, attrs[k]);
  return el;
}

// Draws the shell into a chat not drawn yet; does nothing for one that has a shadow root.
function drawShell(host) {
  if (host.shadowRoot || host._agentChatShell) return;
  const lang = shellLocale(host);
  const t = SHELL_TEXTS[lang];
  const light = (host.getAttribute("theme") || "").trim().toLowerCase() === "light";
  const root = host.attachShadow({ mode: "open" });
  const style = shellNode("style", "", { "data-agent-chat-shell": "" });
  style.textContent = __agentChatSheet + SHELL_FRAME_CSS;
  const frame = shellNode("div", "chat-shell", { "data-agent-chat-shell": "" });
  const chat = shellNode("div", "chat-root" + (light ? " chat-theme-light" : ""), {
    "data-state": "idle", lang, dir: SHELL_RTL.includes(lang) ? "rtl" : "ltr" });
  const layout = shellNode("div", "chat-layout");
  // The history sidebar's box (shown unless `show-history` says no, as the chat reads it), busy
  // and empty, so the composer does not move when the chat draws its own.
  const history = (host.getAttribute("show-history") || "").trim();
  if (!["false", "0", "off", "no"].includes(history)) {
    layout.append(shellNode("aside", "chat-history", { part: "history", "data-open": "false",
      "aria-busy": "true", "aria-label": t.history }));
  }
  const main = shellNode("main", "chat-main");
  const header = shellNode("header", "chat-header", { part: "header" });
  const title = shellNode("h1", "chat-header__title");
  title.textContent = t.title;
  header.append(title);
  const list = shellNode("div", "chat-message-list-frame");
  const form = shellNode("form", "chat-input", { part: "composer", "data-state": "idle" });
  const box = shellNode("div", "chat-input__box");
  const ta = shellNode("textarea", "chat-input__textarea", {
    dir: "auto", rows: "1", "aria-label": t.label, placeholder: t.placeholder });
  const send = shellNode("button", "chat-input__send", {
    type: "submit", part: "send-button", "aria-label": t.send });
  send.append(shellIcon());
  const helper = shellNode("p", "chat-input__helper", { "data-hint": "false" });
  helper.textContent = t.helper;
  box.append(ta, send);
  form.append(box, helper);
  main.append(header, list, form);
  layout.append(main);
  chat.append(layout);
  frame.append(chat);
  root.append(style, frame);

  let queued = false;
  const refresh = () => {
    send.disabled = queued || !ta.value.trim();
    ta.style.height = "auto";
    ta.style.height = Math.min(ta.scrollHeight, 200) + "px";
  };
  const queue = () => {
    if (queued || !ta.value.trim()) return;
    queued = true;
    ta.readOnly = true;
    ta.setAttribute("aria-busy", "true");
    form.setAttribute("data-state", "sending");
    helper.textContent = t.sending;
    helper.setAttribute("data-hint", "true");
    refresh();
  };
  ta.addEventListener("input", refresh);
  ta.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); queue(); }
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); queue(); });
  refresh();

  host._agentChatShell = {
    // Called by the element just before it draws the chat (the shell leaves the DOM then, so
    // whether it had the focus is read now); `adopt(root)` after the chat is drawn.
    take() {
      host._agentChatShell = undefined;
      const place = caretOf(ta);
      return (chatRoot) => adoptShell(chatRoot, { style, frame, ta, place, queued: () => queued });
    },
    // The wasm could not be loaded or started: the text is the person's again, with the error.
    fail() {
      queued = false;
      ta.readOnly = false;
      ta.removeAttribute("aria-busy");
      form.setAttribute("data-state", "failed");
      helper.textContent = t.failed;
      helper.setAttribute("role", "alert");
      helper.setAttribute("data-hint", "true");
      refresh();
    },
  };
}

// Moves what the shell holds into the chat's composer, in one task: the text (as an input
// event, so the chat's draft has it), the selection and its direction, the focus, the scroll;
// a queued message is sent as soon as the chat's send button is enabled. While the chat is
// still hidden waiting for its language's texts, the shell stays in front and takes typing.
function adoptShell(chatRoot, s) {
  const real = chatRoot.querySelector(".chat-root");
  if (real && real.classList.contains("chat-root--waiting")) {
    const target = real.parentElement;
    target.style.position = "relative";
    s.frame.classList.add("chat-shell--over");
    chatRoot.prepend(s.style);
    target.append(s.frame);
    placeCaret(s.ta, s.place);
    const watch = new MutationObserver(() => {
      if (real.classList.contains("chat-root--waiting") && real.isConnected) return;
      watch.disconnect();
      const place = caretOf(s.ta);
      s.style.remove();
      s.frame.remove();
      if (real.isConnected) adoptShell(chatRoot, { ...s, place });
    });
    watch.observe(real, { attributes: true, attributeFilter: ["class"] });
    return;
  }
  const ta = chatRoot.querySelector("textarea.chat-input__textarea");
  if (!ta) return;
  const text = s.ta.value;
  if (text) {
    ta.value = text;
    ta.dispatchEvent(new Event("input", { bubbles: true }));
  }
  placeCaret(ta, s.place);
  keepCaret(chatRoot, ta, s.place);
  if (s.queued() && text.trim()) sendWhenReady(chatRoot);
}

// Where the caret is in a text box still in the page (a box out of the page forgets it).
// The focus is asked of the box's own root (its shadow root, or the document once the shell
// was moved in front of a page's hidden chat): an element has no `activeElement`.
function caretOf(ta) {
  const root = ta.getRootNode();
  return { start: ta.selectionStart, end: ta.selectionEnd, dir: ta.selectionDirection,
    scroll: ta.scrollTop, focused: !!root && root.activeElement === ta };
}

function placeCaret(ta, place) {
  if (place.focused) ta.focus({ preventScroll: true });
  try {
    ta.setSelectionRange(place.start, place.end, place.dir);
  } catch (_) { /* a textarea always takes a selection */ }
  ta.scrollTop = place.scroll;
}

// The chat writes its draft back into the text box, and may draw its composer again in its
// first moments (its first data arriving); either can move the caret to the end. Until the
// person acts in the chat (or for five seconds), the caret, selection, focus and scroll are
// put back after each of the chat's updates and on a new text box.
function keepCaret(chatRoot, ta, place) {
  let current = ta;
  let active = true;
  const again = () => {
    if (!active) return;
    const now = chatRoot.querySelector("textarea.chat-input__textarea");
    if (now) { current = now; placeCaret(now, place); }
  };
  queueMicrotask(again);
  requestAnimationFrame(again);
  const stop = () => {
    active = false;
    watch.disconnect();
    clearTimeout(timer);
    for (const name of ["keydown", "pointerdown", "input"]) {
      chatRoot.removeEventListener(name, acted, true);
    }
  };
  const acted = (e) => { if (e.isTrusted) stop(); };
  const watch = new MutationObserver(() => {
    const now = chatRoot.querySelector("textarea.chat-input__textarea");
    if (now && now !== current) again();
  });
  watch.observe(chatRoot, { childList: true, subtree: true });
  const timer = setTimeout(stop, 5000);
  for (const name of ["keydown", "pointerdown", "input"]) {
    chatRoot.addEventListener(name, acted, true);
  }
}

// Clicks the chat's own send button once it is enabled (the chat decides when a message may
// be sent); until then the text waits in the composer, where the person can still see it.
function sendWhenReady(chatRoot) {
  const ready = () => {
    const button = chatRoot.querySelector("button.chat-input__send");
    if (!button || button.disabled) return false;
    button.click();
    return true;
  };
  if (ready()) return;
  const watch = new MutationObserver(() => { if (ready()) watch.disconnect(); });
  watch.observe(chatRoot, { subtree: true, childList: true, attributes: true,
    attributeFilter: ["disabled"] });
}

// Draws the shell of every <agent-chat> on the page now, and of those added before the chat
// is ready. Returns what the element build calls when the wasm is loaded or has failed.
function agentChatShell() {
  const drawAll = (node) => {
    if (node.localName === "agent-chat") drawShell(node);
    if (node.querySelectorAll) for (const el of node.querySelectorAll("agent-chat")) drawShell(el);
  };
  if (customElements.get("agent-chat")) return { ready() {}, fail() {} };
  drawAll(document);
  const watch = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) drawAll(n);
  });
  watch.observe(document, { childList: true, subtree: true });
  return {
    ready() { watch.disconnect(); },
    fail() {
      watch.disconnect();
      for (const el of document.querySelectorAll("agent-chat")) {
        if (el._agentChatShell) el._agentChatShell.fail();
      }
    },
  };
}

// Once the main wasm (`*_bg.wasm` beside `base`, the URL of the script that loads it) has
// arrived, asks for the files of the part the chat draws first, so they download while the
// wasm compiles and starts instead of after; the chat's own requests for them then take these
// answers. Not before: they would share the network with the wasm, which is needed first.
function prefetchFirstChunks(base) {
  if (!base || !SHELL_FIRST_CHUNKS.length || typeof PerformanceObserver === "undefined") return;
  const dir = new URL(".", base).href;
  let done = false;
  const arrived = (entries) => entries.some((e) => e.name.startsWith(dir)
    && /_bg\.wasm$/.test(e.name.split(/[?#]/)[0]));
  const watch = new PerformanceObserver((list) => {
    if (done || !arrived(list.getEntries())) return;
    done = true;
    watch.disconnect();
    for (const file of SHELL_FIRST_CHUNKS) {
      const link = document.createElement("link");
      link.rel = "preload";
      link.as = "fetch";
      link.crossOrigin = "anonymous";
      link.href = new URL(file, dir).href;
      document.head.appendChild(link);
    }
  });
  try { watch.observe({ type: "resource", buffered: true }); } catch (_) { /* not observable */ }
}
