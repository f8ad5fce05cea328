// varroom review room: the page. Plain JavaScript, no dependencies, no remote assets.
// Every string from a situation is data: it goes into the page with textContent, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const LATE_S = 30;
const PARTS = (p) => (p ? p.replace(/_/g, " ") : "");
// A penalty kick's (Law 14) decisions are its calls, outcomes and overturns as they are.
const PENALTY_CALL = { goal: "GOAL", no_goal: "NO GOAL", retake: "RETAKE", indirect_free_kick: "INDIRECT FREE KICK" };
// A ball line's (Laws 9 and 10) too; its goal is a penalty kick's GOAL.
const BALL_LINE_CALL = { goal: "GOAL", out_of_play: "OUT OF PLAY", in_play: "IN PLAY" };
const CALL = { offence: "OFFSIDE", no_offence: "NO OFFENCE", undecidable: "UNDECIDABLE", ...PENALTY_CALL, ...BALL_LINE_CALL };
const OUTCOME = { offside: "OFFSIDE", no_offence: "NO OFFENCE", ...PENALTY_CALL, ...BALL_LINE_CALL };
const DECISION = { confirm: "Confirm", offside: "Offside", no_offence: "No offence", goal: "Goal", no_goal: "No goal", retake: "Retake", indirect_free_kick: "Indirect free kick", out_of_play: "Out of play", in_play: "In play" };
const LINE_WORDS = (line) => (line ? line.replace("goal_line_", "goal line at ").replace("touchline_", "touchline at ") : "");
const PERCENT = (p) => (p > 0.999 ? "more than 99.9%" : p < 0.001 ? "less than 0.1%" : `${(p * 100).toFixed(1)}%`);
// A distance as people say it: centimetres under a metre, signed ("\u2212" for behind).
const SIGNED = (m) => {
  const size = Math.abs(m);
  return `${m > 0 ? "+" : m < 0 ? "\u2212" : ""}${size >= 1 ? `${size.toFixed(2)} m` : `${(size * 100).toFixed(0)} cm`}`;
};
const CLASS_WORDS = { clear: "clear", tight: "tight", too_close_to_call: "too close to call" };
const OFFENCE_WORDS = (what) => what.replace(/_/g, " ");
const KIND_WORDS = { deliberate_play: "deliberate", deflection: "deflection", save: "save" };
const INVOLVEMENT = {
  obstructs_line_of_vision: "obstructs line of vision",
  challenges_opponent: "challenges an opponent",
  attempts_to_play_close: "attempts to play a ball close",
  obvious_action_impacting_opponent: "obvious action impacting an opponent",
};
const OFF_FIELD = {
  without_permission: "left without permission",
  with_permission: "off with permission",
  stepped_off: "stepped off",
};
const EFFECT = {
  judgement: "positions judged",
  exempt_restart: "restart: no offside from it",
  reset: "resets offside",
  deflection: "deflection: no reset",
  save: "save: no reset",
  rebound: "rebound",
  out_of_play: "out of play",
  offence: "offence",
};

const state = {
  token: sessionStorage.getItem("varroom-token") || "",
  queue: [],
  current: null,
  names: {},
  selectedTouch: null,
  clockStart: 0,
  clockStopped: null,
  armed: null,
  deciding: false, // a decision on its way: every other press records nothing
  recorded: null, // this check's last recorded decision, {decision, id}: the same again asks first
  correcting: null,
  picture: { key: null, url: null },
  lastFlip: null,
  tokenWaiters: null,
  eventsWake: null, // cuts the event stream's wait for a retry short
};

// -- small helpers ---------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function toast(text, error = false) {
  const el = $("toast");
  el.textContent = text;
  el.classList.toggle("error", error);
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (el.hidden = true), error ? 6000 : 2600);
}

function uid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
}

function fmtClock(s) {
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return m + ":" + (rest < 10 ? "0" : "") + rest.toFixed(1);
}

function timeOf(iso) {
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
}

function setConn(ok, text) {
  const el = $("conn");
  el.className = "conn " + (ok ? "ok" : "bad");
  el.textContent = text;
}

// -- the API ---------------------------------------------------------------------------------

class ApiFail extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : "HTTP " + status);
    this.status = status;
    this.where = body && body.where;
  }
}

async function api(path, options = {}, retried = false) {
  const headers = Object.assign({}, options.headers || {});
  if (state.token) headers["Authorization"] = "Bearer " + state.token;
  let body = options.body;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  let res;
  try {
    res = await fetch(path, { method: options.method || "GET", headers, body });
  } catch (err) {
    setConn(false, "offline");
    throw new ApiFail(0, { error: "cannot reach the review room server" });
  }
  if (res.status === 401 && !retried) {
    await askToken();
    return api(path, options, true);
  }
  setConn(true, "connected");
  if (options.raw) {
    if (!res.ok) throw new ApiFail(res.status, await res.json().catch(() => null));
    return res;
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFail(res.status, data);
  return data;
}

function askToken() {
  if (!state.tokenWaiters) {
    state.tokenWaiters = [];
    const dialog = $("token-dialog");
    $("token-input").value = "";
    dialog.showModal();
    $("token-input").focus();
  }
  return new Promise((resolve) => state.tokenWaiters.push(resolve));
}

function tokenEntered(event) {
  event.preventDefault();
  state.token = $("token-input").value.trim();
  sessionStorage.setItem("varroom-token", state.token);
  $("token-dialog").close();
  const waiters = state.tokenWaiters || [];
  state.tokenWaiters = null;
  waiters.forEach((resolve) => resolve());
  if (state.eventsWake) state.eventsWake(); // its stream was refused without the token
}

// -- the room's events -------------------------------------------------------------------------

// The room says the moment a situation is queued (an upload, an audit's incident, a live
// alert), and the queue shows it at once. The stream is read with fetch, not EventSource:
// EventSource cannot send the Authorization header a room with a token needs, and a token
// (or anything that stands for it) in a URL ends up in logs.
const EVENTS_RETRY_MS = 1000; // after a failure, doubled on each one after it
const EVENTS_RETRY_MAX_MS = 30000; // a room that is down is asked twice a minute

// One stream, read to its end: true when the room ended it (it does after 25 s), false when
// it was refused or broke. `reopened`: the queue may have grown while no stream was open.
async function readEvents(reopened) {
  const headers = { Accept: "text/event-stream" };
  if (state.token) headers["Authorization"] = "Bearer " + state.token;
  try {
    const res = await fetch("/api/events", { headers, cache: "no-store" });
    if (!res.ok || !(res.headers.get("content-type") || "").startsWith("text/event-stream")) {
      await res.body?.cancel();
      return false;
    }
    if (reopened) loadQueue();
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      const messages = (pending + value).replaceAll("\r\n", "\n").split("\n\n");
      pending = messages.pop();
      if (messages.some((m) => m.split("\n").includes("event: queue"))) loadQueue();
    }
  } catch (err) {
    return false;
  }
}

