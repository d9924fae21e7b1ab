// Viewer "page-strip": a document's pages as a strip of numbered boxes, the answer's pages and
// each run's marked on it. (The viewer contract is described in core's json.js.)
//
// document-split: reads {pages, first_pages, kinds} from the answer and {first_pages} from each
// prediction; every document is a run of boxes under its kind, and each run's strip marks the
// first pages it got right, missed and claimed falsely (page 1 is not scored and not marked).
// page-locate: reads {document_pages, pages, near_misses} from the answer, {question} from the
// input and {pages} from each prediction; the strip marks the answer's pages, the near misses,
// and each run's right, missed and extra pages. Long documents show the pages around every
// marked page and fold the rest into "...". Not thumbnails of the pages themselves: the
// datasets ship PDFs, and a report shows only image files.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const CONTEXT = 2; // pages shown either side of a marked page in a long document
  const SHORT = 40; // documents up to this many pages are shown whole

  function text(tag, cls, value) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    node.textContent = value;
    return node;
  }
  function pages(value) {
    return new Set(Array.isArray(value) ? value.filter((v) => Number.isInteger(v) && v >= 1) : []);
  }
  // The page numbers to draw: all of them, or those near a marked page, with null for a gap.
  function shown(total, marked) {
    if (total <= SHORT) return Array.from({ length: total }, (_, i) => i + 1);
    const keep = new Set([1, total]);
    for (const page of marked) for (let p = page - CONTEXT; p <= page + CONTEXT; p++) if (p >= 1 && p <= total) keep.add(p);
    const out = [];
    let last = 0;
    for (const p of Array.from(keep).sort((a, b) => a - b)) {
      if (p > last + 1) out.push(null);
      out.push(p);
      last = p;
    }
    return out;
  }
  function strip(order, state, title) {
    const row = document.createElement("div");
    row.className = "ebl-ps-strip";
    for (const page of order) {
      if (page === null) {
        row.append(text("span", "ebl-ps-gap", "..."));
        continue;
      }
      const box = text("span", "ebl-ps-page", String(page));
      const s = state(page);
      if (s) box.dataset.state = s;
      box.title = title(page, s);
      row.append(box);
    }
    return row;
  }
  function legend(items) {
    const box = document.createElement("p");
    box.className = "ebl-ps-legend";
    for (const [state, label] of items) {
      const key = text("span", "ebl-ps-page", "");
      key.dataset.state = state;
      box.append(key, text("span", null, label));
    }
    return box;
  }

  EB.viewers["page-strip"] = {
    render(element, item, context) {
      const colors = (context && context.colors) || {};
      const input = item.input && typeof item.input === "object" ? item.input : {};
      const answer = item.answer && typeof item.answer === "object" ? item.answer : {};
      const split = Array.isArray(answer.first_pages);
      const total = Number(split ? answer.pages : answer.document_pages) || 0;
      const truth = pages(split ? answer.first_pages : answer.pages);
      if (split) truth.delete(1); // page 1 always starts a document: not scored
      const near = pages(answer.near_misses);
      const runs = (item.runs || []).map((run) => {
        const prediction = run.prediction && typeof run.prediction === "object" ? run.prediction : null;
        const predicted = prediction ? pages(split ? prediction.first_pages : prediction.pages) : null;
        if (predicted && split) predicted.delete(1);
        return { label: run.label, predicted };
      });
      const marked = new Set([...truth, ...near]);
      for (const run of runs) if (run.predicted) for (const p of run.predicted) if (p <= total) marked.add(p);
      const order = shown(total, marked);

      const root = document.createElement("div");
      root.className = "ebl-ps";
      if (input.question) root.append(text("p", "ebl-ps-question", String(input.question)));
      root.append(text("h4", null, split ? "answer: first pages of documents" : "answer: pages stating the fact"));
      const first = pages(answer.first_pages);
      const kinds = Array.isArray(answer.kinds) ? answer.kinds : [];
      const starts = Array.from(first).sort((a, b) => a - b);
      root.append(
        strip(
          order,
          (p) => (split ? (first.has(p) ? "start" : null) : truth.has(p) ? "answer" : near.has(p) ? "near" : null),
          (p, s) => {
            if (!split) return "page " + p + (s === "answer" ? ": states the fact" : s === "near" ? ": near miss" : "");
            const index = starts.filter((q) => q <= p).length - 1;
            return "page " + p + (index >= 0 && kinds[index] ? ": " + kinds[index] : "") + (s ? " (first page)" : "");
          },
        ),
      );
      for (const run of runs) {
        const title = text("h4", null, run.label);
        if (colors[run.label]) title.style.borderLeftColor = colors[run.label];
        root.append(title);
        if (run.predicted === null) {
          root.append(text("p", "ebl-ps-note", "no prediction"));
          continue;
        }
        root.append(
          strip(
            order,
            (p) => (truth.has(p) ? (run.predicted.has(p) ? "right" : "missed") : run.predicted.has(p) ? "extra" : null),
            (p, s) => "page " + p + (s ? ": " + s : ""),
          ),
        );
        const beyond = Array.from(run.predicted).filter((p) => p > total);
        if (beyond.length) root.append(text("p", "ebl-ps-note", "pages past the end: " + beyond.join(", ")));
      }
      root.append(
        legend(
          split
            ? [["start", "first page"], ["right", "right"], ["missed", "missed"], ["extra", "false"]]
            : [["answer", "states the fact"], ["near", "near miss"], ["right", "right"], ["missed", "missed"], ["extra", "extra"]],
        ),
      );
      element.append(root);
    },
  };
})();
