//! A position as SVG text: the cells of a [`Diagram`], the pieces as lettered discs, arrows for
//! moves, and a legend below.
//!
//! Written by hand rather than with a plotting crate: a board is a diagram of polygons and text,
//! not a chart. Arrowheads are polygons, not SVG markers, because markers are looked up by id and
//! the replay page holds one SVG per ply, most of them hidden, where shared ids break.

use std::collections::HashMap;
use std::fmt::Write;

use rules::{CellShape, Diagram};

use super::note_spot::{note_box, place_note, Spot};
use super::xml::escape;

/// Pixels per diagram unit (a cell's radius).
const UNIT: f32 = 24.0;
/// Room around the board, in pixels.
const MARGIN: f32 = 12.0;
/// Height of one legend line, in pixels.
const LEGEND_LINE: f32 = 22.0;
/// Narrowest entry of the piece legend, in pixels (entries widen to fit the longest name).
const LEGEND_ENTRY: f32 = 104.0;

/// Fill of each cell shade: light, medium, dark (the browns of a wooden board); the browser
/// page of `vzero serve` draws with these too.
pub const SHADES: [&str; 3] = ["#f2dcb3", "#d6a86b", "#a9743f"];
/// Disc fill, outline and letter colour of each seat (White, Black, a third player's red).
pub const SEATS: [(&str, &str, &str); 3] =
    [("#fdfdfd", "#222", "#111"), ("#262626", "#000", "#fafafa"), ("#c0392b", "#6e1f17", "#fff")];

/// Each seat's colour in words, in the order of [`SEATS`].
pub const SEAT_COLOURS: [&str; 3] = ["white", "black", "red"];

/// A move drawn on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// Key of the cell the move leaves.
    pub from: u16,
    /// Key of the cell it enters.
    pub to: u16,
    /// What the arrow stands for.
    pub kind: ArrowKind,
}

/// The meaning of an arrow, which sets its colour and width.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrowKind {
    /// The move that led to this position.
    LastMove,
    /// One of the search's most visited moves here, with its share of the visits (0..=1).
    Candidate(f32),
}

/// `svg` (from [`board_svg`]) as the text of a standalone .svg file: an XML declaration and the
/// SVG namespace, which HTML pages that inline the element do without.
pub fn standalone(svg: &str) -> String {
    let body = svg.strip_prefix("<svg ").expect("board_svg starts with <svg");
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" {body}")
}

/// The SVG element (no XML declaration, no namespace) of `diagram` with `arrows`; `title` goes
/// above the board.
pub fn board_svg(diagram: &Diagram, arrows: &[Arrow], title: Option<&str>) -> String {
    let layout = Layout::of(diagram, title);
    let mut svg = open_svg(&layout);
    if let Some(title) = title {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" font-size="15" font-weight="bold">{}</text>"#,
            MARGIN,
            MARGIN + 12.0,
            escape(title)
        );
    }
    draw_background(&mut svg, diagram, &layout);
    draw_foreground(&mut svg, diagram, &layout, arrows);
    svg
}

/// The parts of `diagram` that stay the same through a game (cells, labels, captions) as a
/// zero-size SVG element defining the group `id`, for [`board_svg_over`] to reuse.
///
/// A game page draws its board once this way instead of once per ply: a Weltschach cube is
/// 512 squares, which would otherwise make a long game's page tens of megabytes.
pub fn shared_background(diagram: &Diagram, id: &str) -> String {
    let layout = Layout::of(diagram, None);
    let mut svg = String::from("<svg class=\"board-background\" width=\"0\" height=\"0\" style=\"position:absolute\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n");
    let _ = writeln!(svg, "<defs><g id=\"{}\">", escape(id));
    draw_background(&mut svg, diagram, &layout);
    svg.push_str("</g></defs>\n</svg>\n");
    svg
}

/// Like [`board_svg`] without a title, but the cells come from the group `id` of a
/// [`shared_background`] of the same board in the same page.
pub fn board_svg_over(diagram: &Diagram, arrows: &[Arrow], id: &str) -> String {
    let layout = Layout::of(diagram, None);
    let mut svg = open_svg(&layout);
    let _ = writeln!(svg, "<use href=\"#{}\"/>", escape(id));
    draw_foreground(&mut svg, diagram, &layout, arrows);
    svg
}

