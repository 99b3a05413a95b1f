// The still view's script (src/view/still.rs writes STEPS, STARTS, ALIASES, LANGS, LOADING, FAILED and DIR
// before it).
// It reads the link as crate::link::parse does (the query, then the fragment), shows the step it
// names from the pre-rendered steps, lets the reader move between steps, chapters and languages
// before the app arrives (the address kept up to date), and hands the place over to the app.
var root = document.documentElement;
// Inline (the offline single file, nodeline.html), the script has only the step in the page.
var files = !!(document.currentScript && document.currentScript.src);
var params = {};
var search = new URLSearchParams(location.search.replace(/^\?/, ""));
var hash = new URLSearchParams(location.hash.replace(/^#/, ""));
search.forEach(function (v, k) { if (!(k in params)) params[k] = v; });
var seen = {};
hash.forEach(function (v, k) { if (!seen[k]) { params[k] = v; seen[k] = 1; } });
// A link that asks for more than a step of the story as told (actions, a time, another size or
// release, question mode...) is the app's alone. Meanwhile the chapter's step (the one it names,
// else the first) stands dimmed and inert, with a line that says the app is on its way.
var PLAIN = ["chapter", "story", "scheme", "step", "lang", "theme", "embed", "autoplay", "speed", "origin"];
var plain = Object.keys(params).every(function (k) { return PLAIN.indexOf(k) >= 0; });
var first = Object.keys(STEPS)[0];
var idOf = function (c) { return STEPS.hasOwnProperty(c) && String(c).indexOf("story.") !== 0 ? c : ALIASES[c]; };
var primary = function (code) {
  var p = String(code).split(/[-_]/)[0].toLowerCase();
  return LANGS.indexOf(p) >= 0 ? p : null;
};
var prefs = [params.lang].concat(navigator.languages || [], [navigator.language]);
// A story of the site's goes by "story.ID" among the pre-rendered steps; a chapter's own story
// file is the chapter ("?story=node-failure").
var storyChapter = params.story !== undefined && String(params.story).indexOf("story.") !== 0 && STEPS.hasOwnProperty(params.story);
var storyKey = params.story !== undefined && !storyChapter ? "story." + params.story : null;
var built = storyKey !== null && STEPS.hasOwnProperty(storyKey);
var state = {
  chapter: built ? storyKey : storyChapter ? params.story : idOf(params.chapter || params.scheme) || first,
  lang: prefs.map(function (c) { return c ? primary(c) : null; }).filter(Boolean)[0] || LANGS[0],
  step: /^[0-9]+$/.test(params.step || "") ? Number(params.step) : 1
};
// A link that names a time and no step stands at the step that time falls in, as the app will
// (the last step started by then), when nothing else in the link changes the chapter's story.
var millis = function (text) {
  var units = { h: 3600000, m: 60000, s: 1000, ms: 1, us: 0.001, "µs": 0.001, ns: 0.000001 };
  var all = /^((\d+(\.\d+)?)(h|ms|m|s|us|µs|ns))+$/.test(text) || text === "0";
  if (!all) return -1;
  var total = 0;
  text.replace(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g, function (_, n, u) { total += Number(n) * units[u]; return ""; });
  return total;
};
var asTold = ["actions", "k8s", "nodes", "shutdownGracePeriod", "shutdownGracePeriodCriticalPods"];
if (params.t !== undefined && params.step === undefined && asTold.every(function (k) { return params[k] === undefined; })) {
  var at = millis(params.t);
  (STARTS[state.chapter] || []).forEach(function (start, i) { if (start >= 0 && at >= start) state.step = i + 1; });
}
if (state.step < 1 || state.step > STEPS[state.chapter]) state.step = 1;
var embed = params.embed === "1" || params.embed === "true";
if (params.theme === "light" || params.theme === "dark") root.setAttribute("data-theme", params.theme);
if (embed) root.setAttribute("data-embed", "");
root.setAttribute("lang", state.lang);
var other = state.chapter !== first || state.lang !== LANGS[0] || state.step !== 1;
// Without WebAssembly the app never comes: the still view is the page, and moves as told.
var loading = !plain && typeof WebAssembly === "object";
var status = null;
// A story of the site's that the build did not pre-render (a file put in the site's stories/
// since): the line alone until the app has read it (without WebAssembly, the first chapter as
// told).
var story = storyKey !== null && !built && typeof WebAssembly === "object";
if ((other && !files) || story) {
  // The single file carries only the first step: the line alone until the app starts.
  loading = true;
  root.setAttribute("data-still-off", "");
  // Not shown, so not in the page either (the page's labels and landmarks are the app's).
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-still]").forEach(function (e) { e.remove(); });
  });
} else {
  root.setAttribute("data-still-on", "");
}
if (loading) root.setAttribute("data-still-loading", "");

