// Viewer "json": a readable structural diff of the answer and each run's prediction.
//
// Contract for every viewer (core's and plugins'): a script registered through the
// `envirobench_viewers` hook sets `EnviroBench.viewers[name] = {render(element, item, context)}`.
//   item    {id, category, input, answer, assets: [paths], runs: [{label, run_id, prediction,
//            errors: {profile: [[...error]] | null}}]}  (prediction is null when a run has none)
//   context {assetUrl(path) -> "report-assets/..." or null, profile (the selected one), profiles,
//            runs (labels), colors: {answer, <label>: css colour}, el(tag, attrs, ...children),
//            runSection(class, label) -> <section data-run=label> headed by the label in its colour,
//            caseImage(stage, holder, prefix, item, onLoad) -> the case's <img> in stage, or null}
// All text goes in via textContent, never innerHTML, so dataset and adapter strings cannot
// inject markup; URLs for images come from context.assetUrl only.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const LIMIT = 200;

  function isObject(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }
  function keyPath(path, key) {
    return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? path + "." + key : path + "[" + JSON.stringify(key) + "]";
  }
  function equal(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  // Differences between answer `a` and prediction `b`: [{path, kind, answer, prediction}].
  function diff(a, b, path, out) {
    if (Array.isArray(a) && Array.isArray(b)) {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        const p = path + "[" + i + "]";
        if (i >= b.length) out.push({ path: p, kind: "missing", answer: a[i] });
        else if (i >= a.length) out.push({ path: p, kind: "extra", prediction: b[i] });
        else diff(a[i], b[i], p, out);
      }
    } else if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) {
        const p = keyPath(path, key);
        if (!Object.prototype.hasOwnProperty.call(b, key)) out.push({ path: p, kind: "missing", answer: a[key] });
        else diff(a[key], b[key], p, out);
      }
      for (const key of Object.keys(b)) {
        if (!Object.prototype.hasOwnProperty.call(a, key)) out.push({ path: keyPath(path, key), kind: "extra", prediction: b[key] });
      }
    } else if (!equal(a, b)) {
      out.push({ path: path, kind: "changed", answer: a, prediction: b });
    }
    return out;
  }
  EB.jsonDiff = (a, b) => diff(a, b, "$", []);

  function show(value) {
    return value === undefined ? "" : JSON.stringify(value);
  }
  // The report's element maker (context.el, report.js): it runs after this script has loaded.
  const text = (tag, cls, value) => EB.el(tag, { class: cls, text: value });
  function collapsible(title, value, open) {
    const box = document.createElement("details");
    if (open) box.open = true;
    box.append(text("summary", null, title), text("pre", "eb-json-pre", JSON.stringify(value, null, 2)));
    return box;
  }

  EB.viewers["json"] = {
    render(element, item, context) {
      const root = document.createElement("div");
      root.className = "eb-json";
      root.append(collapsible("input", item.input, false), collapsible("answer", item.answer, true));
      for (const run of item.runs || []) {
        const section = context.runSection("eb-json-run", run.label);
        if (run.prediction === null || run.prediction === undefined) {
          section.append(text("p", "eb-json-none", "no prediction"));
        } else {
          const changes = diff(item.answer, run.prediction, "$", []);
          if (!changes.length) {
            section.append(text("p", "eb-json-same", "identical to the answer"));
          } else {
            const table = document.createElement("table");
            table.className = "eb-json-diff";
            const head = document.createElement("tr");
            for (const h of ["where", "", "answer", "prediction"]) head.append(text("th", null, h));
            table.append(head);
            for (const change of changes.slice(0, LIMIT)) {
              const tr = document.createElement("tr");
              tr.className = "eb-json-" + change.kind;
              tr.append(
                text("td", "eb-json-path", change.path),
                text("td", "eb-json-kind", change.kind),
                text("td", "eb-json-answer", show(change.answer)),
                text("td", "eb-json-prediction", show(change.prediction))
              );
              table.append(tr);
            }
            section.append(text("p", "eb-json-count", changes.length + " difference(s) from the answer"), table);
            if (changes.length > LIMIT) section.append(text("p", "eb-json-count", "… and " + (changes.length - LIMIT) + " more"));
          }
          section.append(collapsible("prediction", run.prediction, false));
        }
        root.append(section);
      }
      element.append(root);
    },
  };
})();