/// The opening tag and the page-coloured backdrop.
fn open_svg(l: &Layout) -> String {
    let (w, h) = (l.width, l.height);
    let mut svg = format!(
        "<svg class=\"board\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.1} {h:.1}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
    );
    svg.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#fbf8f2\"/>\n");
    svg
}

/// Cells, labels and captions.
fn draw_background(svg: &mut String, d: &Diagram, l: &Layout) {
    draw_cells(svg, d, l);
    draw_captions(svg, d, l);
}

/// Last-move highlights, pieces, arrows and the legend, then the closing tag.
fn draw_foreground(svg: &mut String, d: &Diagram, l: &Layout, arrows: &[Arrow]) {
    draw_highlights(svg, d, l, arrows);
    draw_pieces(svg, d, l);
    draw_arrows(svg, d, l, arrows);
    draw_legend(svg, d, l);
    svg.push_str("</svg>\n");
}

/// Where diagram units land in pixels, and the picture's size.
struct Layout {
    min_x: f32,
    min_y: f32,
    top: f32,
    board_bottom: f32,
    width: f32,
    height: f32,
    legend_lines: usize,
    per_line: usize,
    entry_w: f32,
    /// Pixel centre of each cell by key.
    centres: HashMap<u16, (f32, f32)>,
}

impl Layout {
    fn of(d: &Diagram, title: Option<&str>) -> Layout {
        let xs = d.cells.iter().map(|c| c.x).chain(d.captions.iter().map(|c| c.x));
        let ys = d.cells.iter().map(|c| c.y).chain(d.captions.iter().map(|c| c.y));
        let (min_x, max_x) = bounds(xs);
        let (min_y, max_y) = bounds(ys);
        let top = MARGIN + if title.is_some() { 22.0 } else { 0.0 };
        let board_w = (max_x - min_x + 2.0) * UNIT;
        let board_h = (max_y - min_y + 2.0) * UNIT;
        // Titles are bold 15 px text, about 9 px a character.
        let title_w = title.map_or(0.0, |t| t.chars().count() as f32 * 9.0);
        let width = (board_w + 2.0 * MARGIN).max(2.0 * LEGEND_ENTRY + 2.0 * MARGIN).max(title_w + 2.0 * MARGIN);
        // 12 px text is about 7 px a character; the letter and a space come first.
        let longest = d.legend.iter().map(|(_, name)| name.chars().count()).max().unwrap_or(0);
        let entry_w = LEGEND_ENTRY.max((longest + 4) as f32 * 7.2);
        let per_line = (((width - 2.0 * MARGIN) / entry_w).floor() as usize).max(1);
        let legend_lines = 1 + d.legend.len().div_ceil(per_line);
        let board_bottom = top + board_h;
        let height = board_bottom + 8.0 + legend_lines as f32 * LEGEND_LINE + MARGIN;
        let mut layout = Layout {
            min_x: min_x - 1.0,
            min_y: min_y - 1.0,
            top,
            board_bottom,
            width,
            height,
            legend_lines,
            per_line,
            entry_w,
            centres: HashMap::new(),
        };
        layout.centres = d.cells.iter().map(|c| (c.key, layout.px(c.x, c.y))).collect();
        layout
    }

    /// Pixel position of a point in diagram units.
    fn px(&self, x: f32, y: f32) -> (f32, f32) {
        (MARGIN + (x - self.min_x) * UNIT, self.top + (y - self.min_y) * UNIT)
    }

    /// Pixel centre of the cell with `key`, if the diagram has it.
    fn cell_px(&self, key: u16) -> Option<(f32, f32)> {
        self.centres.get(&key).copied()
    }
}

/// Smallest and largest value (0, 0 when empty).
fn bounds(values: impl Iterator<Item = f32>) -> (f32, f32) {
    values
        .fold(None, |acc: Option<(f32, f32)>, v| Some(acc.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v)))))
        .unwrap_or((0.0, 0.0))
}

/// The corners of a cell's outline around pixel centre `(cx, cy)`.
fn outline(shape: CellShape, cx: f32, cy: f32) -> String {
    let corners: Vec<(f32, f32)> = match shape {
        CellShape::FlatHex | CellShape::PointyHex => {
            let offset = if shape == CellShape::FlatHex { 0.0 } else { 30.0 };
            (0..6)
                .map(|i| {
                    let a = (offset + 60.0 * i as f32).to_radians();
                    (cx + UNIT * a.cos(), cy + UNIT * a.sin())
                })
                .collect()
        }
        CellShape::Square => {
            vec![(cx - UNIT, cy - UNIT), (cx + UNIT, cy - UNIT), (cx + UNIT, cy + UNIT), (cx - UNIT, cy + UNIT)]
        }
    };
    corners.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ")
}

