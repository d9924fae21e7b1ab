// Viewer for monitoring well IDs: the case's text, then one row per well with a mark for the
// answer and for each compared run's prediction.
//
// The contract (see envirobench's viewers/json.js): set EnviroBench.viewers[name] to
// {render(element, item, context)}; item = {id, category, input, answer, assets, runs: [{label,
// run_id, prediction, errors}]}. Text goes in through textContent only, never innerHTML.
// The template renders its viewer name (the file's name too) when the project is made.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};

  function node(tag, cls, text) {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== undefined) el.textContent = text;
    return el;
  }
  function wells(value) {
    return value && Array.isArray(value.wells) ? value.wells.map(String) : [];
  }

  EB.viewers["{{ cookiecutter.viewer_name }}"] = {
    render(element, item, context) {
      const colors = (context && context.colors) || {};
      const text = item.input && typeof item.input.text === "string" ? item.input.text : "";
      element.append(node("pre", "wl-text", text));

      const columns = [{ label: "answer", values: new Set(wells(item.answer)), color: colors.answer }];
      for (const run of item.runs || []) {
        columns.push({ label: run.label, values: run.prediction === null ? null : new Set(wells(run.prediction)), color: colors[run.label] });
      }
      const all = new Set();
      for (const column of columns) if (column.values) column.values.forEach((w) => all.add(w));

      const table = node("table", "wl-table");
      const head = node("tr");
      head.append(node("th", null, "well"));
      for (const column of columns) {
        const th = node("th", null, column.label);
        if (column.color) th.style.borderBottom = "3px solid " + column.color;
        head.append(th);
      }
      table.append(head);
      const gold = columns[0].values;
      for (const well of Array.from(all).sort()) {
        const tr = node("tr", gold.has(well) ? "wl-gold" : "wl-extra");
        tr.append(node("td", "wl-id", well));
        for (const column of columns) {
          if (column.values === null) tr.append(node("td", "wl-none", "–"));
          else if (column.values.has(well)) tr.append(node("td", gold.has(well) ? "wl-hit" : "wl-wrong", "✓"));
          else tr.append(node("td", gold.has(well) ? "wl-miss" : "wl-none", gold.has(well) ? "missed" : ""));
        }
        table.append(tr);
      }
      if (!all.size) element.append(node("p", "wl-empty", "no wells in the answer or any prediction"));
      else element.append(table);
    },
  };
})();
