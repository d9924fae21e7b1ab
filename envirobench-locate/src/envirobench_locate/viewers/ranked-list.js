// Viewer "ranked-list": a question's passages as each run ranked them, beside the ideal ranking.
// (The viewer contract is described in core's json.js.)
//
// Reads {question, passages: [{id, text, source}]} from the input, {judgments: [{passage,
// grade}], essential: [ids]} from the answer and {ranking: [ids]} from each prediction. Each
// ranked list shows the top 10 (the cutoff of nDCG@10) and then the rest folded away; every
// passage carries its grade (0-3), essential passages are marked, a passage the question does not
// offer is flagged, and essential passages missing from a run's top 10 are listed under it.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const CUTOFF = 10;

  // The report's element maker (context.el, report.js): it runs after this script has loaded.
  const text = (tag, cls, value) => EB.el(tag, { class: cls, text: value });
  function ids(value) {
    return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
  }
  // The ideal ranking: by grade, essential first within a grade, then by ID (as the fixtures).
  function ideal(grades, essential) {
    return Array.from(grades.keys()).sort((a, b) => grades.get(b) - grades.get(a) || essential.has(b) - essential.has(a) || (a < b ? -1 : a > b ? 1 : 0));
  }
  function dcg(ranking, grades) {
    let total = 0;
    ranking.slice(0, CUTOFF).forEach((id, i) => {
      total += (grades.get(id) || 0) / Math.log2(i + 2);
    });
    return total;
  }

  function item(id, rank, passages, grades, essential) {
    const li = document.createElement("li");
    li.className = "ebl-rl-item";
    const grade = grades.has(id) ? grades.get(id) : null;
    li.dataset.grade = grade === null ? "unknown" : String(grade);
    const head = document.createElement("div");
    head.className = "ebl-rl-head";
    head.append(text("span", "ebl-rl-rank", String(rank)), text("span", "ebl-rl-grade", grade === null ? "?" : String(grade)), text("code", null, id));
    if (essential.has(id)) head.append(text("span", "ebl-rl-essential", "essential"));
    li.append(head);
    const passage = passages.get(id);
    if (passage) {
      li.append(text("p", "ebl-rl-text", String(passage.text || "")));
      if (passage.source) li.append(text("p", "ebl-rl-source", String(passage.source)));
    } else {
      li.append(text("p", "ebl-rl-note", "not a passage of this question"));
    }
    return li;
  }

  function list(ranking, passages, grades, essential) {
    const box = document.createElement("div");
    const top = document.createElement("ol");
    top.className = "ebl-rl-list";
    ranking.slice(0, CUTOFF).forEach((id, i) => top.append(item(id, i + 1, passages, grades, essential)));
    box.append(top);
    if (ranking.length > CUTOFF) {
      const more = document.createElement("details");
      more.append(text("summary", null, "ranks " + (CUTOFF + 1) + "-" + ranking.length));
      const rest = document.createElement("ol");
      rest.className = "ebl-rl-list";
      rest.start = CUTOFF + 1;
      ranking.slice(CUTOFF).forEach((id, i) => rest.append(item(id, CUTOFF + i + 1, passages, grades, essential)));
      more.append(rest);
      box.append(more);
    }
    return box;
  }

  EB.viewers["ranked-list"] = {
    render(element, item_, context) {
      const input = item_.input && typeof item_.input === "object" ? item_.input : {};
      const answer = item_.answer && typeof item_.answer === "object" ? item_.answer : {};
      const passages = new Map();
      for (const p of Array.isArray(input.passages) ? input.passages : []) if (p && typeof p.id === "string") passages.set(p.id, p);
      const grades = new Map();
      for (const j of Array.isArray(answer.judgments) ? answer.judgments : []) if (j && typeof j.passage === "string") grades.set(j.passage, Number(j.grade) || 0);
      const essential = new Set(ids(answer.essential));
      const best = ideal(grades, essential);
      const idealDcg = dcg(best, grades);

      const root = document.createElement("div");
      root.className = "ebl-rl";
      root.append(text("p", "ebl-rl-question", String(input.question || "")));
      const columns = document.createElement("div");
      columns.className = "ebl-rl-columns";
      const column = (label, ranking, compare) => {
        const box = context.runSection("ebl-rl-column", label);
        if (ranking === null) {
          box.append(text("p", "ebl-rl-note", "no prediction"));
          return box;
        }
        if (compare) {
          const notes = ["nDCG@10 " + (idealDcg > 0 ? (dcg(ranking, grades) / idealDcg).toFixed(3) : "n/a")];
          const top = new Set(ranking.slice(0, CUTOFF));
          const missed = Array.from(essential).filter((id) => !top.has(id));
          notes.push(missed.length ? "essential not in the top 10: " + missed.join(", ") : "every essential passage in the top 10");
          box.append(text("p", "ebl-rl-note", notes.join("; ")));
        }
        box.append(list(ranking, passages, grades, essential));
        return box;
      };
      columns.append(column("ideal", best, false));
      for (const run of item_.runs || []) {
        const prediction = run.prediction && typeof run.prediction === "object" ? run.prediction : null;
        columns.append(column(run.label, prediction ? ids(prediction.ranking) : null, true));
      }
      root.append(columns);
      element.append(root);
    },
  };
})();
