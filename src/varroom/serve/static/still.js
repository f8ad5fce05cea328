// varroom review room: mark a broadcast still, judge it, save the marks, decide.
// Marks are kept in the still's own pixels; the overlay's viewBox is the still's size.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const ACTIONS = ["pass", "shot", "header", "cross", "clearance", "dribble", "deliberate_play",
  "deflection", "save", "throw_in", "goal_kick", "corner_kick", "free_kick", "kick_off"];

const state = {
  token: new URLSearchParams(location.search).get("token") || sessionStorage.getItem("varroom-token") || "",
  still: null,
  etag: null,
  pitchPoints: [],
  landmarks: [],  // {pitch, name, pixel}
  marks: {},      // id -> {pixel, team: "att" | "def", gk}
  ball: null,     // pixel
  hints: [],      // suggested players' pixels
  bad: null,      // the JSON path of the last fault
  opened: Date.now(),
  drag: null,
};

async function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (state.token) headers["Authorization"] = "Bearer " + state.token;
  const response = await fetch(path, Object.assign({}, options, { headers }));
  if (!response.ok) {
    let body = { error: response.statusText };
    try { body = await response.json(); } catch (_) { /* not JSON: keep the status text */ }
    throw Object.assign(new Error(body.error), { body, status: response.status });
  }
  return response;
}

function jsonBody(data, more = {}) {
  return Object.assign({ body: JSON.stringify(data), headers: { "content-type": "application/json" } }, more);
}

function showError(error) {
  const box = $("error");
  const where = error.body && error.body.where;
  state.bad = where || null;
  box.textContent = where ? `${error.message} (at ${where})` : error.message;
  box.hidden = false;
  render();
}

function clearError() {
  $("error").hidden = true;
  state.bad = null;
}

// -- the still ------------------------------------------------------------------------------

async function upload(file) {
  clearError();
  try {
    const type = file.type || (file.name.toLowerCase().endsWith(".png") ? "image/png" : "image/jpeg");
    const response = await api("/api/stills?filename=" + encodeURIComponent(file.name),
      { method: "POST", body: file, headers: { "content-type": type } });
    await openStill(await response.json(), null);
  } catch (error) {
    showError(error);
  }
}

async function openStill(detail, etag) {
  state.still = detail;
  state.etag = etag;
  state.opened = Date.now();
  const blob = await (await api(`/api/stills/${detail.id}/image`)).blob();
  const img = $("still-img");
  img.src = URL.createObjectURL(blob);
  await img.decode();
  $("overlay").setAttribute("viewBox", `0 0 ${detail.width} ${detail.height}`);
  $("stage").hidden = false;
  $("still-info").textContent = `still ${detail.id}: ${detail.source_name || ""} ${detail.width}\u00d7${detail.height}`;
  history.replaceState(null, "", `/still?still=${detail.id}`);
  if (detail.marks) loadMarks(detail.marks);
  showIncident();
  render();
}

function loadMarks(marks) {
  $("team-att").value = marks.attack.team;
  $("towards").value = marks.attack.towards;
  const teams = Object.fromEntries(marks.players.map((p) => [p.id, p]));
  state.landmarks = marks.landmarks.map((lm) => ({ pitch: lm.pitch, pixel: lm.pixel, name: nameOf(lm.pitch) }));
  state.marks = {};
  for (const [id, mark] of Object.entries(marks.marks)) {
    const player = teams[id];
    if (player.team !== marks.attack.team) $("team-def").value = player.team;
    state.marks[id] = { pixel: mark.pixel, team: player.team === marks.attack.team ? "att" : "def", gk: !!player.goalkeeper };
  }
  state.ball = marks.ball.pixel || null;
  $("passer").value = marks.touch.player || "";
  $("action").value = marks.touch.action;
  refreshPlayers();
  $("involved").value = marks.involved || "";
}

function nameOf(pitch) {
  const found = state.pitchPoints.find((p) => samePoint(p.pitch, pitch));
  return found ? found.name : JSON.stringify(pitch);
}

function samePoint(a, b) {
  return a.length === b.length && a.every((v, k) => Math.abs(v - b[k]) < 1e-3);
}

async function loadPitchPoints() {
  const response = await api("/api/stills/pitch-points?towards=" + encodeURIComponent($("towards").value));
  state.pitchPoints = await response.json();
  const select = $("landmark-point");
  select.replaceChildren(...state.pitchPoints.map((p, k) => {
    const option = document.createElement("option");
    option.value = String(k);
    option.textContent = `${p.name} [${p.pitch.join(", ")}]`;
    return option;
  }));
}