fn draw_cells(svg: &mut String, d: &Diagram, l: &Layout) {
    svg.push_str("<g class=\"cells\" stroke=\"#5b4026\" stroke-width=\"0.8\">\n");
    for c in &d.cells {
        let (cx, cy) = l.px(c.x, c.y);
        let fill = SHADES[c.shade.min(2) as usize];
        let _ = writeln!(
            svg,
            r#"<polygon class="cell" data-cell="{}" points="{}" fill="{fill}"><title>{}</title></polygon>"#,
            escape(&c.label),
            outline(c.shape, cx, cy),
            escape(&c.label)
        );
    }
    svg.push_str("</g>\n");
    if d.label_cells {
        svg.push_str(
            "<g class=\"labels\" font-size=\"7\" fill=\"#3b2a1a\" fill-opacity=\"0.8\" text-anchor=\"middle\">\n",
        );
        for c in &d.cells {
            let (cx, cy) = l.px(c.x, c.y);
            let _ = writeln!(
                svg,
                r#"<text class="label" x="{cx:.1}" y="{:.1}">{}</text>"#,
                cy + 0.8 * UNIT,
                escape(&c.label)
            );
        }
        svg.push_str("</g>\n");
    }
}

/// Tints the cells the last move left and entered.
fn draw_highlights(svg: &mut String, d: &Diagram, l: &Layout, arrows: &[Arrow]) {
    for a in arrows.iter().filter(|a| a.kind == ArrowKind::LastMove) {
        for c in d.cells.iter().filter(|c| c.key == a.from || c.key == a.to) {
            let (cx, cy) = l.px(c.x, c.y);
            let _ = writeln!(
                svg,
                r##"<polygon class="highlight" points="{}" fill="#f4d03f" fill-opacity="0.5" stroke="none"/>"##,
                outline(c.shape, cx, cy)
            );
        }
    }
}

fn draw_captions(svg: &mut String, d: &Diagram, l: &Layout) {
    for c in &d.captions {
        let (x, y) = l.px(c.x, c.y);
        let _ = writeln!(
            svg,
            r##"<text class="caption" x="{x:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#333">{}</text>"##,
            y + 4.5,
            escape(&c.text)
        );
    }
}

