/* Warscribe's search: titles first, then the words of the pages.
 *
 * The index is written by `warscribe build` (site/search.py):
 *   search/titles.json   every page's title, kind, context and URL (fetched when a search box
 *                        is first focused, hovered or touched)
 *   search/words/XX.json the pages each word of their text appears in, one file per first two
 *                        letters (fetched for the words of a query, after the titles' results show)
 * A title typed as it is written ranks its page first (ties between pages of one title go by
 * kind: faction, datasheet, stratagem, detachment, enhancement, ability, rule, weapon, keyword);
 * brackets, case, accents and apostrophes do not count; a word one letter off (two, for long
 * words) still matches. tokens() must agree with search.py's tokens(); a test holds them together.
 * Legends datasheets (titles.json's "legends": page numbers) rank as any page; a player may hide
 * them with the box's "Show Legends" checkbox, remembered in this browser (localStorage).
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var ROOT = script ? script.src.replace(/assets\/warscribe-search\.js(\?.*)?$/, "") : "/";
  var LIMIT = 30;

  function tokens(text) {
    return String(text).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/['’‘`´ʼ]/g, "").split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  }
  function shardOf(term) {
    var out = "";
    for (var i = 0; i < Math.min(2, term.length); i++) {
      var c = term[i];
      out += /[a-z0-9]/.test(c) ? c : "_" + c.codePointAt(0).toString(16);
    }
    return out;
  }
  // Optimal string alignment distance, given up past `max`.
  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev2 = null, prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var low = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
        cur[j] = v;
        if (v < low) low = v;
      }
      if (low > max) return max + 1;
      prev2 = prev;
      prev = cur;
    }
    return prev[b.length];
  }
  function allowed(word) { return word.length >= 8 ? 2 : word.length >= 4 ? 1 : 0; }

  // Legends shown unless the player hid them: a player who owns the models looks them up by name,
  // and each result already says "Legends" in its context.
  var LEGENDS_KEY = "warscribe.search.legends";
  function storedHide() {
    try { return window.localStorage.getItem(LEGENDS_KEY) === "hidden"; } catch (e) { return false; }
  }
  var hideLegends = storedHide(), boxes = [];
  function legendsChanged() { boxes.forEach(function (box) { box.legendsChanged(); }); }
  function setHideLegends(hide) {
    hideLegends = hide;
    // Storage can be refused (a private window, a blocked site): the choice then lasts the page.
    try { window.localStorage.setItem(LEGENDS_KEY, hide ? "hidden" : "shown"); } catch (e) { /* kept in memory */ }
    legendsChanged();
  }
  window.addEventListener("storage", function (e) {
    if (e.key === LEGENDS_KEY) { hideLegends = storedHide(); legendsChanged(); }
  });

  var index = null, loading = null, shards = {}, STOP = {};
  ("a an and any are as at be by can each for from has have if in into is it its of on one or that the their " +
   "them then this those to until was when which while with within you your").split(" ").forEach(function (w) { STOP[w] = 1; });

  function load() {
    if (!loading) {
      loading = fetch(ROOT + "search/titles.json").then(function (r) {
        if (!r.ok) throw new Error("search index: HTTP " + r.status);
        return r.json();
      }).then(function (data) {
        var legends = new Set(data.legends || []);
        var vocab = new Map(), pages = data.pages.map(function (row, n) {
          var names = [row[0]].concat(row[4] || []).map(function (t) { return tokens(t); });
          names.forEach(function (words) {
            words.forEach(function (w) {
              var list = vocab.get(w);
              if (!list) vocab.set(w, list = []);
              if (list[list.length - 1] !== n) list.push(n);
            });
          });
          return { title: row[0], kind: row[1], context: data.contexts[row[2]], url: row[3], names: names,
                   joined: names.map(function (w) { return w.join(" "); }), legends: legends.has(n) };
        });
        index = { pages: pages, vocab: vocab, words: Array.from(vocab.keys()), labels: data.labels,
                  shards: new Set(data.shards) };
        return index;
      });
      loading.catch(function () { loading = null; });
    }
    return loading;
  }
  function shard(key) {
    if (!index || !index.shards.has(key)) return Promise.resolve({});
    if (!shards[key]) {
      shards[key] = fetch(ROOT + "search/words/" + key + ".json").then(function (r) { return r.ok ? r.json() : {}; })
        .catch(function () { delete shards[key]; return {}; });
    }
    return shards[key];
  }
  function postings(text) {
    var out = [], n = 0;
    text.split(",").forEach(function (d) { n += parseInt(d, 36); out.push(n); });
    return out;
  }

  // How well one query word matches the titles' words: page -> quality (3 exact, 2 prefix, 1 / 0.5 near).
  function titleMatches(word, isLast) {
    var found = new Map(), max = allowed(word);
    function mark(list, q) { list.forEach(function (p) { if ((found.get(p) || 0) < q) found.set(p, q); }); }
    var exact = index.vocab.get(word);
    if (exact) mark(exact, 3);
    index.words.forEach(function (w) {
      if (w === word) return;
      if (w.length > word.length && w.lastIndexOf(word, 0) === 0 && (isLast || word.length >= 3)) {
        mark(index.vocab.get(w), 2);
      } else if (max) {
        var d = distance(word, w, max);
        if (d <= max) mark(index.vocab.get(w), d === 1 ? 1 : 0.5);
      }
    });
    return found;
  }
  function nameScore(words, joined, query, qWords) {
    if (joined === query) return 1000;
    if (joined.lastIndexOf(query, 0) === 0) return 900 - (joined.length - query.length);
    // Every query word matched one of the title's words: fewer words left over rank higher.
    var inOrder = (" " + joined + " ").indexOf(" " + query) >= 0 ? 20 : 0;
    return 500 + inOrder - 5 * Math.max(0, words.length - qWords.length);
  }
  // `hide`: leave Legends datasheets out (counted in `hidden`, remembered in `hiddenPages`).
  function search(text, hide) {
    var qWords = tokens(text);
    if (!qWords.length || !index) return { results: [], words: [], total: 0, hidden: 0, hiddenPages: new Set() };
    var endsOpen = !/\s$/.test(text), query = qWords.join(" ");
    var per = qWords.map(function (w, i) { return titleMatches(w, endsOpen && i === qWords.length - 1); });
    var scored = [], hiddenPages = new Set();
    per[0].forEach(function (q0, p) {
      var quality = q0;
      for (var i = 1; i < per.length; i++) {
        var q = per[i].get(p);
        if (q === undefined) return;
        quality += q;
      }
      var page = index.pages[p], best = -1;
      if (hide && page.legends) { hiddenPages.add(p); return; }
      for (var k = 0; k < page.names.length; k++) best = Math.max(best, nameScore(page.names[k], page.joined[k], query, qWords));
      scored.push({ p: p, score: best + 10 * quality });
    });
    scored.sort(order);
    return { results: scored.slice(0, LIMIT).map(function (s) { return s.p; }), words: qWords, endsOpen: endsOpen,
             title: per, total: scored.length, hidden: hiddenPages.size, hiddenPages: hiddenPages };
  }
  function order(a, b) {
    if (b.score !== a.score) return b.score - a.score;
    var pa = index.pages[a.p], pb = index.pages[b.p];
    if (pa.kind !== pb.kind) return pa.kind - pb.kind;
    if (pa.title.length !== pb.title.length) return pa.title.length - pb.title.length;
    return pa.title < pb.title ? -1 : pa.title > pb.title ? 1 : a.p - b.p;
  }
  // Pages whose text (or title) holds every word of the query: after the titles' results.
  // {pages: the first LIMIT, total: how many (titles past the titles' LIMIT among them), hidden:
  // Legends datasheets left out that the titles' search had not counted}.
  function searchWords(found, hide) {
    var words = found.words.filter(function (w) { return w.length >= 2 && !STOP[w]; });
    if (!words.length) return Promise.resolve({ pages: [], total: found.total - found.results.length, hidden: 0 });
    return Promise.all(words.map(function (w) { return shard(shardOf(w)); })).then(function (loaded) {
      var sets = words.map(function (w, i) {
        var terms = loaded[i], pages = new Set();
        var open = found.endsOpen && i === words.length - 1 && w.length >= 3;
        Object.keys(terms).forEach(function (t) {
          if (t === w || (open && t.lastIndexOf(w, 0) === 0)) postings(terms[t]).forEach(function (p) { pages.add(p); });
        });
        var inTitles = found.title[found.words.indexOf(w)];
        if (inTitles) inTitles.forEach(function (_q, p) { pages.add(p); });
        return pages;
      });
      var shown = new Set(found.results), out = [], hidden = 0;
      sets[0].forEach(function (p) {
        if (shown.has(p)) return;
        for (var i = 1; i < sets.length; i++) if (!sets[i].has(p)) return;
        if (hide && index.pages[p].legends) { if (!found.hiddenPages.has(p)) hidden++; return; }
        out.push({ p: p, score: 0 });
      });
      out.sort(order);
      return { pages: out.slice(0, LIMIT).map(function (s) { return s.p; }), total: out.length, hidden: hidden };
    });
  }

  // -- the boxes ------------------------------------------------------------------------

  function SearchBox(root) {
    var input = root.querySelector(".ws-search__input"), list = root.querySelector(".ws-search__results");
    var selected = -1, serial = 0, self = this;
    // Above the results: how many, and the Legends toggle; built here, so a box is an input and a list.
    var drop = document.createElement("div"), bar = document.createElement("div");
    var count = document.createElement("span"), label = document.createElement("label");
    var toggle = document.createElement("input");
    drop.className = "ws-search__drop";
    bar.className = "ws-search__bar";
    count.className = "ws-search__count";
    count.setAttribute("role", "status");
    label.className = "ws-search__legends";
    label.title = "Legends datasheets: kept for those who own the models, not in matched play's tournament lists";
    toggle.type = "checkbox";
    toggle.className = "ws-search__legends-toggle";
    toggle.checked = !hideLegends;
    label.appendChild(toggle);
    label.appendChild(document.createTextNode(" Show Legends"));
    bar.appendChild(count);
    bar.appendChild(label);
    list.parentNode.insertBefore(drop, list);
    drop.appendChild(bar);
    drop.appendChild(list);
    root.setAttribute("data-ws-legends", hideLegends ? "hidden" : "shown");
    list.id = list.id || "ws-results-" + Math.random().toString(36).slice(2);
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("aria-autocomplete", "list");
    function item(p, words) {
      var page = index.pages[p], li = document.createElement("li"), a = document.createElement("a");
      li.className = "ws-search__item" + (words ? " ws-search__item--text" : "");
      li.setAttribute("role", "option");
      a.href = ROOT + page.url;
      a.className = "ws-search__link";
      var title = document.createElement("span");
      title.className = "ws-search__title";
      title.textContent = page.title;
      var kind = document.createElement("span");
      kind.className = "ws-search__kind";
      kind.textContent = index.labels[page.kind];
      a.appendChild(title);
      a.appendChild(kind);
      if (page.context) {
        var ctx = document.createElement("span");
        ctx.className = "ws-search__context";
        ctx.textContent = page.context;
        a.appendChild(ctx);
      }
      li.appendChild(a);
      return li;
    }
    function note(text) {
      var li = document.createElement("li");
      li.className = "ws-search__note";
      li.textContent = text;
      list.appendChild(li);
    }
    function counted(shown, total, hidden) {
      var text = (shown === total ? String(total) : shown + " of " + total) + (total === 1 ? " result" : " results");
      return hidden ? text + ", " + hidden + " Legends hidden" : text;
    }
    function show(found, more, text) {
      list.textContent = "";
      selected = -1;
      found.results.forEach(function (p) { list.appendChild(item(p, false)); });
      (more ? more.pages : []).forEach(function (p) { list.appendChild(item(p, true)); });
      if (more) {
        var hidden = found.hidden + more.hidden;
        count.textContent = counted(found.results.length + more.pages.length, found.results.length + more.total, hidden);
        if (!found.results.length && !more.pages.length) {
          note(hidden ? "Only Legends datasheets have these words: tick “Show Legends” to see them." : "No page has these words.");
        }
      }
      root.classList.toggle("ws-search--results", list.children.length > 0);
      root.setAttribute("data-ws-state", more ? "done" : "titles");
      self.answered = more ? text : null;  // what the list now answers in full (tests wait for it)
    }
    function run() {
      var text = input.value, mine = ++serial, hide = hideLegends;
      self.answered = null;
      if (!tokens(text).length) {
        list.textContent = "";
        count.textContent = "";
        root.classList.remove("ws-search--results");
        return;
      }
      load().then(function () {
        if (mine !== serial) return;
        var found = search(text, hide);
        show(found, null, text);
        searchWords(found, hide).then(function (more) { if (mine === serial) show(found, more, text); });
      }).catch(function (err) {
        list.textContent = "";
        note("Search is unavailable: " + err.message);
      });
    }
    function move(step) {
      var items = list.querySelectorAll(".ws-search__item");
      if (!items.length) return;
      if (selected >= 0 && items[selected]) items[selected].classList.remove("ws-search__item--selected");
      selected = (selected + step + items.length) % items.length;
      items[selected].classList.add("ws-search__item--selected");
      items[selected].scrollIntoView({ block: "nearest" });
    }
    input.addEventListener("input", run);
    ["focus", "pointerenter", "touchstart"].forEach(function (e) { input.addEventListener(e, function () { load(); }); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown") { e.preventDefault(); move(1); }
      else if (e.key === "ArrowUp") { e.preventDefault(); move(-1); }
      else if (e.key === "Enter") {
        var items = list.querySelectorAll(".ws-search__item a");
        var target = items[selected >= 0 ? selected : 0];
        if (target) { e.preventDefault(); target.click(); self.close(); }
      } else if (e.key === "Escape") { self.close(); input.blur(); }
    });
    list.addEventListener("click", function (e) { if (e.target.closest("a")) self.close(); });
    // A click on the bar keeps the focus in the input: the header's results stay open (they show
    // while the box holds the focus) and the player types on. Tab reaches the checkbox too.
    bar.addEventListener("mousedown", function (e) { e.preventDefault(); });
    toggle.addEventListener("change", function () { setHideLegends(!toggle.checked); });
    this.legendsChanged = function () {
      toggle.checked = !hideLegends;
      root.setAttribute("data-ws-legends", hideLegends ? "hidden" : "shown");
      if (tokens(input.value).length) run();
    };
    boxes.push(this);
    this.root = root;
    this.input = input;
    root.wsSearch = this;
    this.close = function () {
      root.classList.remove("ws-search--open");
      if (!root.classList.contains("ws-search--inline")) root.classList.remove("ws-search--results");
    };
  }

  var ICON = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9.5 3A6.5 6.5 0 0 1 16 9.5c0 1.61-.59 3.09-1.56 ' +
    '4.23l.27.27h.79l5 5-1.5 1.5-5-5v-.79l-.27-.27A6.52 6.52 0 0 1 9.5 16 6.5 6.5 0 0 1 3 9.5 6.5 6.5 0 0 1 9.5 3m0 ' +
    '2C7 5 5 7 5 9.5S7 14 9.5 14 14 12 14 9.5 12 5 9.5 5Z"/></svg>';

  // The header's box: an input on a wide screen, a button that opens it over the page on a phone.
  function headerBox() {
    var inner = document.querySelector(".md-header__inner");
    if (!inner || inner.querySelector(".ws-search--header")) return null;
    var root = document.createElement("div");
    root.className = "ws-search ws-search--header";
    root.setAttribute("role", "search");
    root.innerHTML = '<button type="button" class="ws-search__open md-header__button md-icon" aria-label="Search">' + ICON +
      '</button><div class="ws-search__panel"><input type="search" class="ws-search__input" ' +
      'placeholder="Search" aria-label="Search the rules" autocomplete="off" spellcheck="false">' +
      '<button type="button" class="ws-search__close" aria-label="Close search">×</button>' +
      '<ol class="ws-search__results" role="listbox" aria-label="Search results"></ol></div>';
    var before = inner.querySelector(".md-header__option, .md-header__source");
    inner.insertBefore(root, before && before.parentNode === inner ? before : null);
    var box = new SearchBox(root);
    root.querySelector(".ws-search__open").addEventListener("click", function () {
      root.classList.add("ws-search--open");
      box.input.focus();
    });
    root.querySelector(".ws-search__close").addEventListener("click", function () { box.close(); });
    return box;
  }

  var header = null;
  function setup() {
    header = headerBox() || header;
    document.querySelectorAll("[data-ws-search]:not([data-ws-ready])").forEach(function (root) {
      root.setAttribute("data-ws-ready", "");
      new SearchBox(root);
    });
  }
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))) return;
    if (!header) return;
    e.preventDefault();
    header.root.classList.add("ws-search--open");
    header.input.focus();
  });
  document.addEventListener("click", function (e) {
    if (header && !e.target.closest(".ws-search--header")) header.close();
  });
  // Should the theme swap pages without reloading them (navigation.instant), set up each new one.
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(setup);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
  // Every result, Legends included whatever the boxes show (the tests' and benchmarks' ranking).
  window.warscribeSearch = { tokens: tokens, shardOf: shardOf, load: load, search: function (text) {
    return load().then(function () {
      var found = search(text, false);
      return searchWords(found, false).then(function (more) {
        return found.results.concat(more.pages).map(function (p) { return index.pages[p].url; });
      });
    });
  } };
})();