// The pre-rendered chapters: the one in the page, and those the chapter files bring.
var views = {};
var pending = {};
var key = function (c, l, n) { return c + "." + l + "." + n; };
var take = function () {
  (self.nodelineStill || []).forEach(function (d) { views[key(d.c, d.l, d.n)] = d; });
  self.nodelineStill = [];
};
var load = function (c, l, n) {
  var k = key(c, l, n);
  if (views[k] || pending[k] || !files || !STEPS[c] || n < 1 || n > STEPS[c]) return;
  pending[k] = 1;
  var s = document.createElement("script");
  s.src = "./" + DIR + "/" + k + ".js";
  s.onerror = function () { delete pending[k]; done(); };
  document.head.appendChild(s);
};
var wanted = function () { return views[key(state.chapter, state.lang, state.step)]; };
var inPage = function () {
  var main = document.querySelector("main[data-still]");
  return main && main.getAttribute("data-chapter") === state.chapter &&
    main.getAttribute("data-lang") === state.lang && main.getAttribute("data-step") === String(state.step);
};
var ready = false;
var done = function () {
  take();
  if (!ready || taken) return;
  if (!inPage() && wanted()) show();
  if (inPage() || !pending[key(state.chapter, state.lang, state.step)]) {
    // Shown, or nothing better to show (a file that could not be read: the app will come).
    root.removeAttribute("data-still-wait");
    lay();
  }
};
if (other) {
  root.setAttribute("data-still-wait", "");
  load(state.chapter, state.lang, state.step);
}
document.addEventListener("nodeline-still", done);

// Puts the wanted step in place of the one shown.
var show = function () {
  var d = wanted();
  var main = document.querySelector("main[data-still]");
  var header = document.querySelector("header[data-still]");
  if (!d || !main) return;
  main.outerHTML = d.s;
  if (header) header.outerHTML = d.h;
  root.setAttribute("lang", state.lang);
};

// The step marks' places on a track `width` wide, each `size` wide, as crate::view::track's
// lay_out_marks and spread place them (marks too close to spread stand together, where the app
// groups them in one menu).
var layOut = function (wanted, width, size) {
  var groups = wanted.map(function (w, i) { return [i, i]; });
  var centre = function (g) { return (wanted[g[0]] + wanted[g[1]]) / 2; };
  if (width > 0 && size > 0) {
    var room = Math.max(1, Math.floor(width / size));
    while (groups.length > room) {
      var k = 0;
      for (var i = 1; i < groups.length - 1; i++) {
        if (centre(groups[i + 1]) - centre(groups[i]) < centre(groups[k + 1]) - centre(groups[k])) k = i;
      }
      groups[k][1] = groups[k + 1][1];
      groups.splice(k + 1, 1);
    }
  }
  var n = groups.length;
  var x = groups.map(centre);
  if (n) {
    size = Math.min(size, width / n);
    var lo = size / 2, hi = Math.max(width - size / 2, size / 2);
    x = x.map(function (v) { return Math.min(Math.max(v, lo), hi); });
    for (var j = 1; j < n; j++) x[j] = Math.max(x[j], x[j - 1] + size);
    if (x[n - 1] > hi) {
      x[n - 1] = hi;
      for (var l = n - 2; l >= 0; l--) x[l] = Math.min(x[l], x[l + 1] - size);
    }
  }
  var out = [];
  groups.forEach(function (g, i) { for (var m = g[0]; m <= g[1]; m++) out.push(x[i]); });
  return out;
};