fn draw_pieces(svg: &mut String, d: &Diagram, l: &Layout) {
    let size = 0.7 * UNIT;
    let _ = writeln!(
        svg,
        r#"<g class="pieces" text-anchor="middle" font-weight="bold" font-size="{size:.1}" stroke-width="1.4">"#
    );
    for (seat, &(fill, stroke, ink)) in SEATS.iter().enumerate() {
        let mine = d.pieces.iter().filter(|p| p.owner.min(SEATS.len() - 1) == seat);
        // Colours are set once per seat rather than on every disc: a Weltschach ply has 352.
        let _ = writeln!(svg, r#"<g fill="{fill}" stroke="{stroke}">"#);
        for p in mine {
            let Some((cx, cy)) = l.cell_px(p.cell) else { continue };
            let _ = writeln!(
                svg,
                r#"<g class="piece" data-owner="{}"><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}"/><text x="{cx:.1}" y="{:.1}" fill="{ink}" stroke="none">{}</text></g>"#,
                p.owner,
                0.5 * UNIT,
                cy + 0.25 * UNIT,
                escape(&p.letter.to_string())
            );
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</g>\n");
}

fn draw_arrows(svg: &mut String, d: &Diagram, l: &Layout, arrows: &[Arrow]) {
    svg.push_str("<g class=\"arrows\">\n");
    // Notes keep off the pieces' discs (and so their letters) and off each other.
    let mut taken: Vec<Spot> = d
        .pieces
        .iter()
        .filter_map(|p| l.cell_px(p.cell))
        .map(|(x, y)| Spot { x, y, half_w: 0.5 * UNIT, half_h: 0.5 * UNIT })
        .collect();
    for a in arrows {
        let (Some(from), Some(to)) = (l.cell_px(a.from), l.cell_px(a.to)) else { continue };
        let (colour, width, note) = match a.kind {
            ArrowKind::LastMove => ("#1f6fb2", 0.22 * UNIT, None),
            ArrowKind::Candidate(share) => {
                ("#1e8449", (0.1 + 0.25 * share.clamp(0.0, 1.0)) * UNIT, Some(format!("{:.0}%", share * 100.0)))
            }
        };
        let class = if note.is_some() { "arrow candidate" } else { "arrow last-move" };
        let shape = ArrowShape::new(from, to, width);
        let mut body = shape.svg(width);
        if let Some(note) = note {
            // Just behind the head, where arrows sharing a line (a slider's options) keep
            // their notes apart, unless a piece or another note is there.
            let preferred = (shape.base.0 - shape.dir.0 * 0.45 * UNIT, shape.base.1 - shape.dir.1 * 0.45 * UNIT);
            let (x, y) = place_note(from, shape.tip, preferred, &note, &taken);
            taken.push(note_box(x, y, &note));
            let _ = write!(
                body,
                r##"<text class="note" x="{x:.1}" y="{:.1}" font-size="10" font-weight="bold" text-anchor="middle" stroke="#fff" stroke-width="2.5" paint-order="stroke">{}</text>"##,
                y + 3.5,
                escape(&note)
            );
        }
        let _ = writeln!(svg, r#"<g class="{class}" fill="{colour}" stroke="{colour}" opacity="0.78">{body}</g>"#);
    }
    svg.push_str("</g>\n");
}

/// A move's arrow in pixels: a shaft from the tail and a triangular head ending at the tip.
struct ArrowShape {
    from: (f32, f32),
    tip: (f32, f32),
    base: (f32, f32),
    /// Unit vector from tail to tip.
    dir: (f32, f32),
    head: f32,
}

impl ArrowShape {
    fn new(from: (f32, f32), to: (f32, f32), width: f32) -> ArrowShape {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-3);
        let dir = (dx / len, dy / len);
        let head = (width * 2.6).max(0.55 * UNIT);
        // Stop short of the centre so the arrow points at the piece rather than covering it.
        let tip = (to.0 - dir.0 * 0.3 * UNIT, to.1 - dir.1 * 0.3 * UNIT);
        let base = (tip.0 - dir.0 * head, tip.1 - dir.1 * head);
        ArrowShape { from, tip, base, dir, head }
    }

    /// The shaft and the head as SVG elements.
    fn svg(&self, width: f32) -> String {
        let half = self.head * 0.55;
        let (ux, uy) = self.dir;
        format!(
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke-width="{width:.1}" stroke-linecap="round"/><polygon stroke="none" points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}"/>"#,
            self.from.0,
            self.from.1,
            self.base.0,
            self.base.1,
            self.tip.0,
            self.tip.1,
            self.base.0 - uy * half,
            self.base.1 + ux * half,
            self.base.0 + uy * half,
            self.base.1 - ux * half
        )
    }
}

fn draw_legend(svg: &mut String, d: &Diagram, l: &Layout) {
    let y0 = l.board_bottom + 8.0;
    let _ = writeln!(svg, r##"<g class="legend" font-size="12" fill="#222">"##);
    let mut x = MARGIN;
    for (seat, name) in d.players.iter().enumerate() {
        let (fill, stroke, _) = SEATS[seat.min(SEATS.len() - 1)];
        let mover = if seat == d.to_move { " (to move)" } else { "" };
        let _ = writeln!(
            svg,
            r#"<circle cx="{:.1}" cy="{:.1}" r="6" fill="{fill}" stroke="{stroke}"/><text x="{:.1}" y="{:.1}">{}{mover}</text>"#,
            x + 6.0,
            y0 + 11.0,
            x + 16.0,
            y0 + 15.0,
            escape(name)
        );
        x += if mover.is_empty() { LEGEND_ENTRY * 0.8 } else { LEGEND_ENTRY * 1.3 };
    }
    for (i, (letter, name)) in d.legend.iter().enumerate() {
        let (col, line) = (i % l.per_line, 1 + i / l.per_line);
        debug_assert!(line < l.legend_lines);
        let x = MARGIN + col as f32 * l.entry_w;
        let y = y0 + line as f32 * LEGEND_LINE + 15.0;
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{y:.1}"><tspan font-weight="bold">{}</tspan> {}</text>"#,
            escape(&letter.to_string()),
            escape(name)
        );
    }
    svg.push_str("</g>\n");
}
