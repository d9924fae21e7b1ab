// Viewer "cell-overlay": an OCR-read table image with every readable cell's box drawn over it,
// coloured by what the selected run decided (ocr-auto-accept). (The viewer contract is described
// in core's json.js.)
//
// Reads {image, width, height, cells: [{box, text}]} from the input (format v1 also gave each
// cell the engine's confidence, shown in a column when present; v2 withholds it), {cells:
// [{printed, right}]} from the answer and {cells: [{decision, confidence}]} from each prediction.
// One run at a time (a selector; "answer" shows which readings are right): accepted right cells
// green, accepted WRONG cells red with a thick border (the costly error), reviewed cells grey,
// misread cells of the answer view orange. Below, a table of every cell: printed text, OCR
// reading, OCR confidence (v1 inputs) and each run's decision. Text goes in through textContent only.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const SVG = "http://www.w3.org/2000/svg";
  const STATES = {
    "accepted-right": "accepted, read right",
    "accepted-wrong": "accepted, read WRONG",
    reviewed: "sent to review",
    right: "reading right",
    wrong: "reading wrong",
  };

  // The report's element maker (context.el, report.js): it runs after this script has loaded.
  const text = (tag, cls, value) => EB.el(tag, { class: cls, text: value });
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  }
  function list(value, key) {
    return value && typeof value === "object" && Array.isArray(value[key]) ? value[key] : [];
  }
  function boxOf(cell) {
    const b = cell && Array.isArray(cell.box) ? cell.box : null;
    return b && b.length === 4 && b.every((v) => typeof v === "number" && isFinite(v)) ? b : null;
  }
  function decisionOf(entry) {
    return entry && typeof entry === "object" && (entry.decision === "accept" || entry.decision === "review") ? entry.decision : null;
  }
  function confidenceText(value) {
    return typeof value === "number" && isFinite(value) ? value.toFixed(3) : "";
  }

  EB.viewers["cell-overlay"] = {
    render(element, item, context) {
      const input = item.input && typeof item.input === "object" ? item.input : {};
      const cells = list(input, "cells");
      const truth = list(item.answer, "cells");
      const runs = (item.runs || []).map((run) => ({ label: run.label, decisions: run.prediction ? list(run.prediction, "cells") : null }));
      const width = typeof input.width === "number" && input.width > 0 ? input.width : 1;
      const height = typeof input.height === "number" && input.height > 0 ? input.height : 1;

      const root = document.createElement("div");
      root.className = "ebv-co";
      const controls = document.createElement("p");
      controls.className = "ebv-co-controls";
      const select = document.createElement("select");
      for (const label of ["answer"].concat(runs.map((r) => r.label))) {
        const option = document.createElement("option");
        option.value = label;
        option.textContent = label;
        select.append(option);
      }
      if (runs.length) select.value = runs[0].label;
      const counts = text("span", "ebv-co-counts", "");
      controls.append(text("span", null, "show "), select, counts);

      const stage = document.createElement("div");
      stage.className = "ebv-co-stage";
      stage.style.width = "min(100%, " + Math.max(width, 480) + "px)";
      if (!context.caseImage(stage, root, "ebv-co", item)) stage.style.aspectRatio = width + " / " + height;
      const overlay = svg("svg", { class: "ebv-co-svg", viewBox: "0 0 " + width + " " + height, preserveAspectRatio: "none" });
      stage.append(overlay);

      function state(index, label) {
        const right = truth[index] ? truth[index].right === true : null;
        if (label === "answer") return right === null ? null : right ? "right" : "wrong";
        const run = runs.find((r) => r.label === label);
        if (!run || !run.decisions) return null;
        const decision = decisionOf(run.decisions[index]);
        if (decision !== "accept") return "reviewed";
        return right ? "accepted-right" : "accepted-wrong";
      }
      function draw() {
        overlay.replaceChildren();
        const tally = {};
        cells.forEach((cell, index) => {
          const b = boxOf(cell);
          const s = state(index, select.value);
          if (s) tally[s] = (tally[s] || 0) + 1;
          if (!b) return;
          const rect = svg("rect", { x: b[0], y: b[1], width: Math.max(1, b[2] - b[0]), height: Math.max(1, b[3] - b[1]), class: "ebv-co-cell", "vector-effect": "non-scaling-stroke" });
          if (s) rect.dataset.state = s;
          const title = svg("title", {});
          title.textContent = "cell " + index + ": " + String(cell.text) + (s ? " (" + STATES[s] + ")" : "");
          rect.append(title);
          overlay.append(rect);
        });
        counts.textContent = " " + Object.entries(tally).map(([s, n]) => n + " " + STATES[s]).join(", ");
        const run = runs.find((r) => r.label === select.value);
        if (run && run.decisions === null) counts.textContent = " no prediction";
      }
      select.addEventListener("change", draw);
      draw();

      const legend = document.createElement("p");
      legend.className = "ebv-co-legend";
      for (const s of Object.keys(STATES)) {
        const key = text("span", "ebv-co-key", "");
        key.dataset.state = s;
        legend.append(key, text("span", null, STATES[s]));
      }

      const table = document.createElement("table");
      table.className = "ebv-co-cells";
      const head = document.createElement("tr");
      const withConfidence = cells.some((cell) => cell && typeof cell.confidence === "number");
      for (const h of ["#", "printed", "OCR reading"].concat(withConfidence ? ["OCR conf."] : [], runs.map((r) => r.label))) head.append(text("th", null, h));
      table.append(head);
      cells.forEach((cell, index) => {
        const tr = document.createElement("tr");
        const t = truth[index] || {};
        tr.append(text("td", null, String(index)), text("td", null, typeof t.printed === "string" ? t.printed : ""));
        const reading = text("td", null, typeof cell.text === "string" ? cell.text : "");
        if (t.right === false) reading.className = "ebv-co-misread";
        tr.append(reading);
        if (withConfidence) tr.append(text("td", null, confidenceText(cell.confidence)));
        for (const run of runs) {
          const entry = run.decisions ? run.decisions[index] : null;
          const decision = decisionOf(entry);
          const td = text("td", null, decision ? decision + (entry && typeof entry.confidence === "number" ? " " + confidenceText(entry.confidence) : "") : "");
          const s = state(index, run.label);
          if (s) td.dataset.state = s;
          tr.append(td);
        }
        table.append(tr);
      });

      // The costly errors first, then every cell folded away (a table holds up to ~100 cells).
      const costly = [];
      for (const run of runs) {
        cells.forEach((cell, index) => {
          if (state(index, run.label) === "accepted-wrong") {
            const t = truth[index] || {};
            costly.push(run.label + ": cell " + index + " accepted as \u201c" + String(cell.text) + "\u201d, printed \u201c" + (typeof t.printed === "string" ? t.printed : "?") + "\u201d");
          }
        });
      }
      const wrongList = document.createElement("ul");
      wrongList.className = "ebv-co-wrong";
      for (const line of costly) wrongList.append(text("li", null, line));
      const details = document.createElement("details");
      details.append(text("summary", null, "every cell (" + cells.length + ")"), table);
      root.append(controls, stage, legend);
      if (costly.length) root.append(text("p", "ebv-co-note", "accepted misreadings:"), wrongList);
      root.append(details);
      element.append(root);
    },
  };
})();
