// Runs in a harness page that shows the report in iframes of fixed widths (srcdoc, so the
// report keeps its own Content-Security-Policy and the harness may read its DOM). Once every
// frame has loaded, it appends the measurements as JSON in a pre element (id layout-probe).
// An element "overflows" when it reaches past the frame's left or right edge and no ancestor
// clips or scrolls it (a table in its own scrolling box is fine).
(function () {
  function measure(frame) {
    var win = frame.contentWindow, doc = frame.contentDocument, W = win.innerWidth;
    function contained(el) {
      for (var p = el.parentElement; p && p !== doc.body; p = p.parentElement) {
        var o = win.getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") return true;
      }
      return false;
    }
    var offenders = [];
    doc.body.querySelectorAll("*").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if ((r.right > W + 0.5 || r.left < -0.5) && !contained(el)) {
        offenders.push(el.tagName.toLowerCase() + "." + el.getAttribute("class") + " [" +
                       Math.round(r.left) + ", " + Math.round(r.right) + "]");
      }
    });
    function widths(sel) {
      return Array.prototype.map.call(doc.querySelectorAll(sel), function (e) {
        return e.getBoundingClientRect().width;
      }).filter(function (w) { return w > 0; });
    }
    return {
      innerWidth: W,
      scrollWidth: doc.documentElement.scrollWidth,
      height: doc.documentElement.scrollHeight,
      offenders: offenders.slice(0, 30),
      texts: widths(".txt"),
      charts: widths("svg.chart"),
      wide: widths(".wide"),
      // the results table's width and the width of the box it scrolls in
      results: (function (t) {
        return t ? [t.getBoundingClientRect().width, t.parentElement.clientWidth] : null;
      })(doc.querySelector("table.results"))
    };
  }
  var frames = Array.prototype.slice.call(document.querySelectorAll("iframe"));
  var left = frames.length;
  function done() {
    if (--left > 0) return;
    var pre = document.createElement("pre");
    pre.id = "layout-probe";
    pre.textContent = JSON.stringify(frames.map(measure));
    document.body.appendChild(pre);
  }
  frames.forEach(function (f) {
    if (f.contentDocument && f.contentDocument.readyState === "complete" &&
        f.contentDocument.body && f.contentDocument.body.childElementCount) done();
    else f.addEventListener("load", done);
  });
})();
