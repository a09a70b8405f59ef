// Shared by the layout probes (layout_probe.js, site_probe.js), which a test's harness page
// runs after this file: once every iframe of the page has loaded, reportFrames calls
// measure(frame) for each and appends the results as JSON in a pre element with the given id.
function reportFrames(id, measure) {
  var frames = Array.prototype.slice.call(document.querySelectorAll("iframe"));
  var left = frames.length;
  function done() {
    if (--left > 0) return;
    var pre = document.createElement("pre");
    pre.id = id;
    pre.textContent = JSON.stringify(frames.map(measure));
    document.body.appendChild(pre);
  }
  frames.forEach(function (f) {
    if (f.contentDocument && f.contentDocument.readyState === "complete" &&
        f.contentDocument.body && f.contentDocument.body.childElementCount) done();
    else f.addEventListener("load", done);
  });
}
