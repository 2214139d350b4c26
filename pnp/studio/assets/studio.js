// pnp studio: the page follows the builds. The server pushes its state after every build (Server-Sent Events,
// /api/events); the page redraws what changed: a face whose version (a hash of its SVG file) is the same keeps its
// drawing, a changed one is fetched (/api/face/...) and drawn into its box's shadow root, where its ids and styles
// are its own. The page holds no data and no rule of its own: everything it shows is in the state.
(function () {
  "use strict";
  var boxes = new Map();      // "design/svg/x.svg" -> {v, box}: the drawings kept between builds
  var sheetImages = new Map(); // src -> img
  var fonts = new Set();      // @font-face rules already in the page
  var current = null;         // the last state
  var studio = window.pnpStudio = {generation: 0, drawn: {}, states: 0};
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "className") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }

  function sourceLink(slug, src) {  // a face's template or data row, as file:line, linked to its line
    if (!src) return null;
    if (!src.file) return el("span", {className: "where", text: src.where});
    var href = "/src/" + encodeURIComponent(slug) + "/" + src.file.split("/").map(encodeURIComponent).join("/") +
      (src.line ? "#L" + src.line : "");
    return el("a", {className: "where", href: href, target: "_blank", rel: "noopener", text: src.where});
  }

  // --- faces ------------------------------------------------------------------------------------------------
  var near = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (e) { if (e.isIntersecting) { near.unobserve(e.target); draw(e.target); } });
  }, {rootMargin: "600px 0px"}) : null;

  function faceBox(slug, face) {
    var key = slug + "/" + face.path, known = boxes.get(key);
    if (known && known.v === face.v) return known.box;
    var box = el("div", {className: "face", role: "img", "aria-label": slug + " " + face.path,
                         "data-key": key, "data-v": face.v, "data-built": String(current ? current.built_at : 0)});
    box.style.width = face.width + "px";
    box.style.height = face.height + "px";
    boxes.set(key, {v: face.v, box: box});
    if (near) near.observe(box); else draw(box);
    return box;
  }

  function draw(box) {
    var key = box.getAttribute("data-key"), v = box.getAttribute("data-v");
    var slash = key.indexOf("/");
    var url = "/api/face/" + encodeURIComponent(key.slice(0, slash)) + "/" + key.slice(slash + 1) + "?v=" + v;
    fetch(url).then(function (r) { return r.ok ? r.json() : null; }).then(function (face) {
      if (!face || box.shadowRoot) return;
      face.fonts.forEach(function (rule) {
        if (!fonts.has(rule)) { fonts.add(rule); $("face-fonts").appendChild(document.createTextNode(rule + "\n")); }
      });
      box.attachShadow({mode: "open"}).innerHTML = face.svg;
      studio.drawn[key] = {v: v, at: Date.now(), built_at: parseFloat(box.getAttribute("data-built"))};
    });
  }

  function faceCell(slug, comp, face, hits) {
    var key = slug + "/" + face.path;
    var caption = [el("div", {className: "name"}, [
      el("span", {className: "count", text: "×" + face.count}), " ",
      face.side === "back" ? "back" : (face.name || face.key)])];
    if (face.back && face.side !== "back") caption.push(el("div", {text: "back: " + face.back.replace(/^svg\//, "")}));
    var made = el("div", {}, ["template ", sourceLink(slug, face.template) || "(generated)"]);
    caption.push(made);
    if (face.row) caption.push(el("div", {}, ["row ", sourceLink(slug, face.row)]));
    if (face.data && typeof face.data === "object") {
      var cells = Object.keys(face.data).map(function (k) { return k + ": " + JSON.stringify(face.data[k]); });
      if (cells.length) caption.push(el("div", {className: "data", title: cells.join("\n"), text: cells.join(" · ")}));
    }
    if (face.warnings.length) {
      caption.push(el("ul", {className: "w"}, face.warnings.map(function (w) {
        return el("li", {}, [el("span", {className: "where", text: w.where}), ": " + w.message]);
      })));
    }
    var cell = el("figure", {className: "cell" + (face.warnings.length ? " has-warnings" : "") + (hits.has(key) ? " hit" : ""),
                             id: "face-" + key.replace(/[^A-Za-z0-9_-]/g, "_"), "data-component": slug + ":" + comp.id,
                             "data-group": comp.group || "", "data-warned": face.warnings.length ? "1" : "",
                             "data-text": [face.name, face.key, face.path, JSON.stringify(face.data || "")].join(" ").toLowerCase()},
                      [el("div", {className: "box"}, [faceBox(slug, face)]), el("figcaption", {}, caption)]);
    return cell;
  }

  // --- the page ---------------------------------------------------------------------------------------------
  function problems(section, title, items) {
    section.textContent = "";
    section.hidden = !items.length;
    if (!items.length) return;
    section.appendChild(el("h2", {text: title}));
    section.appendChild(el("ul", {}, items.map(function (p) {
      var where = p.design && p.file ? sourceLink(p.design, {file: p.file, line: p.line, where: p.where})
                                     : el("span", {className: "where", text: p.where});
      var hits = p.faces.length ? el("div", {className: "hits"}, ["faces it hits: "].concat(p.faces.slice(0, 12).map(function (k, i) {
        return el("a", {href: "#face-" + k.replace(/[^A-Za-z0-9_-]/g, "_"), text: (i ? ", " : "") + k.split("/").pop()});
      })).concat(p.faces.length > 12 ? [" and " + (p.faces.length - 12) + " more"] : [])) : null;
      return el("li", {}, [where, p.where ? ": " : "", p.message, hits]);
    })));
  }

  function sheetsOf(d) {
    if (!d.sheets.length) return null;
    var figures = [];
    d.sheets.forEach(function (s) {
      for (var page = 1; page <= s.pages; page++) {
        var src = "/sheet/" + encodeURIComponent(d.slug) + "/" + encodeURIComponent(s.name) + "/" + page + ".png?v=" + s.v;
        var img = sheetImages.get(src);
        if (!img) {
          img = el("img", {src: src, alt: s.name + " page " + page, loading: "lazy"});
          sheetImages.set(src, img);
        }
        figures.push(el("figure", {}, [img, el("figcaption", {text: s.name + " · " + page + "/" + s.pages})]));
      }
    });
    return el("section", {className: "component", "aria-label": "Print sheets"},
              [el("h3", {text: "Print sheets"}), el("div", {className: "sheets"}, figures)]);
  }

  function reportOf(d) {
    if (d.report === null || d.report === undefined) return null;
    return el("section", {className: "component", "aria-label": "Validation"}, [el("h3", {text: "Validation"}),
      el("table", {className: "report"}, d.report.map(function (r) {
        return el("tr", {}, [el("td", {className: r.ok ? "ok" : "fail", text: r.ok ? "ok" : "FAIL"}),
          el("td", {text: r.name}), el("td", {}, [r.message,
            r.details && r.details.length ? el("div", {className: "details", text: r.details.join("\n")}) : null])]);
      }))]);
  }

  function render(state) {
    var hits = new Set();
    state.errors.forEach(function (p) { p.faces.forEach(function (k) { hits.add(k); }); });
    var out = document.createDocumentFragment(), keep = new Set(), components = [], groups = new Set();
    state.designs.forEach(function (d) {
      var parts = [el("h2", {text: d.title + (d.version ? " · version " + d.version : "")})];
      if (!d.built) parts.push(el("p", {className: "meta", text: "Not built yet."}));
      if (d.links.length) parts.push(el("nav", {className: "links"}, d.links.map(function (f) {
        return el("a", {href: "/out/" + encodeURIComponent(d.slug) + "/" + f, target: "_blank", text: f});
      })));
      d.components.forEach(function (c) {
        components.push([d.slug + ":" + c.id, d.title + " · " + c.id]);
        if (c.group) groups.add(c.group);
        var faces = c.faces.map(function (f) { keep.add(d.slug + "/" + f.path); return faceCell(d.slug, c, f, hits); });
        parts.push(el("section", {className: "component", id: "c-" + d.slug + "-" + c.id, "data-component": d.slug + ":" + c.id},
          [el("h3", {text: c.id + " (" + c.kind + (c.lang ? ", " + c.lang : "") + ", " + c.faces.length + " faces, " +
                           c.copies + " in the box)"}), el("div", {className: "faces"}, faces)]));
      });
      parts.push(sheetsOf(d), reportOf(d));
      out.appendChild(el("section", {className: "design", id: "d-" + d.slug}, parts));
    });
    boxes.forEach(function (value, key) { if (!keep.has(key)) boxes.delete(key); });
    $("designs").replaceChildren(out);
    options($("f-component"), components);
    options($("f-group"), Array.from(groups).sort().map(function (g) { return [g, g]; }));
    filter();
  }

  function options(select, pairs) {
    var chosen = select.value;
    select.replaceChildren(el("option", {value: "", text: "all"}));
    pairs.forEach(function (p) { select.appendChild(el("option", {value: p[0], text: p[1]})); });
    select.value = pairs.some(function (p) { return p[0] === chosen; }) ? chosen : "";
  }

  function filter() {
    var comp = $("f-component").value, group = $("f-group").value, warned = $("f-warned").checked,
        text = $("f-text").value.trim().toLowerCase();
    document.querySelectorAll("#designs .cell").forEach(function (cell) {
      cell.hidden = (comp && cell.getAttribute("data-component") !== comp) ||
        (group && cell.getAttribute("data-group") !== group) || (warned && !cell.getAttribute("data-warned")) ||
        (text && cell.getAttribute("data-text").indexOf(text) < 0);
    });
    document.querySelectorAll("#designs section.component[data-component]").forEach(function (s) {
      s.hidden = !s.querySelector(".cell:not([hidden])");
    });
  }

  function apply(state) {
    current = state;
    studio.states += 1;
    studio.generation = state.generation;
    studio.status = state.status;
    var status = $("status");
    status.className = "status " + state.status;
    status.textContent = state.status === "ok" ? "up to date" :
      state.status === "building" ? "building " + (state.building || []).join(", ") + "…" : "build failed";
    document.body.classList.toggle("stale", state.status === "failed");
    $("took").textContent = state.built_at && state.status !== "building" ?
      "built in " + state.seconds.toFixed(2) + " s at " + new Date(state.built_at * 1000).toLocaleTimeString() : "";
    problems($("errors"), state.status === "failed" ? "The build failed: the faces below are the last good build" : "Errors", state.errors);
    problems($("warnings"), "Warnings", state.warnings);
    if (state.status !== "building" || !studio.rendered) { render(state); studio.rendered = true; }
    studio.applied = {generation: state.generation, at: Date.now(), built_at: state.built_at};
  }

  function connect() {
    var source = new EventSource("/api/events");
    source.addEventListener("state", function (e) { apply(JSON.parse(e.data)); });
    source.onerror = function () {
      var status = $("status");
      status.className = "status failed";
      status.textContent = "studio stopped? reconnecting…";
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    ["f-component", "f-group", "f-warned", "f-text"].forEach(function (id) { $(id).addEventListener("input", filter); });
    $("filters").addEventListener("submit", function (e) { e.preventDefault(); });
    connect();
  });
})();
