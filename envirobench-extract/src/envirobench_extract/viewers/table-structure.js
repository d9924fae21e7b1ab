// Viewer "table-structure": a table's cell grid, drawn for the answer and each run with its
// merged cells, beside the case image. (The viewer contract is described in core's json.js.)
//
// Reads {rows, columns, header_rows, cells: [{row, column, row_span, column_span}]} from the
// answer and each prediction. Each cell is labelled with its position and, when it spans, its
// extent; header rows are shaded. In a run's grid a cell that is not a gold cell (same position,
// same spans) is marked wrong, and a header-row count that differs is noted.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const MAX_POSITIONS = 20000;

  function whole(v) {
    return typeof v === "number" && Number.isInteger(v);
  }
  // value -> {rows, columns, headerRows, cells} or null when it is not a grid.
  function readGrid(value) {
    if (!value || typeof value !== "object" || !Array.isArray(value.cells)) return null;
    const rows = value.rows, columns = value.columns;
    if (!whole(rows) || !whole(columns) || rows < 1 || columns < 1 || rows * columns > MAX_POSITIONS) return null;
    const cells = [];
    for (const c of value.cells) {
      if (!c || !whole(c.row) || !whole(c.column)) continue;
      const rowSpan = whole(c.row_span) && c.row_span > 0 ? c.row_span : 1;
      const colSpan = whole(c.column_span) && c.column_span > 0 ? c.column_span : 1;
      if (c.row < 0 || c.column < 0 || c.row >= rows || c.column >= columns) continue;
      cells.push({ row: c.row, column: c.column, rowSpan: Math.min(rowSpan, rows - c.row), colSpan: Math.min(colSpan, columns - c.column) });
    }
    cells.sort((a, b) => a.row - b.row || a.column - b.column);
    return { rows: rows, columns: columns, headerRows: whole(value.header_rows) ? value.header_rows : 0, cells: cells };
  }
  EB.tableStructureGrid = readGrid;

  function key(c) {
    return c.row + "," + c.column + "," + c.rowSpan + "," + c.colSpan;
  }
  // The report's element maker (context.el, report.js): it runs after this script has loaded.
  const text = (tag, cls, value) => EB.el(tag, { class: cls, text: value });

  // An HTML table with the grid's spans; `gold` (a Set of cell keys) marks cells not in it.
  function drawGrid(grid, gold) {
    const table = document.createElement("table");
    table.className = "ebx-ts-grid";
    const covered = new Set();
    const byRow = new Map();
    for (const c of grid.cells) {
      if (!byRow.has(c.row)) byRow.set(c.row, []);
      byRow.get(c.row).push(c);
    }
    let wrong = 0;
    for (let r = 0; r < grid.rows; r++) {
      const tr = document.createElement("tr");
      if (r < grid.headerRows) tr.className = "ebx-ts-header";
      for (const c of byRow.get(r) || []) {
        if (covered.has(r + "," + c.column)) continue; // overlapping input: draw the first only
        for (let i = c.row; i < c.row + c.rowSpan; i++) for (let j = c.column; j < c.column + c.colSpan; j++) covered.add(i + "," + j);
        const td = document.createElement(r < grid.headerRows ? "th" : "td");
        td.rowSpan = c.rowSpan;
        td.colSpan = c.colSpan;
        td.dataset.row = c.row;
        td.dataset.col = c.column;
        td.textContent = c.row + "," + c.column;
        if (c.rowSpan > 1 || c.colSpan > 1) td.append(text("span", "ebx-ts-span", " " + c.rowSpan + "\u00d7" + c.colSpan));
        if (gold && !gold.has(key(c))) {
          td.classList.add("ebx-ts-wrong");
          td.title = "not a cell of the answer";
          wrong++;
        }
        tr.append(td);
      }
      table.append(tr);
    }
    return { table: table, wrong: wrong };
  }

  EB.viewers["table-structure"] = {
    render(element, item, context) {
      const root = document.createElement("div");
      root.className = "ebx-ts";
      // The case image, when it is in report-assets/; a case without one shows only the grids.
      const figure = EB.el("figure", { class: "ebx-ts-image" });
      if (context.caseImage(figure, root, "ebx-ts", item)) root.append(figure);
      const answer = readGrid(item.answer);
      const gold = answer ? new Set(answer.cells.map(key)) : null;
      const blocks = document.createElement("div");
      blocks.className = "ebx-ts-blocks";
      const block = (label, value, compare) => {
        const box = context.runSection("ebx-ts-block", label);
        if (value === null || value === undefined) {
          box.append(text("p", "ebx-ts-note", "no prediction"));
          return box;
        }
        const grid = readGrid(value);
        if (!grid) {
          box.append(text("p", "ebx-ts-note", "not a cell grid"), text("pre", "ebx-ts-raw", JSON.stringify(value, null, 2)));
          return box;
        }
        const shape = grid.rows + " rows \u00d7 " + grid.columns + " columns, " + grid.headerRows + " header row(s)";
        const notes = [shape];
        const out = drawGrid(grid, compare ? gold : null);
        if (compare && answer) {
          notes.push(out.wrong ? out.wrong + " cell(s) not in the answer" : "every cell is a cell of the answer");
          if (grid.headerRows !== answer.headerRows) notes.push("header rows differ from the answer's " + answer.headerRows);
        }
        box.append(text("p", "ebx-ts-note", notes.join("; ")), out.table);
        return box;
      };
      blocks.append(block("answer", item.answer, false));
      for (const run of item.runs || []) blocks.append(block(run.label, run.prediction, true));
      root.append(blocks);
      element.append(root);
    },
  };
})();
