// Viewer "image-overlay": the case image with the answer's and each run's geometry drawn over it.
// (The viewer contract is described in json.js.)
//
// Geometry convention, read from `value.geometry` when present, else from the value itself
// (the answer and each prediction alike), in image pixels:
//   rows:    [y, ...]               horizontal lines (e.g. separators between table rows)
//   columns: [x, ...]               vertical lines
//   boxes or cells: [[x0, y0, x1, y1], ...] or [{box | bbox: [x0, y0, x1, y1]}, ...]  rectangles
// The image is the first of item.assets (input.image when it is one of them); its size comes
// from input.width and input.height, else from the image once it has loaded. One colour per
// layer (answer and each run); each layer can be switched off in the legend.
(function () {
  "use strict";
  const EB = (window.EnviroBench = window.EnviroBench || {});
  EB.viewers = EB.viewers || {};
  const SVG = "http://www.w3.org/2000/svg";
  const DASHES = ["", "", "6 4", "2 3", "8 3 2 3", "4 4", "1 3"];

  function numbers(list) {
    return Array.isArray(list) ? list.filter((v) => typeof v === "number" && isFinite(v)) : [];
  }
  function boxOf(entry) {
    const b = Array.isArray(entry) ? entry : entry && typeof entry === "object" ? entry.box || entry.bbox : null;
    return Array.isArray(b) && b.length === 4 && b.every((v) => typeof v === "number" && isFinite(v)) ? b : null;
  }
  function geometry(value) {
    if (!value || typeof value !== "object") return { rows: [], columns: [], boxes: [] };
    const g = value.geometry && typeof value.geometry === "object" ? value.geometry : value;
    const boxes = [];
    for (const source of [g.boxes, g.cells]) if (Array.isArray(source)) for (const entry of source) { const b = boxOf(entry); if (b) boxes.push(b); }
    return { rows: numbers(g.rows), columns: numbers(g.columns), boxes: boxes };
  }
  EB.geometry = geometry;

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  }
  // The report's element maker (context.el, report.js): it runs after this script has loaded.
  const text = (tag, cls, value) => EB.el(tag, { class: cls, text: value });

  EB.viewers["image-overlay"] = {
    render(element, item, context) {
      const colors = (context && context.colors) || {};
      const input = item.input && typeof item.input === "object" ? item.input : {};
      let width = typeof input.width === "number" && input.width > 0 ? input.width : null;
      let height = typeof input.height === "number" && input.height > 0 ? input.height : null;

      const layers = [{ label: "answer", value: item.answer, color: colors.answer || "#2ca02c" }].concat(
        (item.runs || []).map((run) => ({ label: run.label, value: run.prediction, color: colors[run.label] || "#d62728" }))
      );

      const root = document.createElement("div");
      root.className = "eb-overlay";
      const legend = document.createElement("div");
      legend.className = "eb-overlay-legend";
      const stage = document.createElement("div");
      stage.className = "eb-overlay-stage";
      const overlay = svg("svg", { class: "eb-overlay-svg", preserveAspectRatio: "none" });
      if (width && height) overlay.setAttribute("viewBox", "0 0 " + width + " " + height);

      const img = context.caseImage(stage, root, "eb-overlay", item, (loaded) => {
        if (!width || !height) {
          width = loaded.naturalWidth;
          height = loaded.naturalHeight;
          overlay.setAttribute("viewBox", "0 0 " + width + " " + height);
          draw();
        }
      });
      if (!img && width && height) stage.style.aspectRatio = width + " / " + height;
      stage.append(overlay);
      // Small images are scaled up (up to the available width) so the lines can be told apart.
      if (width) stage.style.width = "min(100%, " + Math.max(width, 480) + "px)";

      const groups = layers.map((layer, i) => {
        const g = svg("g", { class: "eb-overlay-layer", "data-layer": layer.label, stroke: layer.color, fill: "none" });
        if (DASHES[i]) g.setAttribute("stroke-dasharray", DASHES[i]);
        overlay.append(g);
        return g;
      });

      function draw() {
        if (!width || !height) return;
        layers.forEach((layer, i) => {
          const g = groups[i];
          g.replaceChildren();
          const geo = geometry(layer.value);
          for (const y of geo.rows) g.append(svg("line", { x1: 0, y1: y, x2: width, y2: y, "data-axis": "row", "vector-effect": "non-scaling-stroke" }));
          for (const x of geo.columns) g.append(svg("line", { x1: x, y1: 0, x2: x, y2: height, "data-axis": "column", "vector-effect": "non-scaling-stroke" }));
          for (const [x0, y0, x1, y1] of geo.boxes) {
            g.append(svg("rect", { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0), "data-axis": "box", "vector-effect": "non-scaling-stroke" }));
          }
        });
      }
      draw();

      layers.forEach((layer, i) => {
        const geo = geometry(layer.value);
        const label = document.createElement("label");
        label.className = "eb-overlay-key";
        const box = document.createElement("input");
        box.type = "checkbox";
        box.checked = true;
        box.addEventListener("change", () => { groups[i].style.display = box.checked ? "" : "none"; });
        const swatch = document.createElement("span");
        swatch.className = "eb-overlay-swatch";
        swatch.style.borderColor = layer.color;
        if (DASHES[i]) swatch.style.borderStyle = "dashed";
        let note;
        if (layer.value === null || layer.value === undefined) note = " (no prediction)";
        else if (!geo.rows.length && !geo.columns.length && !geo.boxes.length) note = " (no geometry)";
        else note = " (" + [geo.rows.length ? geo.rows.length + " row line(s)" : "", geo.columns.length ? geo.columns.length + " column line(s)" : "", geo.boxes.length ? geo.boxes.length + " box(es)" : ""].filter(Boolean).join(", ") + ")";
        label.append(box, swatch, document.createTextNode(layer.label + note));
        legend.append(label);
      });

      // The positions as numbers, for reading exact values.
      const table = document.createElement("table");
      table.className = "eb-overlay-values";
      const head = document.createElement("tr");
      for (const h of ["", "rows (y)", "columns (x)"]) head.append(text("th", null, h));
      table.append(head);
      for (const layer of layers) {
        const geo = geometry(layer.value);
        const tr = document.createElement("tr");
        const th = text("th", null, layer.label);
        th.style.borderLeft = "4px solid " + layer.color;
        tr.append(th, text("td", null, geo.rows.join(", ")), text("td", null, geo.columns.join(", ")));
        table.append(tr);
      }

      root.append(legend, stage, table);
      element.append(root);
    },
  };
})();
