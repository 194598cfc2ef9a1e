// The page of `vzero serve`: boards drawn as SVG from the cells the API gives, moves by
// clicking a piece then a target, the engine's search polled while it runs, and run views.
// No libraries, no build step: the server compiles this file into the binary.
(function () {
  'use strict';
  // Pixels per diagram unit (a cell's radius), as `vzero render` draws; the colours come with
  // the board from the server (`shades`, `seats`).
  var UNIT = 24;
  var POLL_MS = 300;
  var RUN_POLL_MS = 5000;
  // The smallest cell drawn, in pixels: a board in panels (Weltschach's eight levels) on a
  // narrow page stacks them in fewer columns rather than draw its cells smaller.
  var MIN_CELL_PX = 18;
  // The time controls a seat may get at New game: minutes for the game + seconds a move.
  var CLOCKS = ['1+0', '3+2', '5+3', '10+5', '15+10', '30+20'];

  var state = {
    board: null, game: null, lastJson: '', flipped: false, selected: null,
    players: [], busy: false, run: null, runTimer: null, lost: false,
    // The ply the board shows when the move list is stepped back (null: the game now), and
    // that position as the server drew it.
    view: null, viewed: null
  };

  function $(id) { return document.getElementById(id); }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }

  function message(text) { $('message').textContent = text || ''; }

  // A request to the server; rejects with the server's one-line message.
  function api(method, path, body) {
    var init = {method: method, headers: {}};
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) { throw new Error(j.error || ('HTTP ' + r.status)); }
        return j;
      });
    });
  }

  // ---- setting up a game ----

  function loadVariants() {
    return api('GET', '/api/variants').then(function (j) {
      var select = $('variant');
      select.innerHTML = j.variants.map(function (v) {
        return '<option value="' + esc(v.name) + '" title="' + esc(v.summary) + '">' + esc(v.name) + '</option>';
      }).join('');
      state.variants = j.variants;
    });
  }

  function variantInfo(name) {
    return state.variants.filter(function (v) { return v.name === name; })[0];
  }

  // The seat selects and the analysis networks of the chosen variant (its board first: the
  // seats' colours).
  function loadPlayers() {
    var name = $('variant').value;
    var info = variantInfo(name);
    return Promise.all([ensureBoard(name), api('GET', '/api/players?variant=' + encodeURIComponent(name))]).then(function (got) {
      var j = got[1];
      state.players = j.players;
      var options = j.players.map(function (p) {
        return '<option value="' + esc(p.text) + '">' + esc(p.label) + '</option>';
      }).join('');
      var html = '';
      for (var s = 0; s < info.players; s++) {
        // Each seat's own network visits, used when that seat is a network.
        html += '<span class="seat-choice"><label>' + swatch(s) + esc(seatLabel(info.seats, s)) +
          ' <select id="seat-' + s + '" class="seat" data-seat="' + s + '">' + options + '</select></label> ' +
          '<label>sims <input id="seat-sims-' + s + '" class="seat-sims" type="number" min="1" step="1" value="' +
          esc(String(j.sims)) + '"></label>' +
          '<label>clock <select id="seat-clock-' + s + '" class="seat-clock"><option value="">none</option>' +
          CLOCKS.map(function (c) { return '<option value="' + c + '">' + c + '</option>'; }).join('') +
          '</select></label></span> ';
      }
      $('seats').innerHTML = html;
      for (var t = 0; t < info.players; t++) {
        $('seat-' + t).value = t === 0 ? 'you' : (j.engine || 'random');
        simsFor(t);
      }
      $('analyse-model').innerHTML = j.players.filter(function (p) { return p.model; }).map(function (p) {
        return '<option value="' + esc(p.model) + '">' + esc(p.label) + '</option>';
      }).join('');
    });
  }

  // The choice of seat `s`'s select.
  function seatChoice(s) {
    var text = $('seat-' + s).value;
    return state.players.filter(function (p) { return p.text === text; })[0];
  }

  // A seat's sims field is used only when the seat is a network: otherwise it is greyed out.
  function simsFor(s) {
    var choice = seatChoice(s);
    $('seat-sims-' + s).disabled = !(choice && choice.model);
  }

  // Seat `s` named for people: its name, and its colour where the name is none (Wellisch's P1
  // is white).
  function seatLabel(names, s) {
    var name = names[s] || ('seat ' + (s + 1));
    var colour = state.board && state.board.colours[s];
    return !colour || name.toLowerCase() === colour ? name : name + ' (' + colour + ')';
  }

  // A disc of seat `s`'s colours, as its pieces are drawn.
  function swatch(s) {
    var colours = state.board && state.board.seats[s];
    if (!colours) { return ''; }
    return '<span class="swatch" style="background:' + colours[0] + ';border-color:' + colours[1] + '"></span>';
  }

  // A seat's player as the server reads it: a network's visits from that seat's sims field.
  function seatPlayer(s) {
    var text = $('seat-' + s).value;
    var choice = seatChoice(s);
    if (choice && choice.model) {
      var sims = parseInt($('seat-sims-' + s).value, 10);
      if (sims > 0) { text = text.replace(/:\d+$/, '') + ':' + sims; }
    }
    return text;
  }

  // Seat `s`'s time control as the server takes it, or null for no clock.
  function seatClock(s) {
    var text = $('seat-clock-' + s) && $('seat-clock-' + s).value;
    if (!text) { return null; }
    var parts = text.split('+');
    return {seconds: 60 * Number(parts[0]), increment: Number(parts[1])};
  }

  function newGame() {
    var info = variantInfo($('variant').value);
    var players = [], clocks = [];
    for (var s = 0; s < info.players; s++) { players.push(seatPlayer(s)); clocks.push(seatClock(s)); }
    state.selected = null;
    return api('POST', '/api/new', {variant: info.name, players: players, clocks: clocks}).then(show, fail);
  }

  // `ms` as a clock shows it: minutes and seconds (tenths under ten seconds).
  function clockText(ms) {
    if (ms < 10000) { return (Math.max(0, ms) / 1000).toFixed(1); }
    var s = Math.ceil(ms / 1000);
    return Math.floor(s / 60) + ':' + ('0' + (s % 60)).slice(-2);
  }

  // The clocks counted down between polls: the mover's from its time at the last answer.
  function tickClocks() {
    var g = state.game;
    if (!g || !g.clocks.length) { return; }
    Array.prototype.forEach.call(document.querySelectorAll('#players .clock'), function (el) {
      var s = Number(el.getAttribute('data-seat')), ms = g.clocks[s];
      var running = !g.over && s === g.to_move;
      if (running) { ms -= Date.now() - state.shownAt; }
      el.textContent = clockText(ms);
      el.className = 'clock' + (running ? ' running' : '') + (ms < 10000 ? ' low' : '');
    });
  }

  // ---- a game kept over a reload ----
  // The game's id is in the address (`#variant=V&game=N`), so a reload shows it again; its
  // seats, start and moves are kept in the tab's session storage, so that a game the server
  // no longer holds (restarted, or ended for newer ones while no page showed it) can be
  // restored from its moves as a new game.

  function hashGame() { return Number((location.hash.match(/game=(\d+)/) || [])[1]) || null; }

  function remember(game) {
    var hash = '#variant=' + game.variant + '&game=' + game.id;
    if (location.hash !== hash) { history.replaceState(null, '', hash); }
    try {
      sessionStorage.setItem('vzero-game-' + game.id, JSON.stringify({
        variant: game.variant, start: game.start, moves: game.moves,
        players: game.seats.map(function (s) { return s.player; })
      }));
    } catch (e) { /* storage full or off: only the restore is lost */ }
  }

  function remembered(id) {
    try { return JSON.parse(sessionStorage.getItem('vzero-game-' + id)); } catch (e) { return null; }
  }

  // Says that game `id` is gone, offering to restore it where its moves are known.
  function lost(id, why) {
    state.lost = true;
    var record = state.game && state.game.id === id ? {
      variant: state.game.variant, start: state.game.start, moves: state.game.moves,
      players: state.game.seats.map(function (s) { return s.player; })
    } : remembered(id);
    state.restore = record;
    message(why + (record ? '' : '; start a new game'));
    $('restore').hidden = !record;
  }

  function restore() {
    var r = state.restore;
    if (!r) { return; }
    api('POST', '/api/new', {variant: r.variant, players: r.players, position: r.start, moves: r.moves})
      .then(function (g) { message(''); return show(g); }, fail);
  }

  // Shows game `id` of the address, or says it is gone; a new game where there is none.
  function openGame(id) {
    if (!id) { return newGame(); }
    return api('GET', '/api/game?id=' + id).then(showOfVariant, function (e) {
      lost(id, e.message);
      // Nothing to show or restore: a new game, below the message.
      if (!state.restore) { return newGame(); }
    });
  }

  // Shows game `g`, switching the variant chooser to its variant first.
  function showOfVariant(g) {
    if ($('variant').value !== g.variant) {
      $('variant').value = g.variant;
      return loadPlayers().then(function () { return show(g); });
    }
    return show(g);
  }

  function fail(e) { message(e.message); }

  function ensureBoard(variant) {
    if (state.board && state.board.variant === variant) { return Promise.resolve(); }
    return api('GET', '/api/board?variant=' + encodeURIComponent(variant)).then(function (b) { state.board = b; });
  }

  // Shows a game state from the server.
  function show(game) {
    return ensureBoard(game.variant).then(function () {
      if (!state.game || state.game.version !== game.version || state.game.id !== game.id) {
        state.selected = null;
      }
      if (!state.game || state.game.id !== game.id || (state.view !== null && state.view >= game.moves.length)) {
        state.view = null;
        state.viewed = null;
      }
      state.game = game;
      state.shownAt = Date.now();
      state.lost = false;
      $('restore').hidden = true;
      state.lastJson = unclocked(game);
      remember(game);
      render();
    });
  }

  // A game's state as text without its clocks, which change on every poll of a timed game:
  // what changed apart from them is drawn again, the clocks alone only counted on.
  function unclocked(game) {
    return JSON.stringify(game, function (key, value) { return key === 'clocks' ? undefined : value; });
  }

  function poll() {
    if (!state.game || state.lost || state.busy || document.hidden) { return; }
    var asked = state.game;
    fetch('/api/game?id=' + asked.id).then(function (r) { return r.text(); }).then(function (text) {
      // An answer overtaken by another game or a newer state of this one is dropped.
      if (state.game !== asked && (!state.game || state.game.id !== asked.id)) { return; }
      var game = JSON.parse(text);
      if (game.error) { lost(asked.id, game.error); return; }
      if (game.version < state.game.version) { return; }
      if (game.id === state.game.id && unclocked(game) === state.lastJson) {
        state.game.clocks = game.clocks;
        state.shownAt = Date.now();
        tickClocks();
        return;
      }
      show(game);
    }).catch(function () { /* the server went away; the next poll tries again */ });
  }

  // ---- drawing ----

  function cellAt(key) {
    var cells = state.board.cells;
    if (!state.cellIndex || state.cellIndex.variant !== state.board.variant) {
      var index = {variant: state.board.variant};
      cells.forEach(function (c) { index[c.key] = c; });
      state.cellIndex = index;
    }
    return state.cellIndex[key];
  }

  // Where the board's cells and captions are drawn, in diagram units: where the server put
  // them, or, for a board in panels (Weltschach's levels) on a page too narrow to show them
  // side by side with cells of MIN_CELL_PX, its panels in as many columns as fit, read like
  // text. Kept until the board or the page's width changes.
  function placement() {
    var b = state.board, width = $('board-wrap').clientWidth || 800;
    var key = b.variant + ':' + width;
    if (state.placed && state.placed.key === key) { return state.placed; }
    var placed = {key: key, cells: {}, captions: b.captions, columns: null};
    b.cells.forEach(function (c) { placed.cells[c.key] = [c.x, c.y]; });
    var panels = b.panels;
    if (panels.length > 1) {
      var pitchW = Math.max.apply(null, panels.map(function (p) { return p.w; }));
      var pitchH = Math.max.apply(null, panels.map(function (p) { return p.h; }));
      var columns = panels.filter(function (p, i) {
        return panels.findIndex(function (q) { return q.x === p.x; }) === i;
      }).length;
      // A cell is 2 units wide; the picture about `k` pitches.
      var k = columns;
      while (k > 1 && 2 * width / (k * pitchW) < MIN_CELL_PX) { k--; }
      placed.columns = k;
      if (k < columns) {
        var move = function (x, y) {
          for (var i = 0; i < panels.length; i++) {
            var p = panels[i];
            if (x >= p.x && x < p.x + p.w && y >= p.y && y < p.y + p.h) {
              return [x - p.x + (i % k) * pitchW, y - p.y + Math.floor(i / k) * pitchH];
            }
          }
          return [x, y];
        };
        b.cells.forEach(function (c) { placed.cells[c.key] = move(c.x, c.y); });
        placed.captions = b.captions.map(function (c) {
          var m = move(c.x, c.y);
          return {x: m[0], y: m[1], text: c.text};
        });
      }
    }
    state.placed = placed;
    return placed;
  }

  // The centre of cell `c`, in pixels of the picture.
  function centre(c) {
    var at = placement().cells[c.key];
    return point(at[0], at[1]);
  }

  function point(x, y) {
    return state.flipped ? [-x * UNIT, -y * UNIT] : [x * UNIT, y * UNIT];
  }

  function corners(c) {
    var p = centre(c);
    var pts = [];
    if (c.shape === 'square') {
      pts = [[-1, -1], [1, -1], [1, 1], [-1, 1]];
    } else {
      var start = c.shape === 'pointy' ? 30 : 0;
      for (var i = 0; i < 6; i++) {
        var a = (start + 60 * i) * Math.PI / 180;
        pts.push([Math.cos(a), Math.sin(a)]);
      }
    }
    return pts.map(function (q) { return (p[0] + q[0] * UNIT).toFixed(1) + ',' + (p[1] + q[1] * UNIT).toFixed(1); }).join(' ');
  }

  // ---- stepping through the moves ----

  // The position the board shows: the game now, or the ply the move list was stepped to.
  function shown() { return state.view !== null && state.viewed ? state.viewed : state.game; }

  function shownPly() { return state.view === null ? state.game.moves.length : state.view; }

  // Shows the position after `ply` moves (null or the last: the game now).
  function setView(ply) {
    var g = state.game;
    if (!g) { return; }
    if (ply === null || ply >= g.moves.length) {
      state.view = null;
      state.viewed = null;
      render();
      return;
    }
    ply = Math.max(0, ply);
    state.view = ply;
    state.selected = null;
    api('GET', '/api/ply?id=' + g.id + '&ply=' + ply).then(function (v) {
      // An answer overtaken by another step or another game is dropped.
      if (state.view === ply && state.game && state.game.id === v.id) { state.viewed = v; render(); }
    }, fail);
  }

  function onKey(e) {
    var tag = e.target && e.target.tagName;
    if (!state.game || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || !$('play').offsetParent) { return; }
    var step = {ArrowLeft: shownPly() - 1, ArrowRight: shownPly() + 1, Home: 0, End: null}[e.key];
    if (step === undefined) { return; }
    e.preventDefault();
    setView(step);
  }

  // The report to show: the search running now, else the last one (an engine's search stays
  // shown after its move); `here` keeps only one of the position shown (the arrows).
  function report(here) {
    var g = state.game;
    var r = (g.thinking && g.thinking.report) || g.analysis;
    return r && (!here || r.position === shown().position) ? r : null;
  }

  function legalFrom(key) {
    return state.game.legal.filter(function (m) { return m.from === key; });
  }

  function arrowSvg(from, to, share) {
    var a = cellAt(from), b = cellAt(to);
    if (!a || !b) { return ''; }
    var p = centre(a), q = centre(b);
    var dx = q[0] - p[0], dy = q[1] - p[1], len = Math.sqrt(dx * dx + dy * dy);
    if (len < 1) { return ''; }
    var ux = dx / len, uy = dy / len, w = 2 + 7 * share, head = 10 + 6 * share;
    var ex = q[0] - ux * head, ey = q[1] - uy * head;
    var pts = [
      [p[0] - uy * w / 2, p[1] + ux * w / 2], [ex - uy * w / 2, ey + ux * w / 2],
      [ex - uy * head * 0.7, ey + ux * head * 0.7], [q[0], q[1]],
      [ex + uy * head * 0.7, ey - ux * head * 0.7], [ex + uy * w / 2, ey - ux * w / 2],
      [p[0] + uy * w / 2, p[1] - ux * w / 2]
    ];
    return '<polygon class="arrow" points="' + pts.map(function (t) { return t[0].toFixed(1) + ',' + t[1].toFixed(1); }).join(' ') + '"/>';
  }

  function renderBoard() {
    var g = state.game, b = state.board;
    // Set first: how wide the board may be decides how its panels are placed.
    $('board-wrap').className = b.cells.length > 200 ? 'wide' : '';
    var placed = placement();
    var minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    function grow(p, r) {
      minX = Math.min(minX, p[0] - r); maxX = Math.max(maxX, p[0] + r);
      minY = Math.min(minY, p[1] - r); maxY = Math.max(maxY, p[1] + r);
    }
    b.cells.forEach(function (c) { grow(centre(c), UNIT * 1.1); });
    placed.captions.forEach(function (c) { grow(point(c.x, c.y), UNIT * 1.2); });
    var view = shown(), last = view.last || [];
    var targets = state.selected === null ? [] : legalFrom(state.selected).map(function (m) { return m.to; });
    var out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + [minX, minY, maxX - minX, maxY - minY].map(function (v) { return v.toFixed(1); }).join(' ') + '">');
    b.cells.forEach(function (c) {
      var cls = 'cell';
      if (last.indexOf(c.key) >= 0) { cls += ' last'; }
      if (c.key === state.selected) { cls += ' selected'; }
      if (c.key === view.check) { cls += ' check'; }
      if (targets.indexOf(c.key) >= 0) { cls += ' targeted'; }
      out.push('<polygon class="' + cls + '" data-key="' + c.key + '" data-label="' + esc(c.label) +
        '" fill="' + b.shades[c.shade] + '" points="' + corners(c) + '"/>');
    });
    if (b.label_cells) {
      b.cells.forEach(function (c) {
        var p = centre(c);
        out.push('<text class="label" text-anchor="middle" x="' + p[0].toFixed(1) + '" y="' + (p[1] + UNIT * 0.86).toFixed(1) + '">' + esc(c.label) + '</text>');
      });
    }
    placed.captions.forEach(function (c) {
      var p = point(c.x, c.y);
      out.push('<text class="caption" text-anchor="middle" x="' + p[0].toFixed(1) + '" y="' + p[1].toFixed(1) + '">' + esc(c.text) + '</text>');
    });
    view.pieces.forEach(function (piece) {
      var c = cellAt(piece.cell);
      if (!c) { return; }
      var p = centre(c), colours = b.seats[piece.owner] || b.seats[0];
      out.push('<g class="piece" data-cell="' + piece.cell + '" data-owner="' + piece.owner + '">' +
        '<circle cx="' + p[0].toFixed(1) + '" cy="' + p[1].toFixed(1) + '" r="' + (UNIT * 0.58).toFixed(1) +
        '" fill="' + colours[0] + '" stroke="' + colours[1] + '" stroke-width="1.5"/>' +
        '<text x="' + p[0].toFixed(1) + '" y="' + p[1].toFixed(1) + '" fill="' + colours[2] + '">' + esc(piece.letter) + '</text></g>');
    });
    targets.forEach(function (key) {
      var c = cellAt(key), p = centre(c);
      out.push('<circle class="target" data-key="' + key + '" cx="' + p[0].toFixed(1) + '" cy="' + p[1].toFixed(1) + '" r="' + (UNIT * 0.34).toFixed(1) + '"/>');
    });
    var r = report(true);
    if (r && r.moves.length) {
      var top = Math.max.apply(null, r.moves.map(function (m) { return m.visits; })) || 1;
      r.moves.slice(0, 3).forEach(function (line) {
        var m = g.legal.filter(function (l) { return l.move === line.move; })[0];
        if (m && m.from !== null) { out.push(arrowSvg(m.from, m.to, line.visits / top)); }
      });
    }
    out.push('</svg>');
    var board = $('board');
    board.innerHTML = out.join('');
    board.setAttribute('data-game', g.id);
    board.setAttribute('data-version', g.version);
    board.setAttribute('data-to-move', g.to_move);
    board.setAttribute('data-thinking', g.thinking ? g.thinking.kind : '');
    board.setAttribute('data-over', g.over ? '1' : '');
    board.setAttribute('data-plies', g.moves.length);
    board.setAttribute('data-variant', g.variant);
    board.setAttribute('data-view', state.view === null ? '' : state.view);
    board.setAttribute('data-check', view.check === null || view.check === undefined ? '' : view.check);
    board.setAttribute('data-columns', placed.columns === null ? '' : placed.columns);
  }

  function seatName(g, s) { return seatLabel(g.seat_names, s); }

  function renderText() {
    var g = state.game;
    if (g.over) {
      $('status').textContent = g.over;
    } else {
      $('status').innerHTML = swatch(g.to_move) + esc(seatName(g, g.to_move) + ' to move (' + g.seats[g.to_move].title + ')' +
        (g.check === null ? '' : ', in check'));
    }
    // Who plays each seat, in the seat's colour: a network by its short name and the visits it uses.
    $('players').innerHTML = g.seats.map(function (seat, s) {
      var clock = g.clocks[s] === null || g.clocks[s] === undefined ? '' : ' <span class="clock" data-seat="' + s + '"></span>';
      return '<span class="seat-title" data-seat="' + s + '">' + swatch(s) + esc(seatName(g, s) + ': ' + seat.title) + clock + '</span>';
    }).join('');
    tickClocks();
    var per = g.seat_names.length || 2, words = [], at = shownPly();
    g.moves.forEach(function (m, i) {
      if (i % per === 0) { words.push((i / per + 1) + '.'); }
      words.push('<a data-ply="' + (i + 1) + '"' + (i + 1 === at && state.view !== null ? ' class="current"' : '') + '>' +
        esc(m + (g.marks[i] || '')) + '</a>');
    });
    if (g.result) {
      // Each seat's score, named in the tooltip (three seats: 1-½-0).
      var scores = g.result.split('-').map(function (v, s) { return seatName(g, s) + ' ' + v; }).join(', ');
      words.push('<span class="result" title="' + esc(scores) + '">' + esc(g.result + (g.ending ? ' ' + g.ending : '')) + '</span>');
    }
    var box = $('moves');
    box.innerHTML = words.join(' ');
    // The newest move in sight, or the one stepped to.
    var current = box.querySelector('a.current');
    if (state.view === null) {
      box.scrollTop = box.scrollHeight;
    } else if (current && (current.offsetTop < box.scrollTop || current.offsetTop + current.offsetHeight > box.scrollTop + box.clientHeight)) {
      box.scrollTop = current.offsetTop - box.clientHeight / 2;
    }
    $('viewing').textContent = state.view === null ? '' :
      'after move ' + state.view + ' of ' + g.moves.length + ' (\u2190 \u2192 step, End returns to the game)';
    var legend = g.legend.map(function (l) { return '<span><b>' + esc(l[0]) + '</b> ' + esc(l[1]) + '</span>'; }).join('');
    if ($('legend').getAttribute('data-for') !== legend) {
      $('legend').innerHTML = legend;
      $('legend').setAttribute('data-for', legend);
    }
    if (document.activeElement !== $('position')) { $('position').value = g.position; }
    $('save').href = '/api/save?id=' + g.id;
    $('save-text').href = '/api/save?id=' + g.id + '&as=text';
  }

  function renderAnalysis() {
    var g = state.game, r = report(false);
    var engine = '';
    if (g.thinking) {
      engine = g.thinking.kind === 'move' ? g.thinking.who + ' is thinking...' : 'analysing with ' + g.thinking.who + '...';
    } else if (g.note) {
      engine = g.note;
    }
    $('engine-state').textContent = engine;
    $('analysis').setAttribute('data-final', r && !g.thinking ? '1' : '');
    if (!r) {
      $('best').textContent = '';
      $('nodes').textContent = '';
      $('pv').textContent = '';
      $('lines').tBodies[0].innerHTML = '';
      $('valuefill').style.width = '50%';
      return;
    }
    $('best').textContent = r.bestmove || '';
    var before = r.position === g.position ? '' : ', the position before the last move';
    $('nodes').textContent = '(' + r.nodes + ' of ' + r.sims + ' visits, ' + r.time_ms + ' ms' + before + ')';
    var first = r.moves[0];
    $('pv').textContent = first ? first.pv.join(' ') : '';
    $('lines').tBodies[0].innerHTML = r.moves.map(function (m) {
      var q = m.q === null ? '-' : m.q.toFixed(3);
      return '<tr><td>' + esc(m.move) + '</td><td>' + m.visits + '</td><td>' + q + '</td></tr>';
    }).join('');
    // The bar is the first seat's expected score (White's share of the bar in light).
    var v = r.values && r.values.length ? r.values[0] : 0.5;
    $('valuefill').style.width = (Math.max(0, Math.min(1, v)) * 100).toFixed(1) + '%';
    $('valuebar').title = seatName(g, 0) + ': ' + v.toFixed(3);
  }

  function render() {
    if (!state.game || !state.board || state.board.variant !== state.game.variant) { return; }
    renderBoard();
    renderText();
    renderAnalysis();
  }

  // ---- moving ----

  function myMove() {
    var g = state.game;
    return g && !g.over && !g.thinking && g.seats[g.to_move].person;
  }

  function play(text) {
    state.selected = null;
    state.busy = true;
    return api('POST', '/api/move', {id: state.game.id, move: text}).then(function (g) {
      message('');
      return show(g);
    }, function (e) {
      message(e.message);
      render();
    }).then(function () { state.busy = false; });
  }

  function choosePromotion(moves) {
    var box = $('promotion-choices');
    box.innerHTML = moves.map(function (m) {
      var piece = m.move.indexOf('=') >= 0 ? m.move.slice(m.move.indexOf('=') + 1) : m.move;
      return '<button type="button" data-move="' + esc(m.move) + '">' + esc(piece) + '</button>';
    }).join(' ');
    $('promotion').hidden = false;
  }

  function clickCell(key) {
    var g = state.game;
    if (!g) { return; }
    if (state.view !== null) {
      message('an earlier position is shown: End (or the last move) returns to the game');
      return;
    }
    if (!myMove()) {
      message(g.over ? g.over : 'it is not your move');
      return;
    }
    if (state.selected !== null && state.selected !== key) {
      var moves = legalFrom(state.selected).filter(function (m) { return m.to === key; });
      if (moves.length === 1) { play(moves[0].move); return; }
      if (moves.length > 1) { choosePromotion(moves); return; }
      if (legalFrom(key).length === 0) {
        // Not a legal target: the engine says why not, in its own words.
        var from = cellAt(state.selected), to = cellAt(key);
        play(from.label + '-' + to.label);
        return;
      }
    }
    if (state.selected === key) {
      state.selected = null;
    } else if (legalFrom(key).length > 0) {
      state.selected = key;
      message('');
    } else {
      var own = g.pieces.some(function (p) { return p.cell === key && p.owner === g.to_move; });
      message(own ? 'that piece has no legal move' : 'click one of your pieces first');
    }
    render();
  }

  // ---- runs ----

  // The run list, read again every few seconds while the tab is shown (a run started after the
  // page opened appears), then the chosen run.
  function loadRuns() {
    return api('GET', '/api/runs').then(function (j) {
      var select = $('run');
      var was = select.value;
      var options = j.runs.map(function (r) {
        return '<option value="' + esc(r.path) + '">' + esc(r.name) + (r.variant ? ' (' + esc(r.variant) + ')' : '') + '</option>';
      }).join('');
      if (select.getAttribute('data-options') !== options) {
        select.innerHTML = options;
        select.setAttribute('data-options', options);
        if (was && j.runs.some(function (r) { return r.path === was; })) { select.value = was; }
      }
      var none = !j.folders.length ? 'no runs are watched: start the server with --runs DIR' :
        'no runs yet in ' + j.folders.join(', ') + ': a run started there (vzero train --run DIR/NAME) appears here';
      if (!j.runs.length) {
        $('run-message').textContent = none;
        $('run-view').hidden = true;
      }
      refreshRun();
    }, function (e) { $('run-message').textContent = e.message; });
  }

  // The final evaluation as a table: the network's games, wins, draws and score against each
  // baseline (and the untrained network's, where it played).
  function evaluationTable(rows) {
    if (!rows.length) { return 'no final evaluation yet (it is played when the run ends)'; }
    var head = '<tr><th>network</th><th>vs</th><th>games</th><th>wins</th><th>draws</th><th>score</th></tr>';
    return '<table>' + head + rows.map(function (m) {
      var games = m.planned && m.games < m.planned ? m.games + '/' + m.planned : String(m.games);
      return '<tr><td>' + esc(m.network) + '</td><td>' + esc(m.opponent) + '</td><td>' + games +
        (m.interrupted ? ' (interrupted)' : '') + '</td><td>' + m.wins + '</td><td>' + m.draws + '</td><td>' +
        (100 * m.score).toFixed(1) + '%</td></tr>';
    }).join('') + '</table>';
  }

  function refreshRun() {
    var path = $('run').value;
    if (!path || $('runs').hidden) { return; }
    var q = 'run=' + encodeURIComponent(path);
    api('GET', '/api/run?' + q).then(function (j) {
      if ($('run').value !== path) { return; }
      $('run-message').textContent = '';
      $('run-view').hidden = false;
      var done = j.iterations_done === null ? 0 : j.iterations_done;
      $('run-iteration').textContent = (j.iteration || 'no iteration logged yet') + '\n' +
        j.variant + ': iteration ' + done + ' of ' + j.iterations +
        (j.trainer_games === null ? '' : ', ' + j.trainer_games + ' self-play games') +
        (j.finished ? ', finished' : '') + (j.last_error ? '\nlast error: ' + j.last_error : '');
      $('run-gauntlet').textContent = j.gauntlet || 'no gauntlet yet';
      $('run-evaluation').innerHTML = evaluationTable(j.evaluation);
      // No curves before the first iteration: no picture rather than a broken one.
      $('run-plot').hidden = !j.iteration;
      if (j.iteration) { $('run-plot').src = '/run/plot.svg?' + q + '&t=' + Date.now(); }
      $('run-games').innerHTML = j.games.map(function (g) {
        var href = '/run/game?' + q + '&shard=' + encodeURIComponent(g.shard) + '&game=' + g.index;
        return '<li><a data-src="' + esc(href) + '">game ' + g.number + (g.teacher ? ' (teacher)' : '') + ': ' +
          g.plies + ' plies, [' + g.scores.join(' ') + ']</a></li>';
      }).join('');
      $('run-refreshed').textContent = 'refreshed ' + new Date().toLocaleTimeString();
    }, function (e) { $('run-message').textContent = e.message; });
  }

  function showTab(runs) {
    $('play').hidden = runs;
    $('runs').hidden = !runs;
    $('tab-play').className = runs ? 'tab' : 'tab on';
    $('tab-runs').className = runs ? 'tab on' : 'tab';
    if (runs) {
      loadRuns();
      if (!state.runTimer) {
        state.runTimer = setInterval(function () { if (!$('runs').hidden && !document.hidden) { loadRuns(); } }, RUN_POLL_MS);
      }
    }
  }

  // ---- wiring ----

  $('board').addEventListener('click', function (e) {
    var key = e.target.getAttribute && e.target.getAttribute('data-key');
    if (key !== null && key !== undefined) { clickCell(Number(key)); }
  });
  $('promotion-choices').addEventListener('click', function (e) {
    var move = e.target.getAttribute('data-move');
    if (move) { $('promotion').hidden = true; play(move); }
  });
  $('promotion-cancel').addEventListener('click', function () {
    $('promotion').hidden = true;
    state.selected = null;
    render();
  });
  $('variant').addEventListener('change', function () { loadPlayers().then(newGame, fail); });
  $('seats').addEventListener('change', function (e) {
    var s = e.target.getAttribute('data-seat');
    if (s !== null) { simsFor(Number(s)); }
  });
  // A board in panels is placed again for the new width.
  var resizing = null;
  window.addEventListener('resize', function () {
    if (resizing) { return; }
    resizing = setTimeout(function () { resizing = null; render(); }, 100);
  });
  $('new').addEventListener('click', newGame);
  $('restore').addEventListener('click', restore);
  // ---- a game as text (docs/games.md): saved beside Save's replay shard, loaded from a file ----
  (function () {
    var saveText = document.createElement('a'), load = document.createElement('label');
    saveText.id = 'save-text'; saveText.href = '#'; saveText.download = ''; saveText.textContent = 'Save as text';
    load.innerHTML = 'Load game <input id="load" type="file" accept=".vgn,.pgn,.txt,text/plain" hidden>';
    load.style.cursor = 'pointer';
    $('save').after(' ', saveText, ' ', load);
    $('load').addEventListener('change', function () {
      var file = $('load').files[0];
      if (!file) { return; }
      file.text().then(function (text) {
        $('load').value = '';
        state.selected = null;
        return api('POST', '/api/load', {text: text}).then(function (g) { message(''); return showOfVariant(g); });
      }).catch(fail);
    });
  })();
  $('moves').addEventListener('click', function (e) {
    var ply = e.target.getAttribute && e.target.getAttribute('data-ply');
    if (ply) { setView(Number(ply)); }
  });
  document.addEventListener('keydown', onKey);
  $('undo').addEventListener('click', function () {
    if (!state.game) { return; }
    api('POST', '/api/undo', {id: state.game.id}).then(function (g) { message(''); show(g); }, fail);
  });
  $('flip').addEventListener('click', function () { state.flipped = !state.flipped; render(); });
  $('copy').addEventListener('click', function () {
    var input = $('position');
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).catch(function () { document.execCommand('copy'); });
    } else {
      document.execCommand('copy');
    }
  });
  $('set-position').addEventListener('click', function () {
    if (!state.game) { return; }
    api('POST', '/api/position', {id: state.game.id, position: $('position').value.trim()})
      .then(function (g) { message(''); $('position').blur(); show(g); }, fail);
  });
  $('analyse').addEventListener('click', function () {
    if (!state.game) { return; }
    var sims = parseInt($('analyse-sims').value, 10) || 800;
    api('POST', '/api/analyse', {id: state.game.id, model: $('analyse-model').value, sims: sims})
      .then(function (g) { message(''); show(g); }, fail);
  });
  $('stop').addEventListener('click', function () {
    if (!state.game) { return; }
    api('POST', '/api/stop', {id: state.game.id}).then(show, fail);
  });
  $('tab-play').addEventListener('click', function () { showTab(false); });
  $('tab-runs').addEventListener('click', function () { showTab(true); });
  $('run').addEventListener('change', refreshRun);
  $('run-games').addEventListener('click', function (e) {
    var src = e.target.getAttribute('data-src');
    if (!src) { return; }
    $('run-game').src = src;
    Array.prototype.forEach.call($('run-games').querySelectorAll('a'), function (a) {
      a.className = a === e.target ? 'current' : '';
    });
  });

  // `#variant=NAME` starts with that variant (and changing it starts a game of another);
  // `&game=N` shows that game (a reload keeps the page's game).
  function hashVariant() { return (location.hash.match(/variant=([\w-]+)/) || [])[1]; }
  window.addEventListener('hashchange', function () {
    var name = hashVariant(), id = hashGame();
    if (id && (!state.game || state.game.id !== id)) {
      openGame(id);
    } else if (!id && name && variantInfo(name) && name !== $('variant').value) {
      $('variant').value = name;
      loadPlayers().then(newGame, fail);
    }
  });
  var wanted = hashVariant();
  loadVariants().then(function () {
    if (wanted && variantInfo(wanted)) { $('variant').value = wanted; }
    return loadPlayers();
  }).then(function () { return openGame(hashGame()); }).catch(fail);
  setInterval(poll, POLL_MS);
  setInterval(tickClocks, 100);
})();
