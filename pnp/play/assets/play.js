// pnp play: the page draws what the server sends (pnp.play.session.Session.view) and sends the person's clicks.
// It holds no rule: the legal actions, their texts, the reasons a move is refused and every drawing come from the
// engine. A click on the board narrows a selection (the actions the clicked places may mean, pnp.registry.PlayView);
// one legal action left is played, several are highlighted in the list, none sends the first to hear why not.
(function () {
  "use strict";
  var view = null, token = "", selection = null, picked = [];
  var $ = function (id) { return document.getElementById(id); };

  function post(path, body) {
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json", "X-Pnp-Token": token},
                        body: JSON.stringify(body || {})})
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (answer.view) show(answer.view);
        say(answer.error || "", !answer.error);
        return answer;
      });
  }

  function say(text, ok) {
    var m = $("message");
    m.textContent = text;
    m.className = ok ? "ok" : "";
  }

  function legalIds() {
    var ids = {};
    (view.actions || []).forEach(function (a) { ids[a.id] = a; });
    return ids;
  }

  function setsOf(el) {
    return el.getAttribute("data-actions").split(/\s+/).filter(Boolean).map(Number);
  }

  function clearPicks() {
    selection = null;
    picked.forEach(function (el) { el.classList.remove("picked"); });
    Array.prototype.forEach.call(document.querySelectorAll("#board .pick-box"), function (box) { box.remove(); });
    picked = [];
    markCandidates([]);
  }

  function markPicked(el) {
    // a frame over what was picked, in its own coordinates (inside a group; beside a shape, with its transform)
    el.classList.add("picked");
    var bb = el.getBBox(), pad = 0.6;
    var box = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    box.setAttribute("class", "pick-box");
    box.setAttribute("pointer-events", "none");
    box.setAttribute("x", bb.x - pad); box.setAttribute("y", bb.y - pad);
    box.setAttribute("width", bb.width + 2 * pad); box.setAttribute("height", bb.height + 2 * pad);
    if (el.tagName.toLowerCase() === "g") { el.appendChild(box); return; }
    if (el.getAttribute("transform")) box.setAttribute("transform", el.getAttribute("transform"));
    el.parentNode.insertBefore(box, el.nextSibling);
  }

  function markCandidates(ids) {
    var wanted = {};
    ids.forEach(function (id) { wanted[id] = true; });
    Array.prototype.forEach.call($("actions").children, function (li) {
      li.classList.toggle("candidate", !!wanted[li.getAttribute("data-id")]);
    });
  }

  function clicked(el) {
    if (!view || !view.yours) { say(view && view.over ? "The game is over." : "Not your turn."); return; }
    var set = setsOf(el);
    var next = selection ? selection.filter(function (a) { return set.indexOf(a) >= 0; }) : set;
    if (!next.length) { clearPicks(); next = set; }
    selection = next;
    picked.push(el);
    markPicked(el);
    var legal = legalIds();
    var left = selection.filter(function (a) { return legal[a]; });
    if (left.length === 1) { play(left[0]); return; }
    if (!left.length) { var first = selection[0]; clearPicks(); play(first); return; }
    markCandidates(left);
    say(left.length + " moves fit: choose one in the list, or click on.", true);
  }

  function play(action) {
    clearPicks();
    return post("/api/play", {action: action});
  }

  function show(v) {
    token = v.token || token;
    if (view && v.version <= view.version) return;  // (an answer that comes after a newer view: old news)
    view = v;
    document.body.setAttribute("data-version", v.version);  // (which view the page shows: the tests wait on it)
    document.title = v.title + " · pnp play";
    $("title").textContent = v.title;
    $("seed").textContent = v.seed;
    $("seats").textContent = v.seats.map(function (s, i) {
      return s.name + " (" + s.who + ")" + (v.to_act === i && !v.over ? " ◀" : "");
    }).join(" · ");
    $("status").textContent = v.over ? "game over" : v.thinking ? "thinking…" :
      v.handing_over !== null ? "hand over to " + v.seats[v.handing_over].name :
      v.yours ? "your move" : v.to_act !== null ? v.seats[v.to_act].name + " to play" : "";
    var board = $("board");
    if (v.svg) { board.innerHTML = v.svg; board.hidden = false; } else { board.textContent = ""; board.hidden = true; }
    $("text").textContent = v.text || "";
    $("text-view").hidden = !v.text;
    if (!v.svg) $("text-view").open = true;  // (the text is the picture of a game that draws none)
    $("handover").hidden = v.handing_over === null;
    if (v.handing_over !== null) {
      $("handover-text").textContent = "Pass the page to " + v.seats[v.handing_over].name + ".";
    }
    var list = $("actions");
    list.textContent = "";
    (v.actions || []).forEach(function (a) {
      var li = document.createElement("li");
      li.setAttribute("data-id", a.id);
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = a.text;
      b.addEventListener("click", function () { play(a.id); });
      li.appendChild(b);
      list.appendChild(li);
    });
    $("hint").hidden = !v.yours;
    var log = $("log");
    log.textContent = "";
    v.log.forEach(function (e) {
      var li = document.createElement("li");
      li.textContent = e.text;
      if (e.player < 0) li.className = "chance";
      log.appendChild(li);
    });
    log.scrollTop = log.scrollHeight;
    $("undo").disabled = !v.can_undo;
    $("export").disabled = !v.position;
    var result = $("result");
    result.hidden = !v.over;
    if (v.over) {
      result.textContent = "Game over: " + v.seats.map(function (s, i) { return s.name + " " + v.returns[i]; }).join(", ");
    }
    if (v.error) say(v.error);
    selection = null; picked = [];
    fillNewGame(v);
  }

  var filled = false;
  function fillNewGame(v) {
    if (filled) return;
    filled = true;
    var players = $("players");
    v.counts.forEach(function (n) {
      var o = document.createElement("option");
      o.value = n; o.textContent = n; o.selected = n === v.players;
      players.appendChild(o);
    });
    function seats() {
      var box = $("seat-choices");
      box.textContent = "";
      for (var i = 0; i < Number(players.value); i++) {
        var label = document.createElement("label");
        label.textContent = "Seat " + (i + 1) + " ";
        var s = document.createElement("select");
        s.className = "seat";
        ["human", "greedy", "random", "mcts:200"].forEach(function (who) {
          var o = document.createElement("option");
          o.value = who; o.textContent = who;
          var was = v.seats[i] ? v.seats[i].who : (i ? "greedy" : "human");
          o.selected = who === was;
          s.appendChild(o);
        });
        label.appendChild(s);
        box.appendChild(label);
      }
    }
    players.addEventListener("change", seats);
    seats();
    $("new-seed").value = v.seed;
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("board").addEventListener("click", function (e) {
      var el = e.target.closest("[data-actions]");
      if (el && $("board").contains(el)) clicked(el);
    });
    $("ready").addEventListener("click", function () { post("/api/ready", {seat: view.handing_over}); });
    $("undo").addEventListener("click", function () { post("/api/undo"); });
    $("export").addEventListener("click", function () {
      fetch("/api/position").then(function (r) { return r.json(); }).then(function (p) {
        var box = $("exported");
        box.hidden = false;
        box.value = p.error ? p.error : (p.diagram ? p.diagram + "\n\n" : "") + JSON.stringify(p.position);
      });
    });
    $("new").addEventListener("submit", function (e) {
      e.preventDefault();
      var seats = Array.prototype.map.call(document.querySelectorAll("select.seat"), function (s) { return s.value; });
      post("/api/new", {players: Number($("players").value), seats: seats, seed: Number($("new-seed").value)});
    });
    fetch("/api/view").then(function (r) { return r.json(); }).then(show);
    var events = new EventSource("/api/events");
    events.addEventListener("view", function (e) { show(JSON.parse(e.data)); });
  });
})();
