// Viewer "page-strip": a document's pages as a strip of page thumbnails, the answer's pages and
// each run's marked on them. (The viewer contract is described in core's json.js.)
//
// document-split: reads {pages, first_pages, kinds} from the answer and {first_pages} from each
// prediction; every first page is framed and captioned with its document's kind, and each run
// puts a badge under the first pages it got right, missed and claimed falsely (page 1 is not
// scored and gets none).
// page-locate: reads {document_pages, pages, near_misses} from the answer, {question} from the
// input and {pages} from each prediction; the answer's pages and the near misses are framed,
// and each run puts a badge under its right, missed and extra pages.
//
// The thumbnails are the input's `thumbnails` (one image per page, page 1 first), each used only
// when it is among the case's assets that core copied into report-assets/ (context.assetUrl
// gives its URL; nothing else becomes a URL). An <img loading="lazy"> is made only for the pages
// shown: long documents show the pages around every marked page and fold the rest into a gap
// that says how many pages it hides and shows them when clicked. A case without thumbnails (a
// dataset made before them, or a report rewritten without its images) gets the same marks on
// numbered boxes, one strip for the answer and one per run.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const CONTEXT = 2; // pages shown either side of a marked page in a long document
  const SHORT = 40; // documents up to this many pages are shown whole
  // The thumbnails' size (envirobench_synth.locate.thumbnails: 120 pixels wide, a letter page);
  // given to <img> so the strip keeps its layout while lazy images load.
  const THUMB_W = 120;
  const THUMB_H = 156;

  // The report's element maker (context.el, report.js): it runs after this script has loaded.
  const text = (tag, cls, value) => EB.el(tag, { class: cls, text: value });
  function pages(value) {
    return new Set(Array.isArray(value) ? value.filter((v) => Number.isInteger(v) && v >= 1) : []);
  }
  // The page numbers to draw: all of them, or those near a marked page, with {gap: n, from} for
  // n >= 2 pages folded away (from, from + 1, ...).
  function shown(total, marked) {
    if (total <= SHORT) return Array.from({ length: total }, (_, i) => i + 1);
    const keep = new Set([1, total]);
    for (const page of marked) for (let p = page - CONTEXT; p <= page + CONTEXT; p++) if (p >= 1 && p <= total) keep.add(p);
    const out = [];
    let last = 0;
    for (const p of Array.from(keep).sort((a, b) => a - b)) {
      if (p === last + 2) out.push(last + 1); // a gap would take the room of the page it hides
      else if (p > last + 2) out.push({ gap: p - last - 1, from: last + 1 });
      out.push(p);
      last = p;
    }
    return out;
  }
  function gapLabel(entry) {
    return "\u2026 " + entry.gap + " pages \u2026";
  }
  // Page -> URL of its thumbnail in report-assets/, or null.
  function thumbnails(item, input, context) {
    const listed = new Set(Array.isArray(item.assets) ? item.assets : []);
    const paths = Array.isArray(input.thumbnails) ? input.thumbnails : [];
    const assetUrl = context && typeof context.assetUrl === "function" ? context.assetUrl : null;
    return (page) => {
      const path = paths[page - 1];
      return assetUrl && typeof path === "string" && listed.has(path) ? assetUrl(path) : null;
    };
  }

  // Without thumbnails: a strip of numbered boxes.
  function strip(order, state, title) {
    const row = document.createElement("div");
    row.className = "ebl-ps-strip";
    for (const page of order) {
      if (typeof page !== "number") {
        row.append(text("span", "ebl-ps-gap", gapLabel(page)));
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
  function legend(items, cls) {
    const box = document.createElement("p");
    box.className = "ebl-ps-legend";
    for (const [state, label] of items) {
      const key = text("span", cls, "");
      key.dataset.state = state;
      box.append(key, text("span", null, label));
    }
    return box;
  }

  // With thumbnails: one card per page (the image framed by the answer's mark, the page number,
  // then one badge per run, in the order of the runs' key).
  function card(page, url, mark, caption, badges) {
    const box = document.createElement("figure");
    box.className = "ebl-ps-card";
    box.dataset.page = String(page);
    if (mark.state) box.dataset.state = mark.state;
    box.title = mark.title;
    if (url) {
      const img = document.createElement("img");
      img.loading = "lazy"; // before src, or the browser starts loading at once
      img.decoding = "async";
      img.width = THUMB_W;
      img.height = THUMB_H;
      img.alt = "page " + page;
      img.src = url;
      box.append(img);
    } else {
      box.append(text("span", "ebl-ps-blank", String(page)));
    }
    box.append(text("figcaption", null, caption));
    for (const badge of badges) {
      const node = text("span", "ebl-ps-badge", badge.state ? badge.word : "\u00a0");
      if (badge.state) {
        node.dataset.state = badge.state;
        node.title = badge.title;
        if (badge.color) node.style.borderLeftColor = badge.color;
      }
      box.append(node);
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
        return { label: run.label, color: colors[run.label] || null, predicted };
      });
      const marked = new Set([...truth, ...near]);
      for (const run of runs) if (run.predicted) for (const p of run.predicted) if (p <= total) marked.add(p);
      const order = shown(total, marked);

      const first = pages(answer.first_pages);
      const kinds = Array.isArray(answer.kinds) ? answer.kinds : [];
      const starts = Array.from(first).sort((a, b) => a - b);
      const kindOf = (p) => {
        const index = starts.filter((q) => q <= p).length - 1;
        return index >= 0 && typeof kinds[index] === "string" ? kinds[index] : null;
      };
      const answerState = (p) => (split ? (first.has(p) ? "start" : null) : truth.has(p) ? "answer" : near.has(p) ? "near" : null);
      const answerTitle = (p, s) => {
        if (!split) return "page " + p + (s === "answer" ? ": states the fact" : s === "near" ? ": near miss" : "");
        const kind = kindOf(p);
        return "page " + p + (kind ? ": " + kind : "") + (s ? " (first page)" : "");
      };
      const runState = (run, p) => (truth.has(p) ? (run.predicted.has(p) ? "right" : "missed") : run.predicted.has(p) ? "extra" : null);
      const words = { right: "right", missed: "missed", extra: split ? "false" : "extra" };

      const root = document.createElement("div");
      root.className = "ebl-ps";
      if (input.question) root.append(text("p", "ebl-ps-question", String(input.question)));
      const thumb = thumbnails(item, input, context);
      const withImages = order.some((p) => typeof p === "number" && thumb(p) !== null);

      if (withImages) {
        root.dataset.thumbnails = "1";
        root.append(text("h4", null, split ? "answer: first pages of documents (framed)" : "answer: pages stating the fact (framed)"));
        if (runs.length) {
          const key = document.createElement("p");
          key.className = "ebl-ps-runs";
          key.append(text("span", null, "badges under each page, top to bottom:"));
          for (const run of runs) {
            const name = text("span", "ebl-ps-run", run.label + (run.predicted === null ? " (no prediction)" : ""));
            if (run.color) name.style.borderLeftColor = run.color;
            key.append(name);
          }
          root.append(key);
        }
        const pageCard = (page) => {
          const s = answerState(page);
          const caption = split && s === "start" && kindOf(page) ? page + " \u00b7 " + kindOf(page) : String(page);
          const badges = runs.map((run) => {
            const state = run.predicted ? runState(run, page) : null;
            return { state, word: state ? words[state] : "", title: run.label + ": page " + page + " " + (state ? words[state] : ""), color: run.color };
          });
          return card(page, thumb(page), { state: s, title: answerTitle(page, s) }, caption, badges);
        };
        const row = document.createElement("div");
        row.className = "ebl-ps-strip ebl-ps-thumbs";
        for (const page of order) {
          if (typeof page === "number") {
            row.append(pageCard(page));
            continue;
          }
          // A folded gap opens on a click: its pages' cards (and lazy images) are made only then.
          const button = text("button", "ebl-ps-gap", gapLabel(page));
          button.type = "button";
          button.title = "show pages " + page.from + "\u2013" + (page.from + page.gap - 1);
          button.addEventListener("click", () => {
            button.replaceWith(...Array.from({ length: page.gap }, (_, i) => pageCard(page.from + i)));
          });
          row.append(button);
        }
        root.append(row);
        for (const run of runs) {
          const beyond = run.predicted ? Array.from(run.predicted).filter((p) => p > total) : [];
          if (beyond.length) root.append(text("p", "ebl-ps-note", run.label + ": pages past the end: " + beyond.join(", ")));
        }
        root.append(legend(split ? [["start", "first page"]] : [["answer", "states the fact"], ["near", "near miss"]], "ebl-ps-frame"));
        root.append(legend([["right", "right"], ["missed", "missed"], ["extra", split ? "false" : "extra"]], "ebl-ps-badge"));
        element.append(root);
        return;
      }

      root.append(text("h4", null, split ? "answer: first pages of documents" : "answer: pages stating the fact"));
      root.append(strip(order, answerState, answerTitle));
      for (const run of runs) {
        const title = text("h4", null, run.label);
        if (run.color) title.style.borderLeftColor = run.color;
        root.append(title);
        if (run.predicted === null) {
          root.append(text("p", "ebl-ps-note", "no prediction"));
          continue;
        }
        root.append(
          strip(
            order,
            (p) => runState(run, p),
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
          "ebl-ps-page",
        ),
      );
      element.append(root);
    },
  };
})();
