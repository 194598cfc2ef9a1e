//! A recorded game as one self-contained HTML page: an inline SVG board per ply, the move list,
//! and the search's top moves, stepped through with buttons or the arrow keys.
//!
//! Everything is inline (no scripts, fonts or styles fetched), so the file opens offline and can
//! be mailed around. Besides the keys, the page reads from its address (`#...` or `?...`):
//! `ply=N` (jump there), `steps=N` (press "next" N times, through the button's own click handler)
//! and `keys=ArrowRight,ArrowLeft,...` (send those key presses to the page's key handler), which
//! lets a headless browser test the stepping code without a keyboard.

use std::fmt::Write;

use super::frames::{status_line, Frame};
use super::svg_board::{board_svg_over, shared_background};
use super::xml::escape;

/// Page style: board left, move list and search panel right, wrapping on narrow screens.
const STYLE: &str = r#"
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 16px; background: #fbf8f2; color: #222; }
h1 { font-size: 18px; margin: 0 0 8px; }
.controls { margin: 8px 0; display: flex; gap: 6px; align-items: center; }
.controls button { font-size: 15px; padding: 4px 10px; }
#counter { font-weight: bold; min-width: 110px; text-align: center; }
.main { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
#boards { flex: 1 1 440px; max-width: 100%; }
#boards svg { width: 100%; height: auto; max-height: 82vh; }
.side { flex: 0 1 380px; min-width: 260px; }
.side h2 { font-size: 15px; margin: 10px 0 4px; }
#moves { max-height: 360px; overflow-y: auto; border: 1px solid #d8cbb5; background: #fff; padding: 4px; }
#moves table { border-collapse: collapse; }
#moves td { padding: 1px 6px; }
#moves .num { color: #888; text-align: right; }
#moves a { cursor: pointer; color: #1f4e79; text-decoration: none; }
#moves a.current { background: #f4d03f; font-weight: bold; }
.top td { padding: 1px 8px 1px 0; }
.bar { display: inline-block; height: 9px; background: #1e8449; opacity: 0.75; }
.help { color: #777; font-size: 12px; margin-top: 10px; }
"#;

/// Stepping logic; `next`, `prev`, `first` and `last` are buttons, and every way of moving
/// (keys, move list, address) goes through `show`, with key and `steps` presses clicking the
/// buttons themselves.
const SCRIPT: &str = r#"
(function () {
  var boards = document.querySelectorAll('#boards > .ply');
  var infos = document.querySelectorAll('#infos > .info');
  var links = document.querySelectorAll('#moves a[data-ply]');
  var counter = document.getElementById('counter');
  var last = boards.length - 1;
  var cur = 0;
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    boards[cur].hidden = true; infos[cur].hidden = true;
    cur = k;
    boards[cur].hidden = false; infos[cur].hidden = false;
    counter.textContent = 'Ply ' + cur + ' / ' + last;
    for (var i = 0; i < links.length; i++) {
      var on = Number(links[i].getAttribute('data-ply')) === cur;
      links[i].className = on ? 'current' : '';
      if (on && links[i].scrollIntoView) { links[i].scrollIntoView({block: 'nearest'}); }
    }
  }
  var buttons = {
    first: document.getElementById('first'), prev: document.getElementById('prev'),
    next: document.getElementById('next'), last: document.getElementById('last')
  };
  buttons.first.addEventListener('click', function () { show(0); });
  buttons.prev.addEventListener('click', function () { show(cur - 1); });
  buttons.next.addEventListener('click', function () { show(cur + 1); });
  buttons.last.addEventListener('click', function () { show(last); });
  var keys = { ArrowRight: 'next', ArrowLeft: 'prev', Home: 'first', End: 'last' };
  document.addEventListener('keydown', function (e) {
    if (keys[e.key]) { buttons[keys[e.key]].click(); e.preventDefault(); }
  });
  for (var i = 0; i < links.length; i++) {
    links[i].addEventListener('click', function (e) { show(Number(e.target.getAttribute('data-ply'))); });
  }
  var params = new URLSearchParams(location.search.slice(1) + '&' + location.hash.slice(1));
  show(params.has('ply') ? Number(params.get('ply')) || 0 : 0);
  var steps = Number(params.get('steps')) || 0;
  for (var s = 0; s < steps; s++) { buttons.next.click(); }
  var pressed = params.get('keys');
  if (pressed) {
    pressed.split(',').forEach(function (key) {
      document.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true, cancelable: true}));
    });
  }
})();
"#;

/// Id of the board drawing every ply's picture reuses (the board's cells never change).
const BACKGROUND: &str = "board-cells";

/// What the page says about the game besides its frames.
pub struct ReplayInfo<'a> {
    /// The page's heading.
    pub title: &'a str,
    /// Final score of each seat (none for a game not finished).
    pub scores: &'a [f32],
}