// What the markup cannot say: the positions along the timeline, which drawing fits the stage.
var lay = function () {
  var main = document.querySelector("main[data-still]");
  if (!main) return;
  main.id = "story";
  // Busy while the app is on its way; without WebAssembly it never comes: the still view is the
  // page, and assistive technologies should not wait for it.
  if (typeof WebAssembly !== "object") main.removeAttribute("aria-busy");
  if (loading) {
    // Not the story the link asks for: seen, not used.
    main.setAttribute("inert", "");
    var top = document.querySelector("header[data-still]");
    if (top) top.setAttribute("inert", "");
  }
  if (embed) {
    main.classList.add("embed");
    var header = document.querySelector("header[data-still]");
    if (header) header.remove();
  }
  var stage = main.querySelector(".stage");
  if (stage) {
    var w = stage.clientWidth;
    var narrow = w > 0 && (w < 600 || innerWidth < 768);
    stage.setAttribute("data-layout", narrow ? "narrow" : "wide");
  }
  var track = main.querySelector(".tl-track");
  var width = track ? track.clientWidth : 0;
  var marks = Array.prototype.slice.call(main.querySelectorAll(".tl-markers [data-x]"));
  var wanted = marks.map(function (m) { return Number(m.getAttribute("data-x")) * width; });
  var slots = layOut(wanted, width, matchMedia("(max-width: 767px)").matches ? 44 : 32);
  var pins = "";
  marks.forEach(function (m, i) {
    var x = slots[i];
    m.style.left = x.toFixed(1) + "px";
    if (m.hasAttribute("data-clock")) pins += "M" + x.toFixed(1) + " 0L" + wanted[i].toFixed(1) + " 10";
  });
  var path = main.querySelector(".tl-pins path");
  if (path) path.setAttribute("d", pins);
  main.querySelectorAll(".tl-scrub [data-x]").forEach(function (e) {
    e.style.left = (Number(e.getAttribute("data-x")) * 100).toFixed(3) + "%";
  });
  var played = main.querySelector(".tl-played");
  if (played) played.style.width = (Number(played.getAttribute("data-w")) * 100).toFixed(3) + "%";
  if (!root.hasAttribute("data-still-ready") && self.performance && performance.mark) {
    // The first view is complete (`cargo xtask bench` counts the bytes fetched before it).
    performance.mark("nodeline-still-shown");
  }
  if (!root.hasAttribute("data-still-ready")) document.dispatchEvent(new Event("nodeline-still-shown"));
  root.setAttribute("data-still-ready", "");
  // The step after this one, at hand for "Next step".
  load(state.chapter, state.lang, state.step + 1);
  if (refocus) {
    var again = main.parentNode.querySelector("[data-still] " + refocus);
    refocus = null;
    if (again) again.focus();
  }
};
var refocus = null;
addEventListener("resize", function () { if (!taken) lay(); });

// The address of what is shown (the app reads it when it arrives).
var address = function (play) {
  var q = new URLSearchParams();
  if (state.chapter.indexOf("story.") === 0) q.set("story", state.chapter.slice(6));
  else q.set("chapter", state.chapter);
  if (state.step > 1 || play) q.set("step", String(state.step));
  q.set("lang", state.lang);
  if (state.step > 1 && !play) q.set("autoplay", "0");
  ["theme", "embed", "speed", "origin"].forEach(function (k) { if (params[k]) q.set(k, params[k]); });
  history.replaceState(null, "", "?" + q.toString());
};
var go = function (chapter, lang, step, play) {
  state.chapter = chapter;
  state.lang = lang;
  state.step = Math.max(1, Math.min(step, STEPS[chapter]));
  address(play);
  if (wanted()) {
    show();
    lay();
  } else {
    load(chapter, state.lang, state.step);
  }
};