// -- marking ------------------------------------------------------------------------------

function tool() {
  return document.querySelector("input[name=tool]:checked").value;
}

function pointer(event) {
  const svg = $("overlay");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const clamp = (v, hi) => Math.min(Math.max(v, 0), hi);
  return [Math.round(clamp(p.x, state.still.width) * 10) / 10, Math.round(clamp(p.y, state.still.height) * 10) / 10];
}

function place(pixel) {
  clearError();
  const kind = tool();
  if (kind === "landmark") {
    const select = $("landmark-point");
    const chosen = state.pitchPoints[Number(select.value)];
    if (!chosen) return;
    const existing = state.landmarks.find((lm) => samePoint(lm.pitch, chosen.pitch));
    if (existing) existing.pixel = pixel;
    else state.landmarks.push({ pitch: chosen.pitch, name: chosen.name, pixel });
    const next = state.pitchPoints.findIndex((p) => !state.landmarks.some((lm) => samePoint(lm.pitch, p.pitch)));
    if (next >= 0) select.value = String(next);
  } else if (kind === "player") {
    const id = $("player-id").value.trim();
    if (!id) {
      showError(new Error("give the player's id first"));
      return;
    }
    state.marks[id] = { pixel, team: $("player-team").value, gk: $("player-gk").checked };
    refreshPlayers();
  } else {
    state.ball = pixel;
  }
  render();
}

function refreshPlayers() {
  const ids = Object.keys(state.marks);
  $("player-ids").replaceChildren(...ids.map((id) => Object.assign(document.createElement("option"), { value: id })));
  const involved = $("involved");
  const chosen = involved.value;
  const options = [Object.assign(document.createElement("option"), { value: "", textContent: "(nobody yet)" })];
  for (const id of ids.filter((k) => state.marks[k].team === "att")) {
    options.push(Object.assign(document.createElement("option"), { value: id, textContent: id }));
  }
  involved.replaceChildren(...options);
  if (ids.includes(chosen)) involved.value = chosen;
}

function circle(pixel, cls, key, label) {
  const g = document.createElementNS(SVG, "g");
  g.setAttribute("class", "pt");
  g.dataset.key = key;
  const c = document.createElementNS(SVG, "circle");
  c.setAttribute("cx", pixel[0]);
  c.setAttribute("cy", pixel[1]);
  c.setAttribute("r", 9);
  c.setAttribute("class", cls);
  g.append(c);
  if (label) {
    const t = document.createElementNS(SVG, "text");
    t.setAttribute("x", pixel[0] + 12);
    t.setAttribute("y", pixel[1] - 10);
    t.textContent = label;
    g.append(t);
  }
  return g;
}

function isBad(path) {
  return state.bad !== null && (state.bad === path || state.bad.startsWith(path + ".") || state.bad.startsWith(path + "["));
}

function render() {
  if (!state.still) return;
  const svg = $("overlay");
  const nodes = [];
  state.hints.forEach((pixel) => {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", pixel[0]);
    c.setAttribute("cy", pixel[1]);
    c.setAttribute("r", 16);
    c.setAttribute("class", "hint");
    nodes.push(c);
  });
  state.landmarks.forEach((lm, k) => {
    const bad = isBad(`$.landmarks[${k}]`);
    nodes.push(circle(lm.pixel, "landmark" + (bad ? " bad" : ""), `landmark:${k}`, String(k + 1)));
  });
  for (const [id, mark] of Object.entries(state.marks)) {
    nodes.push(circle(mark.pixel, mark.team + (isBad(`$.marks.${id}`) ? " bad" : ""), `mark:${id}`, id));
  }
  if (state.ball) nodes.push(circle(state.ball, "ball" + (isBad("$.ball") ? " bad" : ""), "ball", "ball"));
  svg.replaceChildren(...nodes);

  $("landmark-count").textContent = `(${state.landmarks.length}; at least 4)`;
  $("landmark-list").replaceChildren(...state.landmarks.map((lm, k) => item(
    `${k + 1}: ${lm.name} at [${lm.pixel.join(", ")}]`, isBad(`$.landmarks[${k}]`),
    () => { state.landmarks.splice(k, 1); render(); })));
  const marks = Object.entries(state.marks).map(([id, mark]) => item(
    `${id} (${mark.team === "att" ? "attacking" : "defending"}${mark.gk ? ", goalkeeper" : ""}) at [${mark.pixel.join(", ")}]`,
    isBad(`$.marks.${id}`), () => { delete state.marks[id]; refreshPlayers(); render(); }));
  if (state.ball) marks.push(item(`ball at [${state.ball.join(", ")}]`, isBad("$.ball"), () => { state.ball = null; render(); }));
  $("mark-list").replaceChildren(...marks);
}

