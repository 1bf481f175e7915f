// The replay page's script: swaps the engine's per-event values into the one SVG picture.
// No game rule lives here: every position was computed by the engine (formats/html.py).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var events = data.events;
  var last = events.length;
  var svg = document.querySelector("svg.carpet-position");
  var slotEls = Array.prototype.slice.call(svg.querySelectorAll("g.slots > g"));
  var kinds = slotEls.map(function (el) { return el.getAttribute("class").split(" ")[0]; });
  var fieldEls = {};
  Array.prototype.forEach.call(svg.querySelectorAll("[data-field]"), function (el) {
    fieldEls[el.getAttribute("data-field")] = el;
  });
  var RANKS = "A23456789TJQK", SUITS = "CSHD";
  var STATUS = ["playing", "won", "lost"];

  // every frame in full, from the per-event changes
  var frames = [];
  (function () {
    var slots = [], fields = {};
    data.frames.forEach(function (change) {
      slots = slots.slice();
      var s = change[0];
      for (var i = 0; i < s.length; i += 2) slots[s[i]] = s[i + 1];
      fields = Object.assign({}, fields, change[1]);
      frames.push({slots: slots, fields: fields});
    });
  })();

  function isCode(t) {
    return t.length === 2 && RANKS.indexOf(t.charAt(0)) >= 0 && SUITS.indexOf(t.charAt(1)) >= 0;
  }
  function setAttr(el, name, value) {
    if (value === null) el.removeAttribute(name); else el.setAttribute(name, value);
  }
  // the mirror of formats/svg.py apply_slot
  function applySlot(el, kind, value) {
    var classes = [kind], card = null, index = null;
    value.split(" ").forEach(function (t) {
      if (!t) return;
      if (t.charAt(0) === "#") index = t.slice(1);
      else if (isCode(t)) card = t;
      else classes.push(t);
    });
    if (card) classes.splice(1, 0, "card", "HD".indexOf(card.charAt(1)) >= 0 ? "red" : "black");
    else if (classes.length === 1) classes.push("empty");
    el.setAttribute("class", classes.join(" "));
    setAttr(el, "data-card", card);
    setAttr(el, "data-index", index);
    var kids = el.children;
    kids[1].textContent = card ? (card.charAt(0) === "T" ? "10" : card.charAt(0)) : "";
    setAttr(kids[2], "href", card ? "#s" + card.charAt(1) : null);
    setAttr(kids[3], "href", card ? "#s" + card.charAt(1) : null);
  }
  // the mirror of formats/svg.py apply_field
  function applyField(el, name, text) {
    el.textContent = text;
    if (name === "status") el.setAttribute("class", STATUS.indexOf(text) >= 0 ? text : "playing");
  }

  var slider = document.getElementById("slider");
  var now = document.getElementById("now");
  var items = document.querySelectorAll("#actions li");
  var playButton = document.getElementById("play");
  var speed = document.getElementById("speed");
  var shown = frames[0];  // the picture as the page was written
  var current = 0;

  function clockText(ms) {
    var s = Math.floor(ms / 1000);
    return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2) + "." + Math.floor(ms % 1000 / 100);
  }

  function show(k, keepHash) {
    k = Math.max(0, Math.min(last, k | 0));
    var frame = frames[k];
    for (var i = 0; i < slotEls.length; i++) {
      if (frame.slots[i] !== shown.slots[i]) applySlot(slotEls[i], kinds[i], frame.slots[i]);
    }
    Object.keys(frame.fields).forEach(function (name) {
      if (frame.fields[name] !== shown.fields[name] && fieldEls[name]) applyField(fieldEls[name], name, frame.fields[name]);
    });
    shown = frame;
    if (items[current - 1]) { items[current - 1].classList.remove("current"); items[current - 1].removeAttribute("aria-current"); }
    current = k;
    var item = items[k - 1];
    if (item) {
      item.classList.add("current");
      item.setAttribute("aria-current", "step");
      var list = item.parentNode;
      if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = item.offsetTop - list.clientHeight / 2;
      }
    }
    slider.value = String(k);
    now.textContent = k === 0 ? "the deal" :
      "event " + k + " of " + last + ": " + events[k - 1][0] + " at " + clockText(events[k - 1][1]);
    document.body.setAttribute("data-event", String(k));
    if (!keepHash) {
      try { history.replaceState(null, "", "#" + k); } catch (e) { /* a page opened from disk may refuse */ }
    }
  }

  // --- playing ----------------------------------------------------------------------
  var timer = null;
  function clockBefore(k) {  // the session clock at frame k (a restart starts it again)
    if (k === 0 || events[k - 1][0] === "restart") return 0;
    return events[k - 1][1];
  }
  function pauseAfter(k) {
    var factor = Number(speed.value);
    if (!factor) return 100;
    var ms = (events[k][1] - clockBefore(k)) / factor;
    return Math.max(0, Math.min(data.longestPause, ms));
  }
  function stop() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    document.body.removeAttribute("data-playing");
  }
  function tick() {
    if (current >= last) { stop(); return; }
    timer = setTimeout(function () {
      show(current + 1);
      tick();
    }, pauseAfter(current));
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (current >= last) show(0);
    document.body.setAttribute("data-playing", "");
    tick();
  }

  // --- controls ---------------------------------------------------------------------
  function step(k) { stop(); show(k); }
  document.getElementById("first").addEventListener("click", function () { step(0); });
  document.getElementById("prev").addEventListener("click", function () { step(current - 1); });
  document.getElementById("next").addEventListener("click", function () { step(current + 1); });
  document.getElementById("last").addEventListener("click", function () { step(last); });
  playButton.addEventListener("click", play);
  slider.addEventListener("input", function () { step(Number(slider.value)); });
  document.getElementById("actions").addEventListener("click", function (e) {
    var li = e.target.closest ? e.target.closest("li") : null;
    if (li) step(Number(li.getAttribute("data-k")));
  });
  document.addEventListener("keydown", function (e) {
    var target = e.target;
    if (target === slider || target === speed || e.altKey || e.ctrlKey || e.metaKey) return;
    var keys = {ArrowRight: 1, ArrowLeft: -1};
    if (e.key in keys) step(current + keys[e.key]);
    else if (e.key === "Home") step(0);
    else if (e.key === "End") step(last);
    else if (e.key === " " && target.tagName !== "BUTTON") play();
    else return;
    e.preventDefault();
  });

  // --- the address: #K or #event=K ---------------------------------------------------
  function fromHash() {
    var m = /^#(?:event=)?(\d+)$/.exec(location.hash);
    if (m) { stop(); show(Number(m[1]), true); }
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
