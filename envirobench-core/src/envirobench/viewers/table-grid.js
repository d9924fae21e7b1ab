// Viewer "table-grid": the answer's table and each run's, cell by cell, with wrong cells marked.
// (The viewer contract is described in json.js.)
//
// Cells are read from `value.cells` (or `grid`, `table`, `rows` when those hold a table):
//   a grid, [[cell, ...], ...] row by row, or
//   a list of {row, column | col, text | value | content} objects.
// A cell is its text (numbers and other scalars are shown as text; objects as JSON). In each run's
// table a cell that differs from the answer's cell at the same position is marked wrong, a cell
// the answer does not have is marked extra, and a cell of the answer the run lacks is missing.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const MAX_CELLS = 20000;

  function cellText(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "object") {
      if (!Array.isArray(v)) for (const k of ["text", "value", "content"]) if (k in v) return cellText(v[k]);
      return JSON.stringify(v);
    }
    return String(v);
  }
  function isGrid(v) {
    return Array.isArray(v) && v.length > 0 && v.every((row) => Array.isArray(row));
  }
  function isCellList(v) {
    return Array.isArray(v) && v.length > 0 && v.every((c) => c && typeof c === "object" && !Array.isArray(c) && typeof c.row === "number" && (typeof c.column === "number" || typeof c.col === "number"));
  }
  // value -> [[text, ...], ...] (rows may differ in length) or null when it holds no table.
  function grid(value) {
    if (isGrid(value)) return value.map((row) => row.map(cellText));
    if (!value || typeof value !== "object") return null;
    for (const key of ["cells", "grid", "table", "rows"]) {
      const v = value[key];
      if (isGrid(v)) return v.map((row) => row.map(cellText));
      if (isCellList(v)) {
        const out = [];
        for (const c of v) {
          const r = c.row, k = typeof c.column === "number" ? c.column : c.col;
          if (r < 0 || k < 0 || r > 10000 || k > 10000) continue;
          while (out.length <= r) out.push([]);
          while (out[r].length <= k) out[r].push(undefined);
          out[r][k] = cellText(c);
        }
        return out.map((row) => row.map((t) => (t === undefined ? "" : t)));
      }
    }
    return null;
  }
  EB.tableGrid = grid;

  // The report's element maker (context.el, report.js): it runs after this script has loaded.
  const text = (tag, cls, value) => EB.el(tag, { class: cls, text: value });

  function renderTable(cells, answer) {
    const table = document.createElement("table");
    table.className = "eb-grid";
    let wrong = 0, total = 0;
    const rows = Math.max(cells.length, answer ? answer.length : 0);
    for (let r = 0; r < rows && total < MAX_CELLS; r++) {
      const tr = document.createElement("tr");
      const mine = cells[r] || [];
      const gold = answer ? answer[r] || [] : [];
      const cols = Math.max(mine.length, answer ? gold.length : 0);
      for (let c = 0; c < cols; c++, total++) {
        const td = document.createElement("td");
        td.dataset.row = r;
        td.dataset.col = c;
        if (c < mine.length) td.textContent = mine[c];
        if (answer) {
          if (c >= mine.length) { td.className = "eb-cell-missing"; td.title = "missing; answer: " + gold[c]; wrong++; }
          else if (c >= gold.length) { td.className = "eb-cell-extra"; td.title = "not in the answer"; wrong++; }
          else if (mine[c] !== gold[c]) { td.className = "eb-cell-wrong"; td.title = "answer: " + gold[c]; wrong++; }
        }
        tr.append(td);
      }
      table.append(tr);
    }
    return { table: table, wrong: wrong };
  }

  EB.viewers["table-grid"] = {
    render(element, item, context) {
      const root = document.createElement("div");
      root.className = "eb-grids";
      const answer = grid(item.answer);
      const block = (label, value, compare) => {
        const box = context.runSection("eb-grid-block", label);
        if (value === null || value === undefined) {
          box.append(text("p", "eb-grid-note", "no prediction"));
          return box;
        }
        const cells = grid(value);
        if (!cells) {
          box.append(text("p", "eb-grid-note", "no table cells in this value"), text("pre", "eb-grid-raw", JSON.stringify(value, null, 2)));
          return box;
        }
        const out = renderTable(cells, compare);
        if (compare) box.append(text("p", "eb-grid-note", out.wrong ? out.wrong + " cell(s) differ from the answer" : "every cell matches the answer"));
        box.append(out.table);
        return box;
      };
      root.append(block("answer", item.answer, null));
      for (const run of item.runs || []) root.append(block(run.label, run.prediction, answer));
      element.append(root);
    },
  };
})();
