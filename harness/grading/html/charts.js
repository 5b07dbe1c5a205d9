// Draws every chart of the page's data block (#grading-charts: container id ->
// Vega-Lite spec) with vega-embed. When all have settled, body[data-charts] is
// "done" or "failed", which the browser test waits for; a failed chart says so
// in its place and on the console.
(function () {
  "use strict";
  var specs = JSON.parse(document.getElementById("grading-charts").textContent);
  var options = { renderer: "svg", actions: { export: true, source: false, compiled: false, editor: false } };
  var pending = Object.keys(specs).map(function (id) {
    var element = document.getElementById(id);
    return vegaEmbed(element, specs[id], options).catch(function (error) {
      element.textContent = "this chart failed to draw: " + error;
      element.className = "chart-error";
      console.error("chart " + id + ": " + error);
      throw error;
    });
  });
  Promise.allSettled(pending).then(function (results) {
    var failed = results.some(function (r) { return r.status === "rejected"; });
    document.body.setAttribute("data-charts", failed ? "failed" : "done");
  });
})();