var taken = false;
document.addEventListener("click", function (e) {
  if (!files || taken || e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  var t = e.target.closest && e.target.closest("[data-still] a, [data-still] button");
  if (!t) return;
  var n;
  var attr = ["data-go", "data-play", "data-step", "data-chapter", "data-lang"].filter(function (a) {
    return t.hasAttribute(a);
  })[0];
  var place = t.closest(".step-list, .tl-markers, .site-header, .play-from, .tl-transport");
  if (t.classList.contains("narration-toggle")) {
    var open = t.getAttribute("aria-expanded") !== "true";
    t.setAttribute("aria-expanded", String(open));
    t.closest(".narration").classList.toggle("open", open);
    return;
  } else if (t.classList.contains("tl-play")) {
    address(true);
    e.preventDefault();
    return;
  } else if (t.hasAttribute("data-go")) {
    if (t.getAttribute("aria-disabled") === "true") return;
    n = state.step + Number(t.getAttribute("data-go"));
    go(state.chapter, state.lang, n, false);
  } else if (t.hasAttribute("data-play")) {
    go(state.chapter, state.lang, Number(t.getAttribute("data-play")), true);
  } else if (t.hasAttribute("data-step")) {
    go(state.chapter, state.lang, Number(t.getAttribute("data-step")), false);
  } else if (t.hasAttribute("data-chapter")) {
    go(t.getAttribute("data-chapter"), state.lang, 1, false);
  } else if (t.hasAttribute("data-lang")) {
    go(state.chapter, t.getAttribute("data-lang"), state.step, false);
  } else {
    return;
  }
  e.preventDefault();
  // The control the reader used keeps the focus in the new step.
  var value = attr === "data-step" ? String(state.step) : t.getAttribute(attr);
  refocus = (place ? "." + place.classList[0] + " " : "") + "[" + attr + "=\"" + value + "\"]";
  if (wanted()) lay();
});

// The app's arrival: its page takes the still view's place in the same frame. The still
// timeline stands in the app's until the app mounts its own; the focus goes to the same place.
var pathOf = function (el, top) {
  var path = [];
  while (el && el !== top) {
    path.unshift(Array.prototype.indexOf.call(el.parentNode.children, el));
    el = el.parentNode;
  }
  return el === top ? path : null;
};
var at = function (top, path) {
  var el = top;
  for (var i = 0; el && i < path.length; i++) el = el.children[path[i]];
  return el;
};
var arrive = function (appMain) {
  taken = true;
  var main = document.querySelector("main[data-still]");
  var header = document.querySelector("header[data-still]");
  var active = document.activeElement;
  var focus = null;
  [main, header].forEach(function (top) {
    if (top && !focus && active && top.contains(active)) focus = { top: top.tagName, path: pathOf(active, top) };
  });
  var timeline = main && main.querySelector(".timeline");
  var column = appMain.querySelector(".col-main");
  // The fleet is drawn again for the width the app measures, a frame later: a timeline under it
  // would move, so the app's own comes when the fleet has its height.
  var fleet = appMain.querySelector(".fleet-stage");
  if (timeline && column && !fleet && !column.querySelector(".timeline")) {
    column.appendChild(timeline);
    var own = new MutationObserver(function () {
      var all = column.querySelectorAll(".timeline");
      if (all.length > 1) {
        var path = timeline.contains(document.activeElement) ? pathOf(document.activeElement, timeline) : null;
        timeline.remove();
        own.disconnect();
        var target = path && at(all[all.length - 1], path);
        if (target && target.focus) target.focus();
      }
    });
    own.observe(column, { childList: true });
  }
  if (main) main.remove();
  if (header) header.remove();
  if (status) status.remove();
  root.removeAttribute("data-still-on");
  root.removeAttribute("data-still-loading");
  if (focus && focus.path) {
    var target = at(document.querySelector(focus.top === "MAIN" ? "main#story" : "header.site-header"), focus.path);
    if (target && target.focus) target.focus();
  }
};
var watch = new MutationObserver(function (records) {
  records.forEach(function (r) {
    r.addedNodes.forEach(function (n) {
      if (!taken && n.nodeName === "MAIN" && !n.hasAttribute("data-still")) {
        watch.disconnect();
        arrive(n);
      }
    });
  });
});

var start = function () {
  ready = true;
  // The offline single file runs the app as it loads: its page may be there already.
  var mounted = document.querySelector("main:not([data-still])");
  if (mounted) {
    arrive(mounted);
    return;
  }
  if (loading) {
    status = document.createElement("p");
    status.className = "still-status";
    status.setAttribute("role", "status");
    status.textContent = LOADING[state.lang];
    document.body.insertBefore(status, document.body.firstChild);
  }
  done();
  watch.observe(document.body, { childList: true });
};
// The app could not start (its WebAssembly was not fetched or not compiled: the loader says so
// with this event): the still view is the page and moves as told, with a line that says why.
document.addEventListener("nodeline-app-failed", function () {
  if (taken) return;
  loading = false;
  root.removeAttribute("data-still-loading");
  var main = document.querySelector("main[data-still]");
  if (main) main.removeAttribute("aria-busy");
  document.querySelectorAll("[data-still][inert]").forEach(function (e) { e.removeAttribute("inert"); });
  if (!status) {
    status = document.createElement("p");
    status.className = "still-status";
    status.setAttribute("role", "status");
    document.body.insertBefore(status, document.body.firstChild);
  }
  status.textContent = FAILED[state.lang];
});
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
