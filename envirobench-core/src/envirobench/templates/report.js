// EnviroBench report: the case list. Data comes from <script type="application/json"> blocks;
// every string from a dataset or an adapter goes into the page through textContent (never
// innerHTML), so it shows as text whatever it contains.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const PAGE = 200;
  const data = JSON.parse(document.getElementById("eb-data").textContent);
  const cases = data.cases; // [id, category index, [bucket index per profile], errors | 0, [asset index]]
  const assetSet = new Set(data.assets);
  const chunks = new Map();

  // -- small DOM helpers ----------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const [key, value] of Object.entries(attrs)) {
        if (value === undefined || value === null || value === false) continue;
        if (key === "class") node.className = value;
        else if (key === "text") node.textContent = value;
        else node.setAttribute(key, value === true ? "" : String(value));
      }
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  EB.el = el;

  // -- case data (see envirobench/report.py): blocks of CHUNK cases, base64 of gzip of JSON ------
  function setKey(obj, key, value) {
    // defineProperty: a profile named "__proto__" stays an ordinary property.
    Object.defineProperty(obj, key, { value: value, enumerable: true, writable: true, configurable: true });
  }
  function parsed() {
    return document.readyState === "loading"
      ? new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }))
      : Promise.resolve();
  }
  async function loadChunk(k) {
    let node = document.getElementById("eb-cases-" + k);
    if (!node) {
      await parsed(); // the blocks follow the script: wait until the parser has reached them
      node = document.getElementById("eb-cases-" + k);
    }
    if (!node) throw new Error("this case's data is missing from the report");
    if (typeof DecompressionStream !== "function") throw new Error("this browser cannot decompress the case data (DecompressionStream is missing)");
    const binary = atob(node.textContent.trim());
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }
  function chunk(k) {
    if (!chunks.has(k)) chunks.set(k, loadChunk(k));
    return chunks.get(k);
  }
  function errorText(e) {
    return e.map((part) => (part === null ? "null" : String(part))).join(" ");
  }
  function caseErrors(row, r, p) {
    // null: not scored; otherwise a list of error arrays
    if (row[3] === 0) return [];
    const ids = row[3][r][p];
    return ids === null ? null : ids.map((i) => data.errors[i]);
  }
  // The item handed to viewers: {id, category, input, answer, runs: [{label, run_id, prediction, errors}], assets}
  async function item(n) {
    const row = cases[n];
    const block = await chunk(Math.floor(n / data.chunk));
    const [input, answer, refs] = block[n % data.chunk];
    const predictions = [];
    refs.forEach((p) => {
      if (p === null) predictions.push(null);
      else if (p === -1) predictions.push(answer);
      else if (typeof p === "number") predictions.push(predictions[p]);
      else predictions.push(p[0]);
    });
    return {
      id: row[0],
      category: data.categories[row[1]],
      input: input,
      answer: answer,
      runs: data.runs.map((label, r) => {
        const errors = {};
        data.profiles.forEach((profile, p) => setKey(errors, profile, caseErrors(row, r, p)));
        return { label: label, run_id: data.run_ids[r], prediction: predictions[r], errors: errors };
      }),
      assets: row[4].map((i) => data.assets[i]),
    };
  }
  function assetUrl(path) {
    // Only images copied into report-assets/ by core; anything else (absolute, remote, "..") is refused.
    if (typeof path !== "string" || !assetSet.has(path)) return null;
    return data.assets_dir + "/" + path.split("/").map(encodeURIComponent).join("/");
  }

  // -- state -----------------------------------------------------------------------------------
  const controls = {
    profile: document.getElementById("eb-profile"),
    bucket: document.getElementById("eb-bucket"),
    category: document.getElementById("eb-category"),
    q: document.getElementById("eb-search"),
    sort: document.getElementById("eb-sort"),
  };
  const list = document.getElementById("eb-list");
  const more = document.getElementById("eb-more");
  const count = document.getElementById("eb-count");
  const defaultProfile = data.gated.length ? data.gated[0] : data.profiles[0];
  const state = { profile: defaultProfile, bucket: "", category: "", q: "", sort: "" };
  const candidateIndex = data.runs.indexOf("candidate");
  const baselineIndex = data.runs.indexOf("baseline");
  // The orders of the Sort control besides the default (bucket, then category): a key per case,
  // the highest first; ties keep the dataset's order.
  function errorCount(row, r, p) {
    const errors = r < 0 ? null : caseErrors(row, r, p);
    return errors === null ? -1 : errors.length;
  }
  const SORTS = [
    ["errors", "most errors first", (n, p) => errorCount(cases[n], candidateIndex, p)],
  ];
  if (baselineIndex >= 0) SORTS.push(["change", "most errors gained on the baseline first", (n, p) => errorCount(cases[n], candidateIndex, p) - errorCount(cases[n], baselineIndex, p)]);
  if (data.cost) SORTS.push(["cost", "highest cost first", (n) => (data.cost[n] === null ? -Infinity : data.cost[n])]);
  if (data.wall) SORTS.push(["wall", "longest wall time first", (n) => (data.wall[n] === null ? -Infinity : data.wall[n])]);
  SORTS.push(["id", "case ID", null]);
  function sorted(order, p) {
    const sort = SORTS.find((s) => s[0] === state.sort);
    if (!sort) return order;
    if (sort[0] === "id") return order.slice().sort((a, b) => (cases[a][0] < cases[b][0] ? -1 : cases[a][0] > cases[b][0] ? 1 : 0));
    const key = sort[2];
    const keys = new Map(order.map((n) => [n, key(n, p)]));
    return order.slice().sort((a, b) => keys.get(b) - keys.get(a) || a - b);
  }
  const orderCache = new Map();
  let filtered = [];
  let shown = 0;
  let lastGroup = null;

  function profileIndex() {
    return Math.max(0, data.profiles.indexOf(state.profile));
  }
  // Cases grouped by bucket (in the fixed order), then category, then dataset order.
  function grouped(p) {
    if (!orderCache.has(p)) {
      const nb = data.buckets.length + 1;
      const order = Array.from(cases.keys());
      const bucketKey = (n) => (cases[n][2][p] < 0 ? nb : cases[n][2][p]);
      order.sort((a, b) => bucketKey(a) - bucketKey(b) || cases[a][1] - cases[b][1] || a - b);
      orderCache.set(p, order);
    }
    return orderCache.get(p);
  }
  function bucketName(row, p) {
    const b = row[2][p];
    return b < 0 ? "unavailable" : data.buckets[b];
  }

  function fillSelect(select, options, value) {
    select.replaceChildren(...options.map(([v, label]) => el("option", { value: v, text: label })));
    select.value = value;
    if (select.value !== value) select.value = "";
  }
  function refreshOptions() {
    const p = profileIndex();
    const bucketCounts = new Map();
    const categoryCounts = new Map();
    for (const row of cases) {
      const b = bucketName(row, p);
      bucketCounts.set(b, (bucketCounts.get(b) || 0) + 1);
      categoryCounts.set(row[1], (categoryCounts.get(row[1]) || 0) + 1);
    }
    fillSelect(controls.profile, data.profiles.map((name) => [name, name + (data.gated.includes(name) ? " (gated)" : "")]), state.profile);
    const buckets = data.buckets.concat(bucketCounts.has("unavailable") ? ["unavailable"] : []);
    fillSelect(controls.bucket, [["", "all buckets (" + cases.length + ")"]].concat(buckets.map((b) => [b, b + " (" + (bucketCounts.get(b) || 0) + ")"])), state.bucket);
    fillSelect(controls.category, [["", "all categories"]].concat(data.categories.map((c, i) => [c, c + " (" + (categoryCounts.get(i) || 0) + ")"])), state.category);
    fillSelect(controls.sort, [["", "bucket, then category"]].concat(SORTS.map((s) => [s[0], s[1]])), state.sort);
    controls.q.value = state.q;
    for (const fig of document.querySelectorAll(".eb-chart")) fig.hidden = fig.dataset.profile !== state.profile;
  }

  function applyFilters() {
    const p = profileIndex();
    const category = state.category === "" ? -1 : data.categories.indexOf(state.category);
    const q = state.q.trim().toLowerCase();
    const out = [];
    for (const n of state.sort ? sorted(Array.from(cases.keys()), p) : grouped(p)) {
      const row = cases[n];
      if (state.bucket && bucketName(row, p) !== state.bucket) continue;
      if (category >= 0 ? row[1] !== category : state.category !== "") continue;
      if (q && !row[0].toLowerCase().includes(q)) continue;
      out.push(n);
    }
    filtered = out;
    shown = 0;
    lastGroup = null;
    list.replaceChildren();
    count.textContent = out.length + " of " + cases.length + " case(s) shown" + (state.bucket || state.category || q ? " (filtered)" : "");
    renderMore();
  }

  function writeHash() {
    const params = new URLSearchParams();
    if (state.profile !== defaultProfile) params.set("profile", state.profile);
    for (const key of ["bucket", "category", "sort", "q"]) if (state[key]) params.set(key, state[key]);
    const hash = params.toString();
    try {
      history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
    } catch (e) {
      /* some file:// contexts refuse history changes; the filters still work */
    }
  }
  function readHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const profile = params.get("profile");
    state.profile = profile && data.profiles.includes(profile) ? profile : defaultProfile;
    state.bucket = params.get("bucket") || "";
    state.category = params.get("category") || "";
    state.q = params.get("q") || "";
    state.sort = params.get("sort") || "";
  }

  // -- rows --------------------------------------------------------------------------------------
  function renderMore() {
    const p = profileIndex();
    const end = Math.min(filtered.length, shown + PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = shown; i < end; i++) {
      const n = filtered[i];
      const row = cases[n];
      const bucket = bucketName(row, p);
      if (state.sort) {
        fragment.append(caseRow(n, p, bucket)); // one sorted list: no group headings
        continue;
      }
      if (!lastGroup || lastGroup.bucket !== bucket) {
        fragment.append(el("h3", { class: "eb-group eb-b-" + bucket, "data-bucket": bucket, text: bucket }));
        lastGroup = { bucket: bucket, category: null };
      }
      if (lastGroup.category !== row[1]) {
        fragment.append(el("h4", { class: "eb-subgroup", "data-category": data.categories[row[1]], text: data.categories[row[1]] }));
        lastGroup.category = row[1];
      }
      fragment.append(caseRow(n, p, bucket));
    }
    shown = end;
    list.append(fragment);
    const rest = filtered.length - shown;
    more.hidden = rest <= 0;
    more.textContent = "Show " + Math.min(PAGE, rest) + " more (" + rest + " not shown)";
  }

  function caseRow(n, p, bucket) {
    const row = cases[n];
    const summary = el("summary", null,
      el("code", { class: "eb-id", text: row[0] }),
      el("span", { class: "eb-bucket eb-b-" + bucket, text: bucket }),
      el("span", { class: "eb-cat", text: data.categories[row[1]] }));
    const counts = el("span", { class: "eb-counts" });
    data.runs.forEach((label, r) => {
      const errors = caseErrors(row, r, p);
      counts.append(el("span", { class: "eb-count-run", title: label + " errors in " + state.profile },
        el("span", { class: "eb-swatch", style: "background:" + data.colors[label] }),
        label + " " + (errors === null ? "–" : errors.length)));
    });
    if (data.cost && data.cost[n] !== null) counts.append(el("span", { class: "eb-usage", title: "the candidate's cost for this case, as its adapter reported it", text: "$" + data.cost[n].toFixed(4) }));
    if (data.wall && data.wall[n] !== null) counts.append(el("span", { class: "eb-usage", title: "the candidate's wall time for this case, as its adapter reported it", text: data.wall[n].toFixed(1) + " s" }));
    if (data.trace && data.trace[n] !== null) counts.append(el("a", { class: "eb-usage eb-trace", href: "adapter/" + data.trace[n].split("/").map(encodeURIComponent).join("/"), title: "the adapter's log or trace of this case (adapter/" + data.trace[n] + ")", text: "log" }));
    summary.append(counts);
    const details = el("details", { class: "eb-case", "data-case": row[0], "data-n": n }, summary);
    details.addEventListener("toggle", () => {
      if (details.open && !details.dataset.rendered) {
        details.dataset.rendered = "1";
        details.append(caseDetail(n));
      }
    });
    return details;
  }

  // More than FOLD errors in a cell: their counts by kind (an error's first part), the list folded under them.
  const FOLD = 5;
  function folded(errors, ul) {
    const kinds = new Map();
    for (const e of errors) {
      const kind = e.length ? errorText([e[0]]) : "";
      kinds.set(kind, (kinds.get(kind) || 0) + 1);
    }
    const byKind = Array.from(kinds).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const counts = el("ul", { class: "eb-error-kinds" });
    for (const [kind, n] of byKind) counts.append(el("li", null, el("strong", { text: String(n) }), " × " + kind));
    const all = el("details", { class: "eb-error-list" }, el("summary", { text: "all " + errors.length + " errors" }), ul);
    return el("div", { class: "eb-folded" }, counts, all);
  }

  function errorsTable(row) {
    const table = el("table", { class: "eb-table eb-errors" });
    const head = el("tr", null, el("th", { text: "profile" }));
    data.runs.forEach((label) => head.append(el("th", null, el("span", { class: "eb-swatch", style: "background:" + data.colors[label] }), label)));
    table.append(el("thead", null, head));
    const body = el("tbody");
    const baseIndex = data.runs.indexOf("baseline");
    data.profiles.forEach((profile, p) => {
      const tr = el("tr", null, el("th", { text: profile + " (" + bucketName(row, p) + ")" }));
      const base = baseIndex >= 0 ? caseErrors(row, baseIndex, p) : null;
      const baseKeys = new Set((base || []).map((e) => JSON.stringify(e)));
      data.runs.forEach((label, r) => {
        const errors = caseErrors(row, r, p);
        const td = el("td");
        if (errors === null) td.append(el("em", { text: "not scored" }));
        else if (!errors.length) td.append(el("span", { class: "eb-ok", text: "no errors" }));
        else {
          const ul = el("ul");
          for (const e of errors) {
            const isNew = label === "candidate" && base !== null && baseIndex >= 0 && !baseKeys.has(JSON.stringify(e));
            ul.append(el("li", { class: isNew ? "eb-new" : null, title: isNew ? "not in the baseline" : null, text: errorText(e) }));
          }
          td.append(errors.length > FOLD ? folded(errors, ul) : ul);
        }
        tr.append(td);
      });
      body.append(tr);
    });
    table.append(body);
    return table;
  }

  function renderViewer(name, element, it) {
    const viewer = EB.viewers[name];
    if (!viewer || typeof viewer.render !== "function") {
      element.append(el("p", { class: "eb-warning", text: "viewer " + name + " is not available in this report" }));
      return;
    }
    try {
      viewer.render(element, it, context);
    } catch (err) {
      element.append(el("p", { class: "eb-warning", text: "viewer " + name + " failed: " + err }));
    }
  }

  function caseDetail(n) {
    const row = cases[n];
    const box = el("div", { class: "eb-detail" });
    box.append(errorsTable(row));
    const wait = el("p", { class: "eb-small", text: "loading…" });
    box.append(wait);
    item(n).then(
      (it) => {
        wait.remove();
        showViewers(box, n, it);
      },
      (err) => {
        wait.replaceWith(el("p", { class: "eb-warning", text: String(err && err.message ? err.message : err) }));
      }
    );
    return box;
  }
  function showViewers(box, n, it) {
    const main = el("div", { class: "eb-viewer", "data-viewer": data.viewer });
    box.append(main);
    renderViewer(data.viewer, main, it);
    if (data.viewer !== "json" && EB.viewers.json) {
      const raw = el("details", { class: "eb-raw" }, el("summary", { text: "answer and predictions as JSON" }));
      raw.addEventListener("toggle", () => {
        if (raw.open && !raw.dataset.rendered) {
          raw.dataset.rendered = "1";
          const holder = el("div", { class: "eb-viewer", "data-viewer": "json" });
          raw.append(holder);
          renderViewer("json", holder, it);
        }
      });
      box.append(raw);
    }
    box.dataset.rendered = "1";
  }

  // A viewer's section for the answer or one run: <section class=cls data-run=label>, headed by
  // the label in the run's colour (the heading every viewer that shows runs side by side needs).
  function runSection(cls, label) {
    const title = el("h4", { text: label });
    if (data.colors[label]) title.style.borderLeftColor = data.colors[label];
    return el("section", { class: cls, "data-run": label }, title);
  }

  // A viewer's case image: the input's `image` (else the case's first asset) as an
  // <img class=PREFIX-img> appended to `stage`; `holder.dataset.loaded` becomes "1" once it has
  // loaded (after onLoad(img)) or "error", with a note. An image not copied to report-assets/, or
  // none, gives `stage` the class PREFIX-blank and a note saying which. Returns the <img> or null.
  function caseImage(stage, holder, prefix, item, onLoad) {
    const input = item.input && typeof item.input === "object" ? item.input : {};
    const assets = item.assets || [];
    const path = assets.includes(input.image) ? input.image : assets[0];
    const url = path ? assetUrl(path) : null;
    const note = (words) => stage.append(el("p", { class: prefix + "-note", text: words }));
    if (!url) {
      stage.classList.add(prefix + "-blank");
      note(path ? "the image " + path + " is not in report-assets/" : "this case has no image");
      return null;
    }
    const img = el("img", { class: prefix + "-img", alt: "case " + item.id, decoding: "async" });
    img.addEventListener("load", () => {
      if (onLoad) onLoad(img);
      holder.dataset.loaded = "1";
    });
    img.addEventListener("error", () => {
      holder.dataset.loaded = "error";
      note("the image " + path + " could not be loaded");
    });
    img.src = url;
    stage.append(img);
    return img;
  }

  const context = {
    assetUrl: assetUrl,
    get profile() {
      return state.profile;
    },
    profiles: data.profiles,
    runs: data.runs,
    colors: data.colors,
    el: el,
    runSection: runSection,
    caseImage: caseImage,
  };
  EB.context = context;

  // -- wiring ------------------------------------------------------------------------------------
  function update() {
    writeHash();
    refreshOptions();
    applyFilters();
  }
  controls.profile.addEventListener("change", () => { state.profile = controls.profile.value; update(); });
  controls.bucket.addEventListener("change", () => { state.bucket = controls.bucket.value; update(); });
  controls.category.addEventListener("change", () => { state.category = controls.category.value; update(); });
  controls.sort.addEventListener("change", () => { state.sort = controls.sort.value; update(); });
  let searchTimer = null;
  controls.q.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { state.q = controls.q.value; writeHash(); applyFilters(); }, 120);
  });
  document.getElementById("eb-controls").addEventListener("submit", (ev) => ev.preventDefault());
  more.addEventListener("click", renderMore);
  window.addEventListener("hashchange", () => {
    readHash();
    refreshOptions();
    applyFilters();
    openSingle();
  });
  function openSingle() {
    // #q=ID naming exactly one case (e.g. a link from the review) opens it.
    if (filtered.length === 1 && state.q) {
      const only = list.querySelector("details.eb-case");
      if (only && !only.open) only.open = true;
    }
  }

  readHash();
  refreshOptions();
  applyFilters();
  openSingle();
  EB.readyAt = performance.now(); // measured by benchmarks/report_100k.py
  document.body.dataset.ready = "1";
  EB.ready = true;
})();
