// Runs (after frames_probe.js) in a harness page that shows the report in iframes of fixed widths (srcdoc, so the
// report keeps its own Content-Security-Policy and the harness may read its DOM). Once every
// frame has loaded, it opens every <details> of the report, measures, and appends the
// measurements as JSON in a pre element (id layout-probe).
//
// - offenders: elements reaching past the frame's left or right edge that no ancestor clips
//   or scrolls (a table in its own scrolling box is fine);
// - hidden: tables whose box is narrower than the table (columns behind a scrollbar);
// - unpinned: tables in a scrolling box whose first column leaves the box when the box is
//   scrolled to its right end (the row names must stay in view: sticky);
// - headers: numeric columns whose header is aligned differently from their numbers;
// - wrapped: score cells (a number, an optional ±interval and markers) whose text runs over
//   more than one line (a marker torn from its score);
// - small / overlaps / clipped: chart texts rendered under 9 CSS px (font size times the
//   SVG's scale), pairs of texts of one chart whose boxes intersect, texts reaching out of
//   their chart;
// - axes: per chart (its aria-label) the titles of its axes.
(function () {
  var MIN_PX = 9;
  function measure(frame) {
    var win = frame.contentWindow, doc = frame.contentDocument, W = win.innerWidth;
    doc.querySelectorAll("details").forEach(function (d) { d.open = true; });
    doc.body.getBoundingClientRect();  // lay out again with every details open
    function scroller(el) {
      for (var p = el.parentElement; p && p !== doc.body; p = p.parentElement) {
        var o = win.getComputedStyle(p).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") return p;
      }
      return null;
    }
    function name(el) {
      return el.tagName.toLowerCase() + "." + el.getAttribute("class");
    }
    var offenders = [];
    doc.body.querySelectorAll("*").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if ((r.right > W + 0.5 || r.left < -0.5) && !scroller(el)) {
        offenders.push(name(el) + " [" + Math.round(r.left) + ", " + Math.round(r.right) + "]");
      }
    });
    function lines(node) {  // how many lines the text of node runs over
      var range = doc.createRange();
      range.selectNodeContents(node);
      var rects = Array.prototype.filter.call(range.getClientRects(), function (r) {
        return r.width > 0 && r.height > 0;
      }).sort(function (a, b) { return a.top - b.top; });
      var count = 0, bottom = -1e9;
      rects.forEach(function (r) {
        if (r.top >= bottom - 1) { count++; bottom = r.bottom; }
        else bottom = Math.max(bottom, r.bottom);
      });
      return count;
    }
    var hidden = [], unpinned = [], headers = [], wrapped = [], tables = 0;
    doc.querySelectorAll("table").forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.width === 0) return;
      tables++;
      var box = scroller(t), label = name(t) + " " + (t.getAttribute("data-test-set") || "");
      if (box && box.scrollWidth > box.clientWidth + 1) {
        hidden.push(label + " " + Math.round(box.scrollWidth) + ">" + box.clientWidth);
        box.scrollLeft = box.scrollWidth;
        var b = box.getBoundingClientRect();
        var names = "tbody tr > :first-child, thead tr:first-child > :first-child";
        t.querySelectorAll(names).forEach(function (c) {
          var cr = c.getBoundingClientRect();
          if (cr.width > 0 && (cr.left < b.left - 0.5 || cr.right > b.right + 0.5)) {
            unpinned.push(label + ": " + c.textContent.slice(0, 30));
          }
        });
        box.scrollLeft = 0;
      }
      t.querySelectorAll("td").forEach(function (td) {
        var text = td.textContent.trim();
        var score = /^[−+\-–]?[0-9][0-9.,]*(\s+±[0-9.,]+)?(\s+[†‡°·\/]+)?$/;
        if (score.test(text) && lines(td) > 1) wrapped.push(name(t) + ": " + text);
      });
      // numeric columns: the header cells of the last header row sit over the last columns
      var head = t.querySelector("thead tr:last-child");
      var rows = t.querySelectorAll("tbody tr");
      if (!head || !rows.length || win.getComputedStyle(rows[0]).display !== "table-row") return;
      var hs = head.children;
      for (var k = 1; k <= hs.length; k++) {
        var th = hs[hs.length - k], align = null, numeric = true;
        rows.forEach(function (tr) {
          var td = tr.children[tr.children.length - k];
          if (!td) return;
          var text = td.textContent.trim();
          if (!/^[−+\-–]?[0-9.]/.test(text) && text !== "–" && text !== "-") numeric = false;
          align = align || win.getComputedStyle(td).textAlign;
        });
        var want = align === "end" ? "right" : align;
        var got = win.getComputedStyle(th).textAlign;
        got = got === "end" ? "right" : got;
        if (numeric && want && got !== want && th.colSpan === 1) {
          headers.push(name(t) + " " + th.textContent.trim() + ": " + got + " over " + want);
        }
      }
    });
    var texts = 0, small = [], overlaps = [], clipped = [], axes = [], minPx = 1e9;
    doc.querySelectorAll("svg.chart").forEach(function (svg, s) {
      var box = svg.getBoundingClientRect();
      if (box.width === 0) return;
      var items = [], named = [];
      svg.querySelectorAll("text").forEach(function (t) {
        var m = t.getScreenCTM(), scale = Math.sqrt(m.a * m.a + m.b * m.b);
        var px = parseFloat(win.getComputedStyle(t).fontSize) * scale;
        var r = t.getBoundingClientRect();
        if (r.width === 0) return;
        texts++;
        minPx = Math.min(minPx, px);
        var label = t.textContent;
        if (px < MIN_PX - 0.01) small.push(label + " " + px.toFixed(1) + "px");
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 ||
            r.bottom > box.bottom + 0.5) clipped.push(label);
        if (t.getAttribute("class") === "axis" || t.getAttribute("class") === "axis-x") {
          named.push(label);
        }
        items.push({r: r, label: label});
      });
      for (var i = 0; i < items.length; i++) {
        for (var j = i + 1; j < items.length; j++) {
          var a = items[i].r, b = items[j].r;
          var dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          var dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (dx > 0.5 && dy > 0.5) overlaps.push(items[i].label + " / " + items[j].label);
        }
      }
      axes.push({chart: svg.getAttribute("aria-label"), axes: named});
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
      tables: tables,
      hidden: hidden,
      unpinned: unpinned.slice(0, 30),
      headers: headers,
      wrapped: wrapped.slice(0, 30),
      // score cells marked significantly better or worse (so markers are part of the layout)
      marked: Array.prototype.filter.call(doc.querySelectorAll("td"), function (td) {
        return /[0-9] .*[†‡]/.test(td.textContent);
      }).length,
      chartTexts: texts,
      minTextPx: texts ? minPx : null,
      small: small,
      overlaps: overlaps,
      clipped: clipped,
      axes: axes,
      texts: widths(".txt"),
      charts: widths("svg.chart"),
      // per path in the provenance: [characters, lines] (lines: distinct line tops)
      paths: Array.prototype.map.call(doc.querySelectorAll("code.path, table.inputs code"),
                                      function (c) {
        var tops = {};
        Array.prototype.forEach.call(c.getClientRects(), function (r) {
          if (r.width > 0) tops[Math.round(r.top)] = true;
        });
        return [c.textContent.length, Object.keys(tops).length];
      })
    };
  }
  reportFrames("layout-probe", measure);
})();
