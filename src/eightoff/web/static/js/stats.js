// Statistics: the server's counts per variant, in a table.

import { api } from "./api.js";
import { $, variantName } from "./state.js";

const HEADINGS = ["Variant", "Played", "Won", "Win %", "Streak", "Best streak", "Fewest moves", "Hints used"];

function percent(rate) {
  if (rate === null || rate === undefined) return "–";
  return `${Math.round((rate <= 1 ? rate * 100 : rate) * 10) / 10}%`;
}

function row(variant, s) {
  const tr = document.createElement("tr");
  const values = [s.name || variantName(variant), s.played, s.won, percent(s.win_rate), s.streak, s.best_streak, s.fewest_moves ?? "–", s.hints ?? 0];
  values.forEach((v, i) => {
    const td = document.createElement(i === 0 ? "th" : "td");
    if (i === 0) td.scope = "row";
    td.textContent = String(v);
    tr.append(td);
  });
  return tr;
}

export async function openStats() {
  const body = $("stats-body");
  body.textContent = "Loading…";
  $("dlg-stats").showModal();
  let stats;
  try {
    stats = await api("GET", "/api/stats");
  } catch (e) {
    body.textContent = e.message;
    return;
  }
  const rows = Object.entries(stats || {}).filter(([, s]) => s.played > 0);
  if (!rows.length) {
    body.textContent = "No games played yet.";
    return;
  }
  const table = document.createElement("table");
  table.className = "stats";
  const head = document.createElement("tr");
  for (const text of HEADINGS) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text;
    head.append(th);
  }
  table.createTHead().append(head);
  const tbody = table.createTBody();
  for (const [variant, s] of rows) tbody.append(row(variant, s));
  body.replaceChildren(table);
}