function item(text, bad, remove) {
  const li = document.createElement("li");
  li.textContent = text;
  if (bad) li.className = "bad";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "\u00d7";
  button.title = "remove";
  button.addEventListener("click", remove);
  li.append(button);
  return li;
}

function startDrag(event) {
  if (!state.still) return;
  const target = event.target.closest(".pt");
  event.preventDefault();
  if (!target) {
    place(pointer(event));
    return;
  }
  state.drag = target.dataset.key;
  $("overlay").setPointerCapture(event.pointerId);
}

function moveDrag(event) {
  if (!state.drag) return;
  const pixel = pointer(event);
  const [kind, key] = state.drag.split(/:(.*)/);
  if (kind === "landmark") state.landmarks[Number(key)].pixel = pixel;
  else if (kind === "mark") state.marks[key].pixel = pixel;
  else state.ball = pixel;
  render();
}

function endDrag(event) {
  if (!state.drag) return;
  moveDrag(event);
  state.drag = null;
}

// -- the marks, judged --------------------------------------------------------------------

function marksJson() {
  const att = $("team-att").value.trim();
  const def = $("team-def").value.trim();
  const players = Object.entries(state.marks).map(([id, mark]) => Object.assign(
    { id, team: mark.team === "att" ? att : def }, mark.gk ? { goalkeeper: true } : {}));
  const passer = $("passer").value.trim();
  const marks = {
    kind: "still_marks",
    pitch: { length: 105.0, width: 68.0 },
    attack: { team: att, towards: $("towards").value },
    players,
    landmarks: state.landmarks.map((lm) => ({ pitch: lm.pitch, pixel: lm.pixel })),
    marks: Object.fromEntries(Object.entries(state.marks).map(([id, mark]) => [id, { pixel: mark.pixel }])),
    ball: state.ball ? { pixel: state.ball } : {},
    touch: { player: passer || null, action: $("action").value },
    pixel_sd: 1.5,
  };
  if ($("involved").value) marks.involved = $("involved").value;
  return marks;
}

async function judge() {
  if (!state.still) return;
  clearError();
  const marks = marksJson();
  try {
    const verdict = await (await api(`/api/stills/${state.still.id}/verdict`, jsonBody(marks, { method: "POST" }))).json();
    showVerdict(verdict);
    render();
    const blob = await (await api(`/api/stills/${state.still.id}/picture.png`, jsonBody(marks, { method: "POST" }))).blob();
    const img = $("result-img");
    img.src = URL.createObjectURL(blob);
    await img.decode();
    $("result").hidden = false;
  } catch (error) {
    showError(error);
  }
}

function showVerdict(verdict) {
  const call = $("verdict-call");
  call.textContent = verdict.summary.call;
  call.className = "call " + verdict.status;
  const ci = verdict.margin_ci_m;
  $("verdict-margin").textContent = verdict.margin_m === null || verdict.margin_m === undefined ? "" :
    `${verdict.summary.margin_text}` + (ci ? ` (95%: ${Math.round(ci[0] * 100)} to ${Math.round(ci[1] * 100)} cm)` : "");
  $("verdict-reason").textContent = verdict.reason;
  const cal = verdict.calibration;
  $("verdict-camera").textContent = `Camera: ${cal.method} from ${cal.landmarks} landmarks, reprojection ${cal.reprojection_px} px RMS.`;
  $("verdict").hidden = false;
}

async function save() {
  if (!state.still) return;
  clearError();
  try {
    const headers = { "content-type": "application/json" };
    if (state.etag) headers["if-match"] = state.etag;
    const response = await api(`/api/stills/${state.still.id}/marks`, { method: "PUT", body: JSON.stringify(marksJson()), headers });
    state.etag = response.headers.get("etag");
    state.still = await response.json();
    showIncident();
    await judge();
    await loadDecisions();
  } catch (error) {
    if (error.status === 409) {
      // Someone saved this still, or changed its incident's facts, since it was loaded: the
      // still's state now, shown again; the marks on the page stay, to be saved over it.
      const response = await api(`/api/stills/${state.still.id}`);
      state.etag = response.headers.get("etag");
      state.still = await response.json();
      showIncident();
      await loadDecisions();
      showError(new Error("the incident changed since these marks were loaded: look at it again, then save to keep yours"));
      return;
    }
    showError(error);
  }
}

