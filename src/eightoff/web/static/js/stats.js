// Statistics: the server's counts per variant and house rules, in a table. "Won" counts the
// player's own wins; "Assisted" the games finished after the solver's solution was shown.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { $, variantName } from "./state.js";

const HEADINGS = ["stats.variant", "stats.played", "stats.won", "stats.assisted", "stats.win_rate", "stats.streak", "stats.best_streak", "stats.fewest_moves", "par.stats_heading", "stats.hints"];
const HOUSE_RULE_WORDS = { foundation_retrieval: "rules.house.retrieval", strict_single: "rules.house.strict" };

function percent(rate) {
  if (rate === null || rate === undefined) return "–";
  return t("stats.percent", { n: Math.round((rate <= 1 ? rate * 100 : rate) * 10) / 10 });
}

/** Moves over par of the won games whose par is proven: "avg. 2.5 · best 0", or "–". */
function overPar(over) {
  if (!over || !over.games) return "–";
  return t("par.stats_value", { average: Math.round(over.average * 10) / 10, best: over.best });
}

/** "Eight Off" or "Eight Off · single-card moves": the line's variant and house rules. */
function lineName(key, s) {
  const name = s.name || variantName(s.variant || key);
  const rules = (s.house_rules || []).map((r) => t(HOUSE_RULE_WORDS[r] || r));
  return rules.length ? t("stats.house_rules", { variant: name, rules: rules.join(", ") }) : name;
}

/** A line's numbers, in the order of HEADINGS after the first. */
function numbers(s) {
  return [s.played, s.won, s.assisted ?? 0, percent(s.win_rate), s.streak, s.best_streak, s.fewest_moves ?? "–", overPar(s.over_par), s.hints ?? 0];
}

function row(key, s) {
  const tr = document.createElement("tr");
  const values = [lineName(key, s), ...numbers(s)];
  values.forEach((v, i) => {
    const td = document.createElement(i === 0 ? "th" : "td");
    if (i === 0) td.scope = "row";
    td.textContent = String(v);
    if (HEADINGS[i] === "par.stats_heading") td.className = "over-par";
    tr.append(td);
  });
  return tr;
}

/**
 * On a phone one line's numbers as a table of its own, the line's name its caption: ten
 * columns side by side do not fit 390 px (German headings are long), two do.
 */
function lineTable(key, s) {
  const table = document.createElement("table");
  table.className = "stats stats-line";
  table.createCaption().textContent = lineName(key, s);
  const tbody = table.createTBody();
  numbers(s).forEach((v, i) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = t(HEADINGS[i + 1]);
    const td = document.createElement("td");
    td.textContent = String(v);
    tr.append(th, td);
    tbody.append(tr);
  });
  return table;
}

const PHONE = "(max-width: 560px)";

const LEVELS = ["Easy", "Medium", "Hard", "Expert", "Grandmaster", "Not winnable"];
const LEVEL_HEADINGS = ["stats.level", "stats.variant", "stats.played", "stats.won", "stats.win_rate", "par.stats_heading"];

function headRow(keys) {
  const head = document.createElement("tr");
  for (const key of keys) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(key);
    head.append(th);
  }
  return head;
}

/**
 * A row per difficulty level of the rated deals, for each line that has some: the cells
 * of(level, n, key, s) gives (null: no row). On a phone the moves over par get a table of
 * their own (six columns side by side do not fit 390 px).
 */
function levelTable(rows, caption, headings, of) {
  const table = document.createElement("table");
  table.className = "stats stats-levels";
  table.createCaption().textContent = caption;
  table.createTHead().append(headRow(headings));
  const tbody = table.createTBody();
  for (const [key, s] of rows) {
    for (const level of LEVELS) {
      const n = (s.levels || {})[level];
      const values = n ? of(level, n, key, s) : null;
      if (!values) continue;
      const tr = document.createElement("tr");
      values.forEach((v, i) => {
        const td = document.createElement(i === 0 ? "th" : "td");
        if (i === 0) td.scope = "row";
        td.textContent = String(v);
        if (headings[i] === "par.stats_heading") td.className = "over-par";
        tr.append(td);
      });
      tbody.append(tr);
    }
  }
  return tbody.rows.length ? table : null;
}

/** Played and won (and, not on a phone, moves over par) per difficulty level. */
function levelTables(rows, phone) {
  const headings = phone ? LEVEL_HEADINGS.filter((h) => h !== "par.stats_heading") : LEVEL_HEADINGS;
  const won = levelTable(rows, t("stats.by_level"), headings, (level, n, key, s) => {
    const values = [t(`level.${level}`), lineName(key, s), n.played, n.won, percent(n.played ? n.won / n.played : null)];
    return phone ? values : [...values, overPar(n.over_par)];
  });
  if (!phone) return [won];
  const par = levelTable(rows, t("par.stats_by_level"), ["stats.level", "stats.variant", "par.stats_heading"], (level, n, key, s) =>
    n.over_par ? [t(`level.${level}`), lineName(key, s), overPar(n.over_par)] : null,
  );
  return [won, par];
}

export async function openStats() {
  const body = $("stats-body");
  body.textContent = t("stats.loading");
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
    body.textContent = t("stats.none");
    return;
  }
  const tables = [];
  const phone = matchMedia(PHONE).matches;
  if (phone) {
    const lines = document.createElement("div");
    lines.className = "stats-lines";
    lines.append(...rows.map(([key, s]) => lineTable(key, s)));
    tables.push(lines);
  } else {
    const table = document.createElement("table");
    table.className = "stats";
    table.createTHead().append(headRow(HEADINGS));
    const tbody = table.createTBody();
    for (const [key, s] of rows) tbody.append(row(key, s));
    tables.push(table);
  }
  const note = document.createElement("p");
  note.className = "small";
  note.textContent = t("stats.note");
  const parNote = document.createElement("p");
  parNote.className = "small";
  parNote.textContent = t("par.stats_note");
  body.replaceChildren(...[...tables, ...levelTables(rows, phone), note, parNote].filter(Boolean));
}
