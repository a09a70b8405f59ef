// Runs (after frames_probe.js) in a harness page that shows pages of the documentation site in
// iframes of fixed widths (same origin, so it may read their DOM). Once every frame has loaded
// it measures each page and appends the measurements as JSON in a pre element (id site-probe):
//
// - sideways: how many CSS px the page scrolls sideways (the document wider than its window);
// - offenders: elements reaching past the window's right edge that no ancestor clips or
//   scrolls (what makes a page scroll sideways);
// - code: code blocks wider than their box that do not scroll inside themselves, or whose box
//   leaves the window;
// - scrolling: code blocks that are wider than their box and scroll inside it (the test wants
//   some at 420 px, so that it is seen to measure what it claims).
(function () {
  function measure(frame) {
    var win = frame.contentWindow, doc = frame.contentDocument, W = win.innerWidth;
    var root = doc.documentElement;
    function scrolls(el) {
      var o = win.getComputedStyle(el).overflowX;
      return o === "auto" || o === "scroll";
    }
    function contained(el) {
      for (var p = el.parentElement; p && p !== doc.body; p = p.parentElement) {
        var o = win.getComputedStyle(p).overflowX;
        if (o !== "visible") return true;
        if (win.getComputedStyle(p).position === "fixed") return true;
      }
      return false;
    }
    var offenders = [];
    doc.body.querySelectorAll("*").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return;
      if (r.right > W + 0.5 && !contained(el) && win.getComputedStyle(el).position !== "fixed") {
        offenders.push(el.tagName.toLowerCase() + "." + (el.getAttribute("class") || "") +
                       " [" + Math.round(r.left) + ", " + Math.round(r.right) + "]");
      }
    });
    var code = [], scrolling = 0;
    doc.querySelectorAll("pre").forEach(function (pre) {
      var inner = pre.querySelector("code") || pre;
      var box = pre.getBoundingClientRect();
      if (box.width === 0) return;
      var wide = inner.scrollWidth > inner.clientWidth + 1 || pre.scrollWidth > pre.clientWidth + 1;
      var text = (inner.textContent || "").slice(0, 60);
      if (box.right > W + 0.5) code.push("leaves the window: " + text);
      else if (wide && !(scrolls(inner) || scrolls(pre))) code.push("does not scroll: " + text);
      else if (wide) scrolling++;
    });
    return {
      page: frame.getAttribute("data-page"),
      width: W,
      sideways: Math.max(root.scrollWidth, doc.body.scrollWidth) - root.clientWidth,
      offenders: offenders.slice(0, 10),
      code: code,
      scrolling: scrolling
    };
  }
  reportFrames("site-probe", measure);
})();