/// The HTML page of a game given as its frames (one per ply, the final position last).
pub fn replay_html(info: &ReplayInfo<'_>, frames: &[Frame]) -> String {
    let plies = frames.len().saturating_sub(1);
    let players = frames.first().map(|f| f.diagram.players.clone()).unwrap_or_default();
    let result: Vec<String> = players.iter().zip(info.scores).map(|(p, s)| format!("{} {s}", escape(p))).collect();
    // A game saved before its end has no scores.
    let result = if result.is_empty() { "unfinished".to_string() } else { result.join(", ") };
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{} &#8212; result: {}</h1>\n",
        escape(info.title),
        escape(info.title),
        result
    );
    html.push_str(
        "<div class=\"controls\"><button id=\"first\" title=\"Home\">&#171; first</button><button id=\"prev\" title=\"left arrow\">&#9664; prev</button>",
    );
    let _ = write!(html, "<span id=\"counter\">Ply 0 / {plies}</span>");
    html.push_str("<button id=\"next\" title=\"right arrow\">next &#9654;</button><button id=\"last\" title=\"End\">last &#187;</button></div>\n");
    if let Some(first) = frames.first() {
        html.push_str(&shared_background(&first.diagram, BACKGROUND));
    }
    html.push_str("<div class=\"main\">\n<div id=\"boards\">\n");
    for (k, frame) in frames.iter().enumerate() {
        let hidden = if k == 0 { "" } else { " hidden" };
        let board = board_svg_over(&frame.diagram, &frame.arrows(true, true), BACKGROUND);
        let _ = write!(html, "<div class=\"ply\" data-ply=\"{k}\"{hidden}>\n{board}</div>\n");
    }
    html.push_str("</div>\n<div class=\"side\">\n<h2>Moves</h2>\n<div id=\"moves\">");
    move_table(&mut html, frames);
    html.push_str("</div>\n<h2>Search</h2>\n<div id=\"infos\">\n");
    for (k, frame) in frames.iter().enumerate() {
        search_panel(&mut html, k, frame);
    }
    html.push_str("</div>\n<p class=\"help\">Keys: &#8592; &#8594; step, Home/End jump. Blue arrow: the last move; green arrows: the search's most visited moves (width by share of visits). Expected scores are the search's value estimate for each player (1 win, 0 loss).</p>\n");
    let _ = write!(html, "</div>\n</div>\n<script>{SCRIPT}</script>\n</body>\n</html>\n");
    html
}

/// The moves as a table, one row per round of turns; each move links to the position after it.
fn move_table(html: &mut String, frames: &[Frame]) {
    html.push_str("<table>\n");
    let mut round = 0;
    let mut previous_seat = None;
    for (k, frame) in frames.iter().enumerate() {
        let Some(text) = &frame.next else { break };
        let seat = frame.diagram.to_move;
        // A new round starts when the turn wraps around (robust to seats that drop out).
        if previous_seat.is_none_or(|p| seat <= p) {
            if k > 0 {
                html.push_str("</tr>\n");
            }
            round += 1;
            let _ = write!(html, "<tr><td class=\"num\">{round}.</td>");
            let skipped = if k == 0 { seat } else { 0 };
            html.push_str(&"<td>&#8230;</td>".repeat(skipped));
        }
        let _ = write!(html, "<td><a data-ply=\"{}\">{}</a></td>", k + 1, escape(text));
        previous_seat = Some(seat);
    }
    if round > 0 {
        html.push_str("</tr>\n");
    }
    html.push_str("</table>");
}

/// What the page shows about ply `k` beside the board.
fn search_panel(html: &mut String, k: usize, frame: &Frame) {
    let hidden = if k == 0 { "" } else { " hidden" };
    let _ = write!(html, "<div class=\"info\" data-ply=\"{k}\"{hidden}>");
    let status = status_line(&frame.diagram, frame.ending.as_deref());
    match &frame.last {
        Some((text, _)) => {
            let _ = write!(html, "<p>Last move: <b>{}</b>. {}</p>", escape(text), escape(&status));
        }
        None => {
            let _ = write!(html, "<p>Start position. {}</p>", escape(&status));
        }
    }
    match (&frame.next, &frame.ending) {
        (Some(next), _) => {
            let _ = write!(html, "<p>Played: <b>{}</b></p>", escape(next));
        }
        (None, Some(_)) => {}
        // The rules had not ended it: the game was adjudicated (move cap) or resigned.
        (None, None) => html.push_str("<p>The recorded game stops here, unfinished by the rules.</p>"),
    }
    if let Some(value) = &frame.value {
        let scores: Vec<String> = value
            .iter()
            .enumerate()
            .map(|(seat, v)| format!("{} {v:.2}", escape(frame.diagram.players.get(seat).map_or("?", String::as_str))))
            .collect();
        let _ = write!(html, "<p>Expected scores (search): {}</p>", scores.join(", "));
    }
    if frame.candidates.is_empty() {
        if frame.visits > 0 {
            let _ = write!(html, "<p>The search made {} visits here.</p>", frame.visits);
        } else if frame.next.is_some() {
            html.push_str("<p>No search statistics recorded at this ply.</p>");
        }
    } else {
        let _ = write!(html, "<p>Top moves of the search ({} visits):</p><table class=\"top\">", frame.visits);
        for c in &frame.candidates {
            let _ = write!(
                html,
                "<tr><td><b>{}</b></td><td>{:.1}%</td><td><span class=\"bar\" style=\"width:{:.0}px\"></span></td></tr>",
                escape(&c.text),
                c.share * 100.0,
                (c.share * 120.0).max(1.0)
            );
        }
        html.push_str("</table>");
    }
    html.push_str("</div>\n");
}
