// JSON over HTTP to the local server: one request at a time, in order; errors come back
// as {"error", "code"} and are thrown as ApiError. State-changing game requests carry the
// revision of the game this page last saw; the server answers 409 "stale" with the game as
// it is now when another window changed it meanwhile.

import { language, t } from "./i18n.js";

/** The words for a "stale" answer (another window changed the game). */
export const staleMessage = () => t("message.stale");

export class ApiError extends Error {
  constructor(status, message, code, game = null) {
    super(message);
    this.status = status;
    this.code = code;
    /** The game as stored now (a "stale" answer), or null. */
    this.game = game;
  }

  get stale() {
    return this.code === "stale" && this.game !== null;
  }
}

// ----- the access token: every request for the table's data carries it ----------------------
// `eightoff play` opens the page at /?token=…; the token is kept in this origin's
// localStorage (its scheme, host and port: a page served on another port cannot read it,
// and two tables on one host keep one each), taken out of the address bar at once, and
// sent as "Authorization: token …". No cookie: browsers send cookies to every port.
const TOKEN_KEY = "eightoff.token";
const PENDING_KEY = "eightoff.pending_link"; // a link's query kept by gate.js
const PENDING_MS = 60 * 60 * 1000; // a link followed more than an hour ago is not opened
let accessToken = null;
let tokenGiven = false;

function keepToken() {
  const here = new URL(window.location.href);
  const given = here.searchParams.get("token");
  tokenGiven = Boolean(given);
  try {
    if (given) window.localStorage.setItem(TOKEN_KEY, given);
    accessToken = given || window.localStorage.getItem(TOKEN_KEY);
  } catch {
    accessToken = given; // storage refused (a private window's settings): this page only
  }
  if (given !== null) {
    here.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", here.pathname + here.search + here.hash);
  }
}
keepToken();

/** The query of the link followed before the token came (gate.js kept it), when this page
 * was opened with the token (?token=…) within the hour; else null. Read once. */
export function takePendingLink() {
  let kept = null;
  try {
    kept = JSON.parse(window.localStorage.getItem(PENDING_KEY) || "null");
    window.localStorage.removeItem(PENDING_KEY);
  } catch {
    return null;
  }
  if (!tokenGiven || !kept || typeof kept.search !== "string" || !(Date.now() - kept.at < PENDING_MS)) return null;
  return kept.search;
}

/** The server refused this page's token (a table started in another login session has
 * another): forget it and go to the page that says how to get in, keeping the link. */
export function lockedOut() {
  try {
    window.localStorage.removeItem(TOKEN_KEY);
    const query = new URLSearchParams(window.location.search);
    if (["variant", "deal", "cells", "retrieval", "strict"].some((key) => query.has(key))) {
      window.localStorage.setItem(PENDING_KEY, JSON.stringify({ search: window.location.search, at: Date.now() }));
    }
  } catch {
    /* the access page shows the link to open again */
  }
  accessToken = null;
  window.location.replace(`/access${window.location.search}`);
}

/** The headers that let a request through the server's guard. */
export function authorization() {
  return accessToken ? { Authorization: `token ${accessToken}` } : {};
}

export async function api(method, path, body) {
  // the server renders its words (moves, reasons, hints) in the table's language
  const headers = { Accept: "application/json", "Accept-Language": language(), ...authorization() };
  const options = { method, headers };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, t("message.offline"), "offline");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const raw = (data && (data.error || data.detail)) || t("message.http_error", { status: response.status, text: response.statusText });
    const message = typeof raw === "string" ? raw : JSON.stringify(raw);
    const game = data && typeof data.game === "object" && data.game !== null ? data.game : null;
    throw new ApiError(response.status, message, (data && data.code) || "http_error", game);
  }
  return data;
}

/**
 * A state-changing request on a game: POST /api/games/{id}/{action} with a JSON object
 * body that names the revision the page shows.
 */
export function gameCall(game, action, body = {}) {
  const sent = { ...body };
  if (Number.isInteger(game.revision)) sent.revision = game.revision;
  return api("POST", `/api/games/${game.id}/${action}`, sent);
}

// ----- one request at a time, in order ----------------------------------------------------
let queue = Promise.resolve();
let pending = 0;

/** Run task after every task queued before it; body[data-busy] is "true" meanwhile. */
export function enqueue(task) {
  pending += 1;
  document.body.dataset.busy = "true";
  const run = queue.then(task, task);
  queue = run.catch(() => {});
  queue.then(() => {
    pending -= 1;
    if (pending === 0) document.body.dataset.busy = "false";
  });
  return run;
}
