// Lessons: the list to choose from, the side panel with the lesson's goal and guidance,
// and the way on to the next lesson (after the last: a full shuffled deal).

import { hidePanel, showPanel } from "./draw.js";
import { t } from "./i18n.js";
import { startGame } from "./play.js";
import { $, lessonOf, onGameChange, reducedMotion, state } from "./state.js";
import { say, setHidden } from "./ui.js";

const lessonCount = () => state.lessons.length || 4;

function renderLesson(game) {
  const lesson = lessonOf(game);
  if (!lesson) {
    if (!$("lesson-panel").hidden) hidePanel();
    return;
  }
  if (($("panel").hidden || $("lesson-panel").hidden) && !state.replay) showPanel("lesson");
  $("lesson-kicker").textContent = t("lesson.kicker_progress", { n: lesson.id, total: lessonCount() });
  $("lesson-title").textContent = lesson.title;
  $("lesson-goal").textContent = lesson.goal;
  $("lesson-guidance").replaceChildren(
    ...(lesson.guidance || []).map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }),
  );
  const done = Boolean(lesson.complete);
  const wasDone = !$("lesson-success").hidden;
  setHidden($("lesson-success"), !done); // Next lesson, focused, hands the focus to the table
  if (!done) return;
  const last = nextLessonId(lesson) === null;
  const text = last ? t("lesson.done_last") : t("lesson.done", { title: nextLessonTitle(lesson) });
  $("lesson-success-text").textContent = text;
  $("btn-next-lesson").textContent = t(last ? "lesson.play_full" : "lesson.next");
  if (wasDone) return;
  say(text);
  // on a phone the panel lies below the board: bring "Well done" and its button into view
  $("lesson-success").scrollIntoView({ block: "nearest", behavior: reducedMotion ? "auto" : "smooth" });
}

onGameChange((game) => renderLesson(game));

/** The lesson after this one (the server's "next"), or null after the last. */
function nextLessonId(lesson) {
  if (lesson.next !== undefined) return lesson.next;
  return lesson.id < lessonCount() ? lesson.id + 1 : null;
}

function nextLessonTitle(lesson) {
  const next = state.lessons.find((l) => l.id === nextLessonId(lesson));
  return next ? next.title : t("lesson.fallback_next", { n: lesson.id + 1 });
}

export async function nextLesson() {
  const lesson = lessonOf(state.game);
  if (!lesson) return;
  const next = nextLessonId(lesson);
  if (next === null) {
    hidePanel();
    const body = { variant: "eightoff", deal: null, winnable_only: state.settings.winnable_only, lesson: null };
    await startGame(body, { confirm: false });
  } else {
    await startGame({ lesson: next }, { confirm: false });
  }
}

export function openLessons() {
  $("lessons-list").replaceChildren(
    ...state.lessons.map((l) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "lesson-start";
      b.textContent = l.title;
      b.addEventListener("click", async () => {
        $("dlg-lessons").close();
        await startGame({ lesson: l.id });
      });
      const goal = document.createElement("span");
      goal.className = "lesson-goal";
      goal.textContent = l.goal;
      li.append(b, goal);
      return li;
    }),
  );
  $("dlg-lessons").showModal();
}