async function followEvents() {
  let failures = 0;
  for (let reopened = false; ; reopened = true) {
    const openedMs = Date.now();
    // A stream that ends at once (something between page and room closing it) counts as a
    // failure too: the room is never asked in a tight loop.
    if ((await readEvents(reopened)) && Date.now() - openedMs >= EVENTS_RETRY_MS) {
      failures = 0;
      continue;
    }
    const waitMs = Math.min(EVENTS_RETRY_MAX_MS, EVENTS_RETRY_MS * 2 ** failures);
    failures += 1;
    await new Promise((resolve) => {
      state.eventsWake = resolve;
      setTimeout(resolve, waitMs);
    });
    state.eventsWake = null;
  }
}

// -- the queue ---------------------------------------------------------------------------------

async function loadQueue() {
  let queue;
  try {
    queue = await api("/api/situations");
  } catch (err) {
    if (err.status !== 0) toast(err.message, true);
    return;
  }
  // The queue is fetched every 5 s: redraw only what changed, so that nothing moves under
  // a reviewer's eyes or keyboard.
  const unchanged = state.queueShown && JSON.stringify(queue) === JSON.stringify(state.queue);
  state.queue = queue;
  state.queueShown = true;
  if (!unchanged) renderQueue();
}

function renderQueue() {
  const list = $("queue-list");
  const current = state.current && state.current.id;
  // Keep the keyboard focus on the same incident, and the list where it was scrolled.
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.id : null;
  const scrolled = list.scrollTop;
  list.replaceChildren(
    ...state.queue.map((item) => {
      const v = item.verdict;
      return h(
        "li",
        {
          class: `queue-item s-${item.status}` + (item.id === current ? " selected" : ""),
          dataset: { id: item.id },
          tabindex: "0",
          onclick: () => openIncident(item.id),
          onkeydown: (e) => { if (e.key === "Enter") openIncident(item.id); },
        },
        h("span", { class: "qi-title", title: item.title }, item.title),
        h("span", { class: "qi-id" }, "#" + item.id),
        h("span", { class: "qi-sub" }, item.source_name || (item.origin === "audit" ? "from a match audit" : "")),
        item.conflict
          ? h("span", { class: "pill qi-state conflict", title: "reviewers disagree: decide again or correct one" }, "conflict")
          : h(
              "span",
              { class: "pill qi-state " + (item.decided ? "decided" : "pending") },
              item.decided ? "\u2713 " + (OUTCOME[item.last_decision.outcome] || "decided") : "pending",
            ),
        h(
          "span",
          { class: "qi-verdict" },
          h("span", { class: `pill s-${item.status}` }, v.call),
          // `who`: the player's name or the ball (a row queued before it was added: the name).
          (v.who || v.player_name) ? h("span", { class: "muted" }, `${v.who || v.player_name} ${v.margin_text}`) : null,
        ),
      );
    }),
  );
  list.scrollTop = scrolled;
  if (focused) {
    const again = list.querySelector(`.queue-item[data-id="${focused}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  $("queue-empty").hidden = state.queue.length > 0;
  const pending = state.queue.filter((i) => !i.decided).length;
  $("queue-count").textContent = state.queue.length ? `${pending} pending · ${state.queue.length}` : "";
}

function moveInQueue(step) {
  if (!state.queue.length) return;
  const ids = state.queue.map((i) => i.id);
  let at = state.current ? ids.indexOf(state.current.id) : -1;
  at = Math.min(Math.max(at + step, 0), ids.length - 1);
  openIncident(ids[at]);
  const el = document.querySelector(`.queue-item[data-id="${ids[at]}"]`);
  if (el) el.scrollIntoView({ block: "nearest" });
}

// -- an incident --------------------------------------------------------------------------------

async function openIncident(id) {
  let detail;
  try {
    detail = await api(`/api/situations/${id}`);
  } catch (err) {
    toast(err.message, true);
    return;
  }
  const fresh = !state.current || state.current.id !== detail.id;
  state.current = detail;
  state.names = Object.fromEntries(detail.players.map((p) => [p.id, p.name]));
  state.attacking = Object.fromEntries(detail.players.map((p) => [p.id, p.attacking]));
  if (fresh) {
    state.selectedTouch = null;
    state.lastFlip = null;
    state.correcting = null;
    disarm();
    startClock();
    $("note").value = "";
    $("timing").textContent = "";
    $("incident-log").replaceChildren();
    $("incident-scroll").scrollTop = 0;
  }
  $("welcome").hidden = true;
  $("incident").hidden = false;
  renderIncident();
  renderQueue();
  loadPicture();
  loadIncidentLog();
  history.replaceState(null, "", `#${detail.id}`);
}

function renderIncident() {
  const d = state.current;
  $("title").textContent = d.title;
  const meta = d.meta || {};
  const sub = [d.source_name, meta.competition, meta.date, d.on_field && d.on_field.decision ? `on-field call: ${PARTS(d.on_field.decision)}` : null]
    .filter(Boolean)
    .join(" \u00b7 ");
  $("subtitle").textContent = sub;
  // What each kind of incident shows and takes: the elements marked with its kind.
  for (const el of document.querySelectorAll("[data-kinds]")) el.hidden = !el.dataset.kinds.split(" ").includes(d.kind);
  document.querySelector(".decide-buttons").dataset.kind = d.kind;
  renderVerdict();
  renderChanged();
  if (d.kind === "penalty_kick") {
    renderPenalty();
  } else if (d.kind === "ball_line") {
    renderBallLine();
  } else {
    renderChain();
    renderFacts();
  }
  renderDecide();
}

// A penalty kick: every offence with its margin, the cards, and the facts as checkboxes.
function renderPenalty() {
  const d = state.current;
  const v = d.verdict;
  const name = (id) => state.names[id] || id;
  const margin = (o) => (o.margin_m === null || o.margin_m === undefined ? "" : ` ${SIGNED(o.margin_m)}`);
  $("pk-offences").replaceChildren(
    ...(v.offences.length
      ? v.offences.map((o) =>
          h("li", { class: o.penalised ? "pk-penalised" : "pk-not" }, h("strong", {}, OFFENCE_WORDS(o.what)), ` \u2014 ${name(o.player)}${margin(o)}`,
            h("span", { class: "muted" }, o.penalised ? " (penalised)" : " (not penalised)")),
        )
      : [h("li", { class: "empty" }, "No offence at the kick.")]),
  );
  const cards = [
    ...v.cautions.map((p) => `caution: ${name(p)}`),
    ...v.warnings.map((p) => `warning: ${name(p)}`),
  ];
  $("pk-cards").textContent = cards.length ? cards.join(" \u00b7 ") : "No caution, no warning.";
  const facts = d.facts.penalty;
  for (const box of document.querySelectorAll("#pk-facts input[data-flag]")) box.checked = Boolean(facts[box.dataset.flag]);
  const encroachers = [...new Set(v.offences.filter((o) => o.what === "encroachment").map((o) => o.player).concat(facts.encroacher_involved))];
  $("pk-involved").replaceChildren(
    h("legend", { class: "muted" }, "Encroached, then played or challenged for the ball:"),
    ...(encroachers.length
      ? encroachers.map((p) =>
          h("label", {}, h("input", { type: "checkbox", dataset: { player: p }, checked: facts.encroacher_involved.includes(p) ? "" : null, onchange: setPenaltyFacts }), ` ${name(p)}`),
        )
      : [h("span", { class: "muted" }, "nobody encroached")]),
  );
  for (const box of document.querySelectorAll("#pk-involved input")) box.checked = facts.encroacher_involved.includes(box.dataset.player);
}

// A ball line: where and when the ball was wholly over, how sure, and the calls it is checked
// against. The tracked path decides it: there is nothing to set.
function renderBallLine() {
  const d = state.current;
  const v = d.verdict;
  const mm = (m) => `${m > 0 ? "+" : m < 0 ? "\u2212" : "\u00b1"}${(Math.abs(m) * 1000).toFixed(1)} mm`;
  const rows = [
    ["line", v.line ? LINE_WORDS(v.line) : `none (nearest: ${LINE_WORDS(v.nearest_line)})`],
    ["margin", `${mm(v.margin_m)} \u00b1 ${(1.96 * v.margin_se_m * 1000).toFixed(1)} mm (95%)`],
    ["P(wholly over)", PERCENT(v.probability)],
    ["samples alone", mm(v.samples_margin_m) + (v.peak_between_samples ? " (the furthest point is between two samples)" : "")],
    ["on-field call", v.on_field_decision ? PARTS(v.on_field_decision) : "none"],
    ["tracking", `${v.noise.source.replace("optical_", "optical, ").replace(/hz$/, " Hz")}, \u03c3 ${(v.noise.ball_sd_m * 1000).toFixed(1)} mm`],
  ];
  $("bl-facts").replaceChildren(...rows.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
}

function penaltyFactsShown() {
  const penalty = { encroacher_involved: [] };
  for (const box of document.querySelectorAll("#pk-facts input[data-flag]")) penalty[box.dataset.flag] = box.checked;
  for (const box of document.querySelectorAll("#pk-involved input[data-player]")) if (box.checked) penalty.encroacher_involved.push(box.dataset.player);
  return { penalty };
}

function setPenaltyFacts() {
  postFacts(penaltyFactsShown());
}

// The margin's 95% interval, P and class, as the pictures say them (a situation's; a ball
// line's in millimetres; a penalty kick's for the goalkeeper against his line).
function spreadWords(v) {
  if (v.kind === "ball_line") {
    if (v.margin_se_m === null || v.margin_se_m === undefined) return "";
    const half = 1.96 * v.margin_se_m * 1000;
    return `\u00b1 ${half.toFixed(1)} mm (95%)`;
  }
  if (v.kind === "penalty_kick") {
    const k = v.keeper;
    return k && k.probability !== null && k.probability !== undefined
      ? `P(off the line) ${PERCENT(k.probability)} \u00b7 ${CLASS_WORDS[k.confidence_class] || ""}`
      : "";
  }
  if (!v.margin_ci_m) return "";
  const [low, high] = v.margin_ci_m;
  const close = (low < 0 && high > 0) || v.confidence_class === "too_close_to_call";
  const parts = [`95%: ${SIGNED(low)} to ${SIGNED(high)}`];
  if (v.probability !== null && v.probability !== undefined) parts.push(`P(offside position) ${PERCENT(v.probability)}`);
  parts.push(close ? "too close to call" : CLASS_WORDS[v.confidence_class] || "");
  return parts.filter(Boolean).join(" \u00b7 ");
}

function renderVerdict() {
  const d = state.current;
  const v = d.verdict;
  const s = d.summary;
  const box = $("verdict");
  box.className = `verdict s-${v.status}`;
  $("verdict-call").textContent = CALL[v.status];
  $("verdict-margin").textContent = s.margin_text || "";
  let note = "";
  if (v.kind === "ball_line") {
    note = v.wholly_over ? `wholly over the ${LINE_WORDS(v.line)}` : `short of the ${LINE_WORDS(v.nearest_line)}`;
  } else if (v.kind === "penalty_kick") {
    const first = v.offences.find((o) => o.penalised);
    note = first ? OFFENCE_WORDS(first.what) : s.margin_m !== null && s.margin_m !== undefined ? "goalkeeper against his line" : "";
  } else if (s.margin_m !== null && s.margin_m !== undefined) {
    if (v.status === "offence") note = "beyond the offside line";
    // Undecidable: the line is drawn from the players seen, and unseen ones could move it.
    else if (v.status === "undecidable") note = s.margin_m > 0 ? "beyond the line of the players seen" : "onside of the players seen";
    else if (s.margin_m > 0) note = "in an offside position, no offence";
    else note = "onside (nearest attacker)";
  }
  $("verdict-margin-note").textContent = note;
  $("verdict-spread").textContent = spreadWords(v);
  // What the other standard rules would decide, where they differ: a tight call's other reading.
  const others = Object.entries(v.policy_outcomes || {}).filter(([, call]) => call !== v.status);
  $("verdict-others").textContent = others.length
    ? `Under ${others.map(([rule, call]) => `${rule}: ${(CALL[call] || call).toLowerCase()}`).join("; ")}`
    : "";
  let who = "";
  if (s.player) {
    const pos = v.positions && v.positions[s.player];
    const part = pos && pos.reach && pos.reach.part ? ` \u00b7 ${PARTS(pos.reach.part)}` : "";
    who = (state.names[s.player] || s.player) + part;
  }
  $("verdict-who").textContent = v.kind === "ball_line" ? `P(wholly over) ${PERCENT(v.probability)}` : who;
  const law = [v.law ? `Law ${v.law}` : null, v.restart ? v.restart.replace(/_/g, " ") : null, v.judged_at !== null && v.judged_at !== undefined ? `judged at touch ${v.judged_at + 1}` : null]
    .filter(Boolean)
    .join(" \u00b7 ");
  $("verdict-law").textContent =
    v.kind === "penalty_kick" ? [v.law ? `Law ${v.law}` : null, v.restart_team ? `restart: ${v.restart_team}` : null].filter(Boolean).join(" \u00b7 ")
    : v.kind === "ball_line" ? [v.law ? `Law ${v.law}` : null, v.on_field_decision ? `on-field: ${PARTS(v.on_field_decision)}` : null].filter(Boolean).join(" \u00b7 ")
    : law;
  // The profile the verdict was judged under (none for one judged before profiles); its hash on hover.
  const profile = v.profile;
  $("verdict-profile").textContent = profile ? `Profile: ${profile.name}` : "";
  $("verdict-profile").title = profile ? `sha256 ${profile.sha256}` : "";
  $("reason").textContent = v.reason;
  const audit = d.meta && d.meta.audit;
  const auditNote = $("audit-note");
  // A ball line's audit says what it found (a missed ball-out, a goal-line moment); its verdict is the one shown.
  const said = !audit ? null
    : audit.status && audit.reason ? [`Match audit: ${CALL[audit.status] || audit.status}. `, audit.reason]
    : audit.kind === "ball_line" ? [`Match audit: ${PARTS(audit.what)}${audit.clock ? ` at ${audit.clock}` : ""}. `, audit.goal_after_ball_out ? "A goal after a ball out of play earlier in the same play." : ""]
    : null;
  auditNote.hidden = !said;
  if (said) auditNote.replaceChildren(h("strong", {}, said[0]), said[1]);
}

function renderChanged() {
  const d = state.current;
  const panel = $("changed");
  const changes = d.changes || [];
  panel.hidden = changes.length === 0 && !state.lastFlip;
  const flip = $("changed-flip");
  flip.replaceChildren();
  const engine = d.engine_verdict.status;
  const now = d.verdict.status;
  if (engine !== now) {
    flip.append(
      "Engine on tracking alone: ",
      h("span", { class: "was" }, CALL[engine]),
      " \u2192 with these facts: ",
      h("strong", {}, CALL[now]),
    );
  } else if (changes.length) {
    flip.append(`Verdict unchanged: ${CALL[now]}`);
  }
  if (state.lastFlip) {
    flip.append(h("span", { class: "muted" }, `  (last change: ${state.lastFlip})`));
  }
  $("changed-list").replaceChildren(...changes.map((c) => h("li", {}, c)));
}

function effectiveKind(touch) {
  const play = state.current.facts.plays.find((p) => p.touch === touch.index);
  return play ? play.kind : touch.kind;
}

function renderChain() {
  const d = state.current;
  const v = d.verdict;
  const steps = Object.fromEntries((v.chain || []).map((s) => [s.index, s]));
  const t0 = d.touches.length ? d.touches[0].t : 0;
  $("chain").replaceChildren(
    ...d.touches.map((t) => {
      const step = steps[t.index];
      const kind = effectiveKind(t);
      const overridden = kind !== t.kind;
      const classes = ["touch"];
      if (state.selectedTouch === t.index) classes.push("selected");
      if (v.involved_at === t.index && v.status === "offence") classes.push("offence");
      else if (v.judged_at === t.index) classes.push("judged");
      const dot = t.player ? (state.attacking[t.player] ? "att" : "def") : "none";
      let control = null;
      if (t.settable) {
        control = h(
          "span",
          { class: "seg", role: "group", "aria-label": `touch ${t.index + 1}` },
          ...["deliberate_play", "deflection", "save"].map((k) =>
            h(
              "button",
              {
                type: "button",
                class: (k === kind ? "on" : "") + (k === kind && overridden ? " overridden" : ""),
                dataset: { touch: t.index, kind: k },
                "aria-pressed": k === kind ? "true" : "false",
                title: k === t.kind ? "as tracking recorded it" : "set by review",
                onclick: () => setPlay(t.index, k),
              },
              KIND_WORDS[k],
            ),
          ),
        );
      }
      // The verdict's own words for each touch, as the pictures print them (a verdict from
      // before they were recorded: its effect's).
      const effect = step ? step.said || EFFECT[step.effect] || step.effect : "after the phase";
      const action = overridden ? `${t.action} \u2192 ${KIND_WORDS[kind]}` : t.action.replace(/_/g, " ");
      return h(
        "li",
        { class: classes.join(" "), dataset: { index: t.index }, onclick: (e) => { if (e.target.tagName !== "BUTTON") selectTouch(t.index); } },
        h("span", { class: "t-num" }, String(t.index + 1)),
        h("span", { class: "t-time" }, `+${(t.t - t0).toFixed(2)} s`),
        h(
          "span",
          { class: "t-who" },
          h("span", { class: `dot ${dot}` }),
          t.player ? state.names[t.player] || t.player : "no player",
          " ",
          h("span", { class: "t-action" }, action),
        ),
        h("span", { class: `t-effect e-${step ? step.effect : "none"}` }, effect),
        control,
      );
    }),
  );
}

function touchOptions(select) {
  const d = state.current;
  const keep = select.value;
  select.replaceChildren(
    ...d.touches.map((t) =>
      h("option", { value: t.index }, `T${t.index + 1} ${t.player ? (state.names[t.player] || t.player).split(" ").slice(-1)[0] : t.action}`),
    ),
  );
  if (keep && d.touches.some((t) => String(t.index) === keep)) select.value = keep;
  else if (d.verdict.judged_at !== null && d.verdict.judged_at !== undefined) select.value = String(d.verdict.judged_at);
}

function playerOptions(select, players) {
  const keep = select.value;
  select.replaceChildren(...players.map((p) => h("option", { value: p.id }, p.number !== null && p.number !== undefined ? `${p.number} ${p.name}` : p.name)));
  if (players.some((p) => p.id === keep)) select.value = keep;
}

// One list of facts (involvement or off-field marks): each with a button that takes it away.
function factList(list, items, words, verb, remove, empty) {
  list.replaceChildren(
    ...(items.length
      ? items.map((f, i) =>
          h(
            "li",
            {},
            h("strong", {}, `T${f.touch + 1}`),
            `${state.names[f.player] || f.player} \u2014 ${words(f)}`,
            h("button", { type: "button", class: "btn btn-small btn-quiet x", title: verb, onclick: () => remove(i) }, "\u00d7"),
          ),
        )
      : [h("li", { class: "empty" }, empty)]),
  );
}

function renderFacts() {
  const d = state.current;
  const facts = d.facts;
  factList($("involvement"), facts.involvement, (f) => INVOLVEMENT[f.kind], "remove", removeInvolvement,
    "None stated: an attacker in an offside position who does not play the ball is not penalised.");
  factList($("offfield"), facts.off_field, (f) => OFF_FIELD[f.status], "clear", removeOffField,
    "Everyone on the field of play.");
  touchOptions($("inv-touch"));
  touchOptions($("off-touch"));
  const attackers = d.players.filter((p) => p.attacking && !p.goalkeeper);
  const select = $("inv-player");
  const fresh = select.dataset.situation !== String(d.id);
  playerOptions(select, attackers);
  const likely = d.verdict.offender || d.verdict.nearest_attacker;
  if (fresh && likely && attackers.some((p) => p.id === likely)) select.value = likely;
  select.dataset.situation = String(d.id);
  refreshOffPlayers();
}

function refreshOffPlayers() {
  const d = state.current;
  const touch = d.touches[Number($("off-touch").value) || 0];
  const onPitch = new Set(touch ? touch.on_pitch : []);
  playerOptions($("off-player"), d.players.filter((p) => onPitch.has(p.id)));
}

function renderDecide() {
  const v = state.current.verdict;
  const confirm = $("decide-confirm");
  confirm.className = `decide-btn s-${v.status}` + (state.armed === "confirm" ? " armed" : "");
  confirm.disabled = v.status === "undecidable" || state.deciding;
  $("decide-confirm-sub").textContent = v.status === "undecidable" ? "nothing to confirm: decide" : `engine: ${CALL[v.status]}`;
  for (const id of ["decide-offside", "decide-none"]) {
    const btn = $(id);
    btn.classList.toggle("armed", state.armed === btn.dataset.decision);
  }
  for (const btn of document.querySelectorAll(".decide-btn:not(#decide-confirm)")) btn.disabled = state.deciding;
  $("correcting").hidden = state.correcting === null;
  $("correcting-id").textContent = state.correcting === null ? "" : `#${state.correcting}`;
}

// -- facts ------------------------------------------------------------------------------------

function currentFacts() {
  const f = state.current.facts;
  if (f.penalty) return { penalty: { ...f.penalty, encroacher_involved: f.penalty.encroacher_involved.slice() } };
  if (state.current.kind === "ball_line") return {}; // nothing to set
  return { plays: f.plays.slice(), involvement: f.involvement.slice(), off_field: f.off_field.slice() };
}

// The incident as this page loaded it: a write on facts another reviewer changed since is 409.
function ifMatch(d) {
  return { "If-Match": `"f${d.facts_version}"` };
}

// A 409 for stale facts: show the incident as it is now, and say why nothing was recorded.
function staleShownAgain(err, d) {
  if (err.status !== 409 || err.where !== "header:If-Match") return false;
  toast("Another reviewer changed the facts: here they are now. Nothing was recorded.", true);
  openIncident(d.id);
  return true;
}

async function postFacts(facts) {
  const d = state.current;
  let result;
  try {
    result = await api(`/api/situations/${d.id}/facts`, { method: "POST", json: facts, headers: ifMatch(d) });
  } catch (err) {
    if (!staleShownAgain(err, d)) toast(err.where ? `${err.message} (${err.where})` : err.message, true);
    return;
  }
  if (!state.current || state.current.id !== d.id) return;
  Object.assign(d, {
    facts: result.facts,
    changes: result.changes,
    verdict: result.verdict,
    summary: result.summary,
    status: result.verdict.status,
  });
  d.facts_version = result.facts_version;
  if (result.verdict_changed) {
    state.lastFlip = `${result.previous_summary.call} \u2192 ${result.summary.call}`;
    const box = $("verdict");
    box.classList.remove("flash");
    void box.offsetWidth;
    box.classList.add("flash");
    toast(`Verdict now ${result.summary.call}`);
  }
  $("timing").textContent = `Judged again in ${result.timing_ms.judge.toFixed(1)} ms (server ${result.timing_ms.total.toFixed(1)} ms).`;
  renderIncident();
  loadPicture();
  loadQueue();
}

function setPlay(index, kind) {
  const touch = state.current.touches[index];
  if (!touch || !touch.settable) return;
  const facts = currentFacts();
  facts.plays = facts.plays.filter((p) => p.touch !== index);
  if (kind !== touch.kind) facts.plays.push({ touch: index, kind });
  state.selectedTouch = index;
  postFacts(facts);
}

function selectTouch(index) {
  if (!state.current || index < 0 || index >= state.current.touches.length) return;
  state.selectedTouch = index;
  renderChain();
  // A touch below the fold: bring it into sight, or the key seems to do nothing.
  const el = document.querySelector(`#chain .touch[data-index="${index}"]`);
  if (el) el.scrollIntoView({ block: "nearest" });
}

function removeInvolvement(i) {
  const facts = currentFacts();
  facts.involvement.splice(i, 1);
  postFacts(facts);
}

function removeOffField(i) {
  const facts = currentFacts();
  facts.off_field.splice(i, 1);
  postFacts(facts);
}

function addInvolvement(event) {
  event.preventDefault();
  const facts = currentFacts();
  const player = $("inv-player").value;
  if (!player) return;
  facts.involvement.push({ touch: Number($("inv-touch").value), player, kind: $("inv-kind").value });
  postFacts(facts);
}

function addOffField(event) {
  event.preventDefault();
  const facts = currentFacts();
  const touch = Number($("off-touch").value);
  const player = $("off-player").value;
  if (!player) return;
  facts.off_field = facts.off_field.filter((f) => !(f.touch === touch && f.player === player));
  facts.off_field.push({ touch, player, status: $("off-status").value });
  postFacts(facts);
}

function resetFacts() {
  const s = state.current.situation;
  if (state.current.kind === "penalty_kick") {
    postFacts({ penalty: s.facts || {} });
    return;
  }
  if (state.current.kind === "ball_line") return; // no facts to reset
  const involvement = [];
  const off = [];
  s.touches.forEach((t, i) => {
    (t.involvement || []).forEach((f) => involvement.push({ touch: i, player: f.player, kind: f.kind }));
    Object.entries(t.positions).forEach(([p, pos]) => { if (pos.off_field) off.push({ touch: i, player: p, status: pos.off_field }); });
  });
  postFacts({ plays: [], involvement, off_field: off });
}

// -- the picture ---------------------------------------------------------------------------------

async function loadPicture() {
  const d = state.current;
  const key = `${d.id}:${d.facts_version}:${JSON.stringify(d.facts)}`;
  if (state.picture.key === key) return;
  state.picture.key = key;
  const frame = $("picture-frame");
  const img = $("picture");
  const status = $("picture-status");
  frame.classList.add("loading");
  status.textContent = "Drawing the picture\u2026";
  status.hidden = false;
  try {
    const res = await api(`/api/situations/${d.id}/image.png?v=${d.facts_version}`, { raw: true });
    const blob = await res.blob();
    if (state.picture.key !== key) return;
    if (state.picture.url) URL.revokeObjectURL(state.picture.url);
    state.picture.url = URL.createObjectURL(blob);
    img.src = state.picture.url;
    img.hidden = false;
    status.hidden = true;
  } catch (err) {
    if (state.picture.key !== key) return;
    img.hidden = true;
    status.textContent = err.status === 404 ? "No picture available on this server." : `No picture: ${err.message}`;
  } finally {
    if (state.picture.key === key) frame.classList.remove("loading");
  }
}

function enlarge() {
  if (!state.picture.url || $("picture").hidden) return;
  $("lightbox-img").src = state.picture.url;
  $("lightbox").showModal();
}

// -- the check clock -------------------------------------------------------------------------------

// A check runs from the incident's opening (or R) to its first decision: the clock stops there,
// and every entry of the check carries the time it stopped.
function startClock() {
  state.clockStart = performance.now();
  state.clockStopped = null;
  state.recorded = null;
  tick();
}

function elapsed() {
  const end = state.clockStopped === null ? performance.now() : state.clockStopped;
  return (end - state.clockStart) / 1000;
}

function tick() {
  if (!state.current) return;
  const s = elapsed();
  $("clock-value").textContent = fmtClock(s);
  const clock = $("clock");
  clock.classList.toggle("late", s >= LATE_S);
  clock.classList.toggle("stopped", state.clockStopped !== null);
}

// -- decisions ---------------------------------------------------------------------------------

function arm(decision) {
  if (decision === "confirm" && $("decide-confirm").disabled) return;
  const button = document.querySelector(`.decide-btn[data-decision="${decision}"]`);
  if (!button || button.hidden) return; // offside or no offence: not for a penalty kick
  state.armed = decision;
  $("decide-hint").replaceChildren("Press ", h("kbd", {}, "Enter"), ` to record \u201c${DECISION[decision]}\u201d, `, h("kbd", {}, "Esc"), " to cancel.");
  renderDecide();
}

function disarm() {
  state.armed = null;
  $("decide-hint").replaceChildren("Record with a click, or the key then ", h("kbd", {}, "Enter"), ".");
  if (state.current) renderDecide();
}

function askAgain(decision) {
  const again = h("button", { type: "button", id: "record-again", class: "btn btn-small", onclick: () => decide(decision, true) }, "Record again");
  $("decide-hint").replaceChildren(`\u201c${DECISION[decision]}\u201d is recorded (#${state.recorded.id}). `, again, " to add a second entry.");
}

async function decide(decision, again = false) {
  const d = state.current;
  if (!d || state.deciding) return;
  const reviewer = $("reviewer").value.trim();
  if (!reviewer) {
    $("reviewer").classList.add("needed");
    $("reviewer").focus();
    toast("Enter your name as reviewer first", true);
    return;
  }
  // A button keeps focus after a click, and Enter or Space would press it again: the same
  // decision twice in one check is recorded only when asked for.
  if (document.activeElement && document.activeElement.classList.contains("decide-btn")) document.activeElement.blur();
  if (!again && state.recorded && state.recorded.decision === decision) {
    askAgain(decision);
    return;
  }
  const first = state.clockStopped === null;
  if (first) state.clockStopped = performance.now();
  tick();
  state.deciding = true;
  renderDecide();
  try {
    await record(d, decision, reviewer);
  } finally {
    state.deciding = false;
    // A decision not recorded is no decision: the check goes on.
    if (first && !state.recorded) state.clockStopped = null;
    tick();
    if (state.current) renderDecide();
  }
}

async function record(d, decision, reviewer) {
  const seconds = Math.round(elapsed() * 1000) / 1000;
  const body = {
    reviewer,
    decision,
    duration_s: seconds,
    facts: currentFacts(),
    client_ref: uid(),
  };
  if (state.correcting !== null) body.corrects = state.correcting;
  const note = $("note").value.trim();
  if (note) body.note = note;
  let entry;
  try {
    entry = await api(`/api/situations/${d.id}/decisions`, { method: "POST", json: body, headers: ifMatch(d) });
  } catch (err) {
    if (err.status === 0) {
      try {
        entry = await api(`/api/situations/${d.id}/decisions`, { method: "POST", json: body, headers: ifMatch(d) }); // same client_ref: recorded once
      } catch (again) {
        if (!staleShownAgain(again, d)) toast(again.message, true);
        return;
      }
    } else {
      if (!staleShownAgain(err, d)) toast(err.where ? `${err.message} (${err.where})` : err.message, true);
      return;
    }
  }
  state.recorded = { decision: entry.decision, id: entry.id };
  state.correcting = null;
  $("note").value = "";
  disarm();
  toast(`Decision #${entry.id} recorded: ${DECISION[entry.decision]} \u2192 ${OUTCOME[entry.outcome]} (${fmtClock(entry.duration_s)})`);
  state.newEntry = entry.id;
  loadIncidentLog();
  loadQueue();
}

function logRow(e, withIncident) {
  const cells = [
    h("td", { class: "num" }, `#${e.id}`),
    h("td", { class: "num" }, timeOf(e.created_at)),
  ];
  if (withIncident) cells.push(h("td", {}, `#${e.situation_id} ${e.situation_title || ""}`));
  cells.push(
    h("td", {}, e.reviewer),
    h("td", {}, DECISION[e.decision] || e.decision, e.note ? h("div", { class: "muted" }, e.note) : null),
    h(
      "td",
      { class: `o-${e.outcome}` },
      OUTCOME[e.outcome] || e.outcome,
      e.conflicts_with && e.conflicts_with.length
        ? h("div", { class: "o-conflict" }, "contradicts " + e.conflicts_with.map((id) => "#" + id).join(", "))
        : null,
    ),
    h("td", {}, CALL[e.engine_status] || e.engine_status),
    h("td", { class: "num" + (e.duration_s >= LATE_S ? " o-late" : "") }, fmtClock(e.duration_s)),
  );
  if (withIncident) {
    cells.push(h("td", { class: "num" }, e.corrects ? `#${e.corrects}` : ""));
  } else {
    const f = e.facts || {};
    const n = f.penalty
      ? Object.values(f.penalty).filter((x) => x === true).length + f.penalty.encroacher_involved.length
      : f.plays ? f.plays.length + f.involvement.length + f.off_field.length : 0; // a ball line: none
    cells.push(h("td", { class: "muted" }, n ? `${n} set` : "as tracked", e.corrects ? ` \u00b7 corrects #${e.corrects}` : ""));
    cells.push(h("td", {}, h("button", { type: "button", class: "btn btn-small btn-quiet", onclick: () => { state.correcting = e.id; renderDecide(); toast(`Next decision corrects #${e.id}`); } }, "correct")));
  }
  return h("tr", { class: e.id === state.newEntry ? "new" : "" }, ...cells);
}

async function loadIncidentLog() {
  const d = state.current;
  let entries;
  try {
    entries = await api(`/api/situations/${d.id}/decisions`);
  } catch (err) {
    return;
  }
  if (!state.current || state.current.id !== d.id) return;
  $("incident-log").replaceChildren(...entries.slice().reverse().map((e) => logRow(e, false)));
  $("incident-log-empty").hidden = entries.length > 0;
  $("incident-log").closest("table").hidden = entries.length === 0;
}

async function openLog() {
  let entries;
  try {
    entries = await api("/api/decisions.json?last=500");
  } catch (err) {
    toast(err.message, true);
    return;
  }
  $("global-log").replaceChildren(...entries.slice().reverse().map((e) => logRow(e, true)));
  if (!$("log-dialog").open) $("log-dialog").showModal();
}

async function download(path, name) {
  try {
    const res = await api(path, { raw: true });
    const url = URL.createObjectURL(await res.blob());
    const a = h("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 2000);
  } catch (err) {
    toast(err.message, true);
  }
}

// -- uploads and audits ------------------------------------------------------------------------------

async function uploadFiles(files) {
  let last = null;
  for (const file of files) {
    let text;
    try {
      text = await file.text();
    } catch (err) {
      toast(`${file.name}: cannot read the file`, true);
      continue;
    }
    try {
      const made = await api(`/api/situations?filename=${encodeURIComponent(file.name)}`, {
        method: "POST",
        body: text,
        headers: { "Content-Type": "application/json" },
      });
      last = made;
    } catch (err) {
      toast(`${file.name}: ${err.where ? err.where + ": " : ""}${err.message}`, true);
    }
  }
  await loadQueue();
  if (last) {
    toast(`Queued #${last.id}: ${last.summary.label}`);
    openIncident(last.id);
  }
}

let auditConfig = null;

async function openAudit() {
  if (!auditConfig) {
    try {
      auditConfig = await api("/api/config");
    } catch (err) {
      toast(err.message, true);
      return;
    }
    $("audit-provider").replaceChildren(...auditConfig.providers.map((p) => h("option", { value: p }, p)));
    $("audit-provider").onchange = auditRows;
  }
  if (!$("audit-files").children.length) auditRows();
  $("audit-dialog").showModal();
}

// The chosen provider's files, one row each: only what its loaders read.
function providerRoles() {
  const files = (auditConfig && auditConfig.provider_files) || {};
  return files[$("audit-provider").value] || ["raw_data"];
}

function auditRows() {
  $("audit-files").replaceChildren();
  for (const role of providerRoles()) addAuditRow(role);
}

function addAuditRow(role) {
  const roles = providerRoles();
  const select = h("select", { class: "audit-role" }, ...roles.map((r) => h("option", { value: r }, r)));
  select.value = role || roles[0];
  $("audit-files").append(h("div", { class: "audit-row" }, select, h("input", { type: "file", class: "audit-file" })));
}

async function startAudit(event) {
  event.preventDefault();
  const form = new FormData();
  form.append("provider", $("audit-provider").value);
  let n = 0;
  for (const row of document.querySelectorAll(".audit-row")) {
    const input = row.querySelector(".audit-file");
    if (!input.files.length) continue;
    form.append("files", input.files[0], input.files[0].name);
    form.append("roles", row.querySelector(".audit-role").value);
    n += 1;
  }
  if (!n) {
    toast("Choose the match's files first", true);
    return;
  }
  $("audit-start").disabled = true;
  try {
    let audit = await api("/api/audits", { method: "POST", body: form });
    while (audit.state === "queued" || audit.state === "running") {
      showAudit(audit);
      await new Promise((r) => setTimeout(r, 500));
      audit = await api(`/api/audits/${audit.id}`);
    }
    showAudit(audit);
    loadQueue();
  } catch (err) {
    $("audit-state").textContent = err.message;
  } finally {
    $("audit-start").disabled = false;
  }
}

function showAudit(a) {
  $("audit-bar").style.width = `${Math.round(a.progress * 100)}%`;
  const words = { queued: "Queued\u2026", running: `Auditing\u2026 ${Math.round(a.progress * 100)}%`, done: `Done: ${a.incidents_added} incidents added to the queue.`, failed: `Failed: ${a.error}` };
  $("audit-state").textContent = words[a.state] || a.state;
}

// -- keyboard ----------------------------------------------------------------------------------

function onKey(e) {
  const tag = e.target.tagName;
  const typing = tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
  if (document.querySelector("dialog[open]")) return; // dialogs handle their own keys (Esc closes)
  if (e.key === "Escape") {
    if (typing) e.target.blur();
    disarm();
    if (state.correcting !== null) { state.correcting = null; renderDecide(); }
    return;
  }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const has = !!state.current;
  switch (key) {
    case "ArrowDown": case "j": moveInQueue(1); break;
    case "ArrowUp": case "k": moveInQueue(-1); break;
    case "u": $("file-input").click(); break;
    case "l": openLog(); break;
    case "?": $("help-dialog").showModal(); break;
    case "p": if (has) enlarge(); break;
    case "r": if (has) startClock(); break;
    case "c": if (has) arm("confirm"); break;
    case "o": if (has) arm("offside"); break;
    case "n": if (has) arm("no_offence"); break;
    case "Enter": if (has && state.armed) decide(state.armed); else return; break;
    case "d": if (has && state.selectedTouch !== null) setPlay(state.selectedTouch, "deliberate_play"); break;
    case "f": if (has && state.selectedTouch !== null) setPlay(state.selectedTouch, "deflection"); break;
    case "s": if (has && state.selectedTouch !== null) setPlay(state.selectedTouch, "save"); break;
    default:
      if (has && /^[1-9]$/.test(key)) selectTouch(Number(key) - 1);
      else return;
  }
  e.preventDefault();
}

// -- start -------------------------------------------------------------------------------------

function init() {
  const params = new URLSearchParams(location.search);
  if (params.has("token")) {
    state.token = params.get("token");
    sessionStorage.setItem("varroom-token", state.token);
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
  }
  const reviewer = $("reviewer");
  reviewer.value = localStorage.getItem("varroom-reviewer") || "";
  reviewer.addEventListener("input", () => {
    localStorage.setItem("varroom-reviewer", reviewer.value);
    reviewer.classList.remove("needed");
  });
  $("open-file").addEventListener("click", () => $("file-input").click());
  $("file-input").addEventListener("change", (e) => { uploadFiles([...e.target.files]); e.target.value = ""; });
  $("open-log").addEventListener("click", openLog);
  $("open-help").addEventListener("click", () => $("help-dialog").showModal());
  $("open-audit").addEventListener("click", openAudit);
  $("audit-add-file").addEventListener("click", () => addAuditRow());
  $("audit-form").addEventListener("submit", startAudit);
  $("token-form").addEventListener("submit", tokenEntered);
  $("token-dialog").addEventListener("cancel", (e) => e.preventDefault()); // nothing works without it
  $("export-csv").addEventListener("click", () => download("/api/decisions.csv", "varroom-decisions.csv"));
  $("export-json").addEventListener("click", () => download("/api/decisions.json", "varroom-decisions.json"));
  $("involvement-form").addEventListener("submit", addInvolvement);
  $("offfield-form").addEventListener("submit", addOffField);
  $("off-touch").addEventListener("change", refreshOffPlayers);
  $("reset-facts").addEventListener("click", resetFacts);
  for (const box of document.querySelectorAll("#pk-facts input")) box.addEventListener("change", setPenaltyFacts);
  $("picture-frame").addEventListener("click", enlarge);
  $("lightbox").addEventListener("click", () => $("lightbox").close());
  $("correcting-cancel").addEventListener("click", () => { state.correcting = null; renderDecide(); });
  for (const btn of document.querySelectorAll(".decide-btn")) {
    btn.addEventListener("click", () => decide(btn.dataset.decision));
  }
  for (const btn of document.querySelectorAll("[data-close]")) {
    btn.addEventListener("click", () => btn.closest("dialog").close());
  }
  document.addEventListener("keydown", onKey);

  let depth = 0;
  window.addEventListener("dragenter", (e) => { if (e.dataTransfer && [...e.dataTransfer.types].includes("Files")) { depth += 1; $("drop").hidden = false; } });
  window.addEventListener("dragleave", () => { depth = Math.max(0, depth - 1); if (!depth) $("drop").hidden = true; });
  window.addEventListener("dragover", (e) => e.preventDefault());
  window.addEventListener("drop", (e) => {
    e.preventDefault();
    depth = 0;
    $("drop").hidden = true;
    if (e.dataTransfer && e.dataTransfer.files.length) uploadFiles([...e.dataTransfer.files]);
  });

  setInterval(tick, 100);
  // The poll also brings other reviewers' decisions (no event tells of those), and the
  // queue where the event stream cannot be read.
  setInterval(() => { if (!document.hidden) loadQueue(); }, 5000);
  if (window.ReadableStream && window.TextDecoderStream) followEvents();
  loadQueue().then(() => {
    const id = Number(location.hash.slice(1));
    if (id) openIncident(id);
  });
}

document.addEventListener("DOMContentLoaded", init);
