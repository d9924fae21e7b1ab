// Viewer "json": the answer and each run's prediction as readable JSON, side by side.
// Contract: EnviroBench.viewers[name] = {render(element, item, context)}; item holds
// {id, category, input, answer, runs: [{label, prediction, errors}]}; all text goes in via
// textContent, never innerHTML, so dataset and adapter strings cannot inject markup.
(function () {
  const EB = (window.EnviroBench = window.EnviroBench || { viewers: {} });
  EB.viewers = EB.viewers || {};
  EB.viewers["json"] = {
    render(element, item) {
      const grid = document.createElement("div");
      grid.className = "eb-json-grid";
      const columns = [{ label: "answer", value: item.answer }].concat(
        (item.runs || []).map((run) => ({ label: run.label, value: run.prediction }))
      );
      for (const column of columns) {
        const box = document.createElement("div");
        const title = document.createElement("h4");
        title.textContent = column.label;
        const pre = document.createElement("pre");
        pre.textContent = JSON.stringify(column.value, null, 2);
        box.append(title, pre);
        grid.append(box);
      }
      element.append(grid);
    },
  };
})();