function showIncident() {
  const still = state.still;
  $("deciding").hidden = still.situation_id === null;
  if (still.situation_id !== null) {
    $("incident").textContent = `Saved with incident ${still.situation_id} (marks ${still.marks_id}).`;
  }
}

async function decide(decision) {
  clearError();
  const reviewer = $("reviewer").value.trim();
  if (!reviewer) {
    showError(new Error("give your name as the reviewer first"));
    return;
  }
  localStorage.setItem("varroom-reviewer", reviewer);
  try {
    const entry = {
      reviewer,
      decision,
      duration_s: Math.round((Date.now() - state.opened) / 100) / 10,
      client_ref: `still-${state.still.id}-${Date.now()}`,
    };
    await api(`/api/stills/${state.still.id}/decisions`, jsonBody(entry, { method: "POST", headers: { "content-type": "application/json", "if-match": state.etag } }));
    await loadDecisions();
  } catch (error) {
    showError(error);
  }
}

async function loadDecisions() {
  const entries = await (await api(`/api/stills/${state.still.id}/decisions`)).json();
  $("decision-list").replaceChildren(...entries.map((e) => {
    const li = document.createElement("li");
    li.textContent = `${e.reviewer}: ${e.decision} \u2192 ${e.outcome.replace("_", " ")} (marks ${e.marks_id}, ${e.created_at})`;
    return li;
  }));
}

async function suggest() {
  if (!state.still) return;
  clearError();
  const note = $("suggest-note");
  note.textContent = "Looking for the pitch lines\u2026";
  try {
    const url = `/api/stills/${state.still.id}/suggestions?towards=${encodeURIComponent($("towards").value)}`;
    // Computed once per still, in the room's worker: 202 until it is done, then the result.
    let response = await api(url);
    for (let tries = 0; response.status === 202 && tries < 240; tries += 1) {
      await new Promise((done) => setTimeout(done, 500));
      response = await api(url);
    }
    if (response.status === 202) throw new Error("the suggestions are still being computed: ask again in a while");
    const found = await response.json();
    if (!found.available) {
      note.textContent = found.reason;
      return;
    }
    state.landmarks = found.landmarks.map((lm) => ({ pitch: lm.pitch, pixel: lm.pixel, name: nameOf(lm.pitch) }));
    state.hints = found.players;
    const lines = found.line_error_px === null ? "" : `; the fitted lines lie ${found.line_error_px} px from the white lines found`;
    note.textContent = `${found.landmarks.length} landmarks and ${found.players.length} players suggested${lines}. ` +
      (found.reason || "Check each one and drag what is wrong.");
    render();
  } catch (error) {
    note.textContent = "";
    showError(error);
  }
}

// -- start ---------------------------------------------------------------------------------

async function start() {
  if (new URLSearchParams(location.search).get("token")) sessionStorage.setItem("varroom-token", state.token);
  $("action").replaceChildren(...ACTIONS.map((a) => Object.assign(document.createElement("option"), { value: a, textContent: a.replace("_", " ") })));
  $("reviewer").value = localStorage.getItem("varroom-reviewer") || "";
  $("still-file").addEventListener("change", (e) => { if (e.target.files[0]) upload(e.target.files[0]); });
  $("towards").addEventListener("change", () => loadPitchPoints().catch(showError));
  for (const radio of document.querySelectorAll("input[name=tool]")) {
    radio.addEventListener("change", () => {
      $("landmark-choice").hidden = tool() !== "landmark";
      $("player-choice").hidden = tool() !== "player";
    });
  }
  const svg = $("overlay");
  svg.addEventListener("pointerdown", startDrag);
  svg.addEventListener("pointermove", moveDrag);
  svg.addEventListener("pointerup", endDrag);
  $("judge").addEventListener("click", judge);
  $("save").addEventListener("click", save);
  $("suggest").addEventListener("click", suggest);
  $("clear-landmarks").addEventListener("click", () => { state.landmarks = []; clearError(); render(); });
  for (const button of document.querySelectorAll("[data-decision]")) {
    button.addEventListener("click", () => decide(button.dataset.decision));
  }
  await loadPitchPoints();
  const id = new URLSearchParams(location.search).get("still");
  if (id) {
    const response = await api(`/api/stills/${encodeURIComponent(id)}`);
    await openStill(await response.json(), response.headers.get("etag"));
  }
  document.body.dataset.ready = "true";
}

start().catch(showError);
