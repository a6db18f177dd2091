// The report's behaviour: the table of cells (filter, sort, pages), the matrix links, and the
// cell and side-by-side views, whose data is loaded on demand from one script per cell.
// Every string from a record or a transcript goes into the page with textContent, never as HTML.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("pb-data").textContent);
  var COLS = DATA.table.columns;
  var ROWS = DATA.table.rows;
  var C = {};
  COLS.forEach(function (name, i) { C[name] = i; });
  var PAGE = 100;
  var SHOW_CHARS = 2000;
  var SHOW_ITEMS = 200;
  var SHOW_DIFF_LINES = 1500;
  var state = { text: "", task: "", arm: "", model: "", outcome: "", sort: null, desc: false, page: 0 };
  var shown = ROWS;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function $(id) { return document.getElementById(id); }

  // --- the table ---------------------------------------------------------------------------
  function fill(select, values) {
    values.forEach(function (v) { var o = el("option", null, v); o.value = v; select.appendChild(o); });
  }
  fill($("f-task"), DATA.tasks);
  fill($("f-arm"), DATA.arms);
  fill($("f-model"), DATA.models);

  function fmt(v, digits) {
    if (v === null || v === undefined) return "-";
    return digits === undefined ? String(v) : Number(v).toFixed(digits);
  }

  function apply() {
    var text = state.text.toLowerCase();
    shown = ROWS.filter(function (r) {
      if (state.task && r[C.task] !== state.task) return false;
      if (state.arm && r[C.arm] !== state.arm) return false;
      if (state.model && r[C.model] !== state.model) return false;
      if (state.outcome && r[C.outcome] !== state.outcome) return false;
      if (text) {
        var hay = [r[C.task], r[C.arm], r[C.model], r[C.outcome], r[C.reason], r[C.id]].join(" ").toLowerCase();
        if (hay.indexOf(text) < 0) return false;
      }
      return true;
    });
    if (state.sort !== null) {
      var col = state.sort, sign = state.desc ? -1 : 1;
      shown = shown.slice().sort(function (a, b) {
        var x = a[col], y = b[col];
        if (x === y) return a[0] - b[0];
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * sign;
      });
    }
    state.page = Math.min(state.page, Math.max(0, Math.ceil(shown.length / PAGE) - 1));
    render();
  }

  function render() {
    var body = document.querySelector("#cell-table tbody");
    var rows = document.createDocumentFragment();
    shown.slice(state.page * PAGE, (state.page + 1) * PAGE).forEach(function (r) {
      var tr = el("tr", "row " + r[C.outcome]);
      tr.dataset.index = r[C.i];
      [r[C.task], r[C.arm], r[C.model], r[C.run]].forEach(function (v) { tr.appendChild(el("td", null, v)); });
      tr.appendChild(el("td", "outcome", r[C.outcome]));
      tr.appendChild(el("td", "reason", r[C.reason]));
      tr.appendChild(el("td", "num", fmt(r[C.loc])));
      tr.appendChild(el("td", "num", fmt(r[C.tokens])));
      tr.appendChild(el("td", "num", fmt(r[C.cost], 4)));
      tr.appendChild(el("td", "num", fmt(r[C.time], 1)));
      if (DATA.table.graded) {
        tr.appendChild(el("td", "num", fmt(r[C.score], 2)));
        tr.appendChild(el("td", "num", r[C.graders] === null ? "-" : r[C.graders]));
      }
      var links = el("td", "links");
      var open = el("a", "open", "open");
      open.href = "#cell=" + r[C.i];
      var side = el("a", "side", "side by side");
      side.href = "#side=" + r[C.i];
      links.appendChild(open);
      links.appendChild(document.createTextNode(" "));
      links.appendChild(side);
      tr.appendChild(links);
      rows.appendChild(tr);
    });
    body.replaceChildren(rows);
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    $("f-count").textContent = shown.length + " of " + ROWS.length + " cells";
    $("p-info").textContent = "page " + (state.page + 1) + " of " + pages;
    $("p-prev").disabled = state.page === 0;
    $("p-next").disabled = state.page >= pages - 1;
    document.querySelectorAll("#cell-table th[data-col]").forEach(function (th) {
      th.classList.toggle("sorted", Number(th.dataset.col) === state.sort);
      th.classList.toggle("desc", Number(th.dataset.col) === state.sort && state.desc);
    });
  }

  ["text", "task", "arm", "model", "outcome"].forEach(function (name) {
    var input = $("f-" + name);
    function changed() {
      if (state[name] === input.value) return;
      state[name] = input.value;
      state.page = 0;
      apply();
    }
    input.addEventListener("input", changed);
    input.addEventListener("change", changed);
  });
  $("filters").addEventListener("submit", function (ev) { ev.preventDefault(); });
  $("f-clear").addEventListener("click", function () { setFilters({}); });
  $("p-prev").addEventListener("click", function () { state.page -= 1; render(); });
  $("p-next").addEventListener("click", function () { state.page += 1; render(); });
  document.querySelectorAll("#cell-table th[data-col]").forEach(function (th) {
    th.addEventListener("click", function () {
      var col = Number(th.dataset.col);
      state.desc = state.sort === col ? !state.desc : false;
      state.sort = col;
      apply();
    });
  });

  function setFilters(f) {
    ["text", "task", "arm", "model", "outcome"].forEach(function (name) {
      state[name] = f[name] || "";
      $("f-" + name).value = state[name];
    });
    state.page = 0;
    apply();
  }

  function pick(td) {
    setFilters({ task: td.dataset.task, arm: td.dataset.arm, model: td.dataset.model });
    $("cells").scrollIntoView();
  }
  document.querySelectorAll("table.matrix td.pick").forEach(function (td) {
    td.addEventListener("click", function () { pick(td); });
    td.addEventListener("keydown", function (ev) { if (ev.key === "Enter") pick(td); });
  });

  // --- cell scripts: one part file holds the details of a run of consecutive cells --------
  var cache = {}, waiting = {};
  window.ponybenchCells = function (details) {
    Object.keys(details).forEach(function (k) { cache[k] = details[k]; });
  };
  function load(index, done) {
    if (cache[index]) { done(cache[index]); return; }
    var part = rowOf(index)[C.part];
    if (waiting[part]) { waiting[part].push(function () { done(cache[index] || null); }); return; }
    waiting[part] = [function () { done(cache[index] || null); }];
    var s = document.createElement("script");
    s.src = DATA.cellsDir + "/p" + part + ".js";
    function finish() {
      var fns = waiting[part] || [];
      delete waiting[part];
      s.remove();
      fns.forEach(function (fn) { fn(); });
    }
    s.onload = finish;
    s.onerror = finish;
    document.head.appendChild(s);
  }

  // --- views -------------------------------------------------------------------------------
  function clipped(text, cls, limit) {
    var pre = el("pre", cls);
    text = String(text);
    limit = limit || SHOW_CHARS;
    if (text.length <= limit) { pre.textContent = text; return pre; }
    var wrap = el("div", "clip");
    pre.textContent = text.slice(0, limit);
    var more = el("button", "more", "show all (" + (text.length - limit) + " more characters)");
    more.type = "button";
    more.addEventListener("click", function () { pre.textContent = text; more.remove(); });
    wrap.appendChild(pre);
    wrap.appendChild(more);
    return wrap;
  }

  function transcript(items) {
    var box = el("div", "transcript");
    function add(from, to) {
      items.slice(from, to).forEach(function (it) {
        var div = el("div", "item " + it.kind + (it.error ? " error" : ""));
        var head = el("div", "head", it.title);
        if (it.path) head.appendChild(el("code", "path", it.path));
        div.appendChild(head);
        if (it.old !== undefined) {
          div.appendChild(el("div", "label", "replaces"));
          div.appendChild(clipped(it.old, "code old"));
          div.appendChild(el("div", "label", "with"));
        }
        if (it.code !== undefined) div.appendChild(clipped(it.code, "code"));
        if (it.text !== undefined) div.appendChild(clipped(it.text, "text"));
        if (it.cut) div.appendChild(el("div", "note", it.cut + " characters left out of the report; see claude.jsonl"));
        box.insertBefore(div, rest);
      });
    }
    var rest = el("div", "rest");
    box.appendChild(rest);
    add(0, SHOW_ITEMS);
    if (items.length > SHOW_ITEMS) {
      var btn = el("button", "more", "show the other " + (items.length - SHOW_ITEMS) + " items");
      btn.type = "button";
      btn.addEventListener("click", function () { btn.remove(); add(SHOW_ITEMS, items.length); });
      rest.appendChild(btn);
    }
    if (!items.length) box.appendChild(el("p", "note", "no transcript"));
    return box;
  }

  function diffView(text) {
    if (text === null || text === undefined) return el("p", "note", "no workspace kept");
    if (!text) return el("p", "note", "the agent changed nothing in the workspace");
    var lines = text.split("\n");
    var pre = el("pre", "diff");
    function add(from, to) {
      var frag = document.createDocumentFragment();
      lines.slice(from, to).forEach(function (line) {
        var c = line.charAt(0);
        var cls = line.indexOf("diff --git") === 0 ? "file" : line.indexOf("@@") === 0 ? "hunk"
          : (c === "+" && line.indexOf("+++") !== 0) ? "add" : (c === "-" && line.indexOf("---") !== 0) ? "del" : "";
        frag.appendChild(el("span", cls, line + "\n"));
      });
      pre.appendChild(frag);
    }
    add(0, SHOW_DIFF_LINES);
    if (lines.length <= SHOW_DIFF_LINES) return pre;
    var wrap = el("div", "clip");
    var btn = el("button", "more", "show all " + lines.length + " lines");
    btn.type = "button";
    btn.addEventListener("click", function () { btn.remove(); add(SHOW_DIFF_LINES, lines.length); });
    wrap.appendChild(pre);
    wrap.appendChild(btn);
    return wrap;
  }

  function section(title, node) {
    var s = el("section", "part");
    s.appendChild(el("h3", null, title));
    s.appendChild(node);
    return s;
  }

  function recordTable(pairs) {
    var t = el("table", "record");
    pairs.forEach(function (p) {
      var tr = el("tr");
      var th = el("th", null, p[0]);
      if (p[2]) th.title = p[2];
      tr.appendChild(th);
      var v = p[1];
      tr.appendChild(el("td", null, typeof v === "string" ? v : JSON.stringify(v)));
      t.appendChild(tr);
    });
    return t;
  }

  function heading(d) {
    var box = el("div", "cellhead");
    box.appendChild(el("span", "badge " + d.outcome, d.outcome));
    box.appendChild(el("span", "what", d.task + " / " + d.arm + " / " + d.model + " / run " + d.run));
    if (d.reason) box.appendChild(el("p", "reason", d.reason));
    return box;
  }

  function cellView(d) {
    var body = el("div", "cell");
    body.appendChild(heading(d));
    if (d.note) body.appendChild(el("p", "note", d.note));
    if (d.folder) {
      var a = el("a", "folder", "the cell's folder");
      a.href = d.folder;
      body.appendChild(a);
    }
    if (d.outcome === "invalid" || d.stderr) {
      var inv = el("div");
      inv.appendChild(el("p", "error", d.error || ""));
      inv.appendChild(clipped(d.stderr || "(empty)", "stderr", 4000));
      body.appendChild(section("error and stderr tail", inv));
    }
    if (d.arm_errors && d.arm_errors.length) {
      var ae = el("ul", "arm-errors");
      d.arm_errors.forEach(function (text) { ae.appendChild(el("li", null, text)); });
      body.appendChild(section("what of the arm failed in this session", ae));
    }
    if (d.failed.length) {
      var ul = el("ul", "checks");
      d.failed.forEach(function (c) {
        var li = el("li");
        li.appendChild(el("code", null, c.nodeid));
        li.appendChild(el("span", "check-outcome", " " + c.outcome));
        if (c.message) li.appendChild(clipped(c.message, "message", 1500));
        ul.appendChild(li);
      });
      body.appendChild(section("failed checks", ul));
    }
    if (d.graders && d.graders.length) {
      var gl = el("ul", "graders");
      d.graders.forEach(function (g) {
        var li = el("li", "grader " + g.state);
        li.appendChild(el("code", null, g.name));
        li.appendChild(el("span", "grader-what", " " + g.type + ", " + g.axis + (g.arm === "arms-only" ? ", arms only" : "") + ": "));
        li.appendChild(el("span", "grader-state", g.state));
        if (g.explanation) li.appendChild(clipped(g.explanation, "message", 1500));
        gl.appendChild(li);
      });
      body.appendChild(section("graders" + (d.score === null || d.score === undefined ? "" : " (score " + fmt(d.score, 2) + ")"), gl));
    }
    if (d.mocks_uncalled && d.mocks_uncalled.length) {
      var ml = el("ul", "checks");
      d.mocks_uncalled.forEach(function (m) { ml.appendChild(el("li", null, m)); });
      body.appendChild(section("mocked tools a grader expects that the agent never called", ml));
    }
    if (d.turns && d.turns.length) {
      var tt = el("table", "turns");
      var hr = el("tr");
      ["turn", "play", "reply", "tool calls", "tokens", "cost", "seconds", "until"].forEach(function (h) { hr.appendChild(el("th", null, h)); });
      tt.appendChild(hr);
      d.turns.forEach(function (t) {
        var tr = el("tr");
        tr.appendChild(el("td", null, String(t[0])));
        tr.appendChild(el("td", null, String(t[1])));
        var reply = el("td");
        reply.appendChild(clipped(t[2], "message", 300));
        tr.appendChild(reply);
        tr.appendChild(el("td", null, String(t[3])));
        tr.appendChild(el("td", null, String(t[4])));
        tr.appendChild(el("td", null, t[5] === null || t[5] === undefined ? "-" : "$" + fmt(t[5], 4)));
        tr.appendChild(el("td", null, t[6] === null || t[6] === undefined ? "-" : fmt(t[6], 1)));
        tr.appendChild(el("td", null, t[7] || ""));
        tt.appendChild(tr);
      });
      body.appendChild(section("the conversation, turn by turn", tt));
    }
    if (d.policy && d.policy.length) {
      var pl = el("ul", "policy");
      d.policy.forEach(function (p) {
        var li = el("li");
        li.appendChild(el("code", null, p[0]));
        var v = typeof p[1] === "string" ? p[1] : JSON.stringify(p[1]);
        if (v.indexOf("\n") < 0 && v.length <= 200) li.appendChild(el("span", "policy-value", " = " + v));
        else li.appendChild(clipped(v, "message", 1500));
        pl.appendChild(li);
      });
      body.appendChild(section("agent policy (the task's, as the session got it)", pl));
    }
    body.appendChild(section("workspace diff against the seeded base", diffView(d.diff)));
    body.appendChild(section("transcript", transcript(d.transcript)));
    var rec = el("details");
    rec.appendChild(el("summary", null, "the record (" + d.record.length + " fields)"));
    rec.appendChild(recordTable(d.record));
    body.appendChild(section("record", rec));
    var side = el("a", "side", "side by side with the other arms");
    side.href = "#side=" + currentIndex;
    body.insertBefore(side, body.children[1]);
    return body;
  }

  function sideView(details) {
    var grid = el("div", "side");
    grid.style.gridTemplateColumns = "repeat(" + details.length + ", minmax(0, 1fr))";
    details.forEach(function (d) {
      var col = el("div", "column");
      col.appendChild(heading(d));
      var open = el("a", "open", "open this cell");
      open.href = "#cell=" + d.index;
      col.appendChild(open);
      col.appendChild(section("diff", diffView(d.diff)));
      col.appendChild(section("transcript", transcript(d.transcript)));
      grid.appendChild(col);
    });
    return grid;
  }

  var currentIndex = null;
  function show(title, node) {
    $("overlay-title").textContent = title;
    $("overlay-body").replaceChildren(node);
    $("overlay").hidden = false;
    $("overlay").scrollTop = 0;
    document.body.classList.add("viewing");
  }
  function hide() {
    $("overlay").hidden = true;
    $("overlay-body").replaceChildren();
    document.body.classList.remove("viewing");
  }
  function rowOf(index) { return ROWS[index] || null; }  // rows are written in index order

  function route() {
    var m = /^#(cell|side|task)=(.*)$/.exec(location.hash);
    if (!m) { hide(); return; }
    if (m[1] === "task") {
      hide();
      setFilters({ task: decodeURIComponent(m[2]) });
      $("cells").scrollIntoView();
      return;
    }
    var index = Number(m[2]);
    var row = rowOf(index);
    if (!row) { hide(); return; }
    currentIndex = index;
    show("loading " + row[C.id] + "...", el("p", "note", "loading"));
    if (m[1] === "cell") {
      load(index, function (d) {
        if (currentIndex !== index) return;
        if (!d) { show(row[C.id], el("p", "error", "the cell's file is missing from " + DATA.cellsDir + "/")); return; }
        show(d.id, cellView(d));
        performance.mark("ponybench-cell-shown");
      });
      return;
    }
    var members = ROWS.filter(function (r) { return r[C.group] === row[C.group]; });
    var got = [];
    members.forEach(function (r, k) {
      load(r[C.i], function (d) {
        got[k] = d || { index: r[C.i], outcome: r[C.outcome], task: r[C.task], arm: r[C.arm], model: r[C.model], run: r[C.run], reason: "(the cell's file is missing)", diff: null, transcript: [] };
        got[k].index = r[C.i];
        if (got.filter(Boolean).length === members.length && currentIndex === index) {
          show(row[C.task] + " / " + row[C.model] + " / run " + row[C.run] + ": side by side", sideView(got));
        }
      });
    });
  }
  $("close").addEventListener("click", function (ev) { ev.preventDefault(); history.pushState(null, "", location.pathname); hide(); });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && !$("overlay").hidden) $("close").click(); });
  window.addEventListener("hashchange", route);
  // A point of a plot links to its task's cells (an SVG link, followed here so that every
  // click, on the point or on its outline, lands the same way).
  document.querySelectorAll("div.figure").forEach(function (fig) {
    fig.addEventListener("click", function (ev) {
      var a = ev.target.closest("a");
      var href = a && (a.getAttribute("href") || a.getAttributeNS("http://www.w3.org/1999/xlink", "href"));
      if (!href || href.charAt(0) !== "#") return;
      ev.preventDefault();
      if (location.hash === href) route(); else location.hash = href;
    });
  });

  apply();
  route();
  document.body.dataset.ready = "1";
  performance.mark("ponybench-ready");
})();
