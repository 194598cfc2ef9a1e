//! A position as terminal text, the twin of the CLI's SVG board, for `vzero play` and the Python
//! module's `render()`: every cell of a [`Diagram`] at its place in a character grid (hex boards
//! become a hexagon of labelled cells, Weltschach its levels with their captions), pieces as
//! letters, the last move marked.

use crate::diagram::{CellShape, Diagram};

/// Text columns one step of a hex board's files takes beyond the widest cell (a space).
const GAP: usize = 1;

/// The board as lines of text. A cell prints as its label (where the diagram labels cells),
/// a mark (`*` on the two cells of `last`, the move that led here) and its piece: two-player
/// pieces in upper case for the first seat and lower case for the second, three-player pieces as
/// the letter and the seat number (`K1`); `.` for an empty cell.
pub fn board_text(d: &Diagram, last: Option<(u16, u16)>) -> String {
    let tokens: Vec<String> = d.cells.iter().map(|c| token(d, c.key, &c.label, last)).collect();
    let width = tokens.iter().map(|t| t.chars().count()).max().unwrap_or(1);
    let shape = d.cells.first().map_or(CellShape::Square, |c| c.shape);
    // Diagram units per text column and per text line: one file (flat hexes), half a cell
    // (pointy hexes, whose rows are offset by half a cell) or one square per step.
    let (x_step, columns_per_step, y_step) = match shape {
        CellShape::FlatHex => (1.5, width + GAP, crate::hex::HEX_PITCH / 2.0),
        CellShape::PointyHex => (crate::hex::HEX_PITCH / 2.0, (width + GAP).div_ceil(2), 1.5),
        CellShape::Square => (2.0, width, 2.0),
    };
    let xs = d.cells.iter().map(|c| c.x).chain(d.captions.iter().map(|c| c.x));
    let ys = d.cells.iter().map(|c| c.y).chain(d.captions.iter().map(|c| c.y));
    let min_x = xs.fold(f32::MAX, f32::min);
    let min_y = ys.fold(f32::MAX, f32::min);
    let at = |x: f32, y: f32| {
        let col = ((x - min_x) / x_step).round() as usize * columns_per_step;
        let row = ((y - min_y) / y_step).round() as usize;
        (row, col)
    };
    let mut grid: Vec<Vec<char>> = Vec::new();
    for (c, t) in d.cells.iter().zip(&tokens) {
        let (row, col) = at(c.x, c.y);
        put(&mut grid, row, col, &format!("{t:>width$}"));
    }
    for c in &d.captions {
        let (row, col) = at(c.x, c.y);
        // Centred on its point, as the SVG draws it, over a cell-wide column.
        let half = c.text.chars().count().saturating_sub(width) / 2;
        put(&mut grid, row, col.saturating_sub(half), &format!("{:>width$}", c.text));
    }
    let lines: Vec<String> =
        grid.into_iter().map(|l| l.into_iter().collect::<String>().trim_end().to_string()).collect();
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// One cell's text: label, mark and piece.
fn token(d: &Diagram, key: u16, label: &str, last: Option<(u16, u16)>) -> String {
    let marked = last.is_some_and(|(from, to)| key == from || key == to);
    let mark = if marked { '*' } else { ' ' };
    let piece = match d.pieces.iter().find(|p| p.cell == key) {
        None => ".".to_string(),
        Some(p) if d.players.len() > 2 => format!("{}{}", p.letter, p.owner + 1),
        Some(p) if p.owner == 0 => p.letter.to_ascii_uppercase().to_string(),
        Some(p) => p.letter.to_ascii_lowercase().to_string(),
    };
    if d.label_cells {
        format!("{label}{mark}{piece}")
    } else {
        format!("{mark}{piece}")
    }
}

/// Writes `text` into `grid` at line `row` from column `col`, growing the grid as needed.
fn put(grid: &mut Vec<Vec<char>>, row: usize, col: usize, text: &str) {
    if grid.len() <= row {
        grid.resize(row + 1, Vec::new());
    }
    let line = &mut grid[row];
    for (i, ch) in text.chars().enumerate() {
        if line.len() <= col + i {
            line.resize(col + i + 1, ' ');
        }
        line[col + i] = ch;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hexchess::MiniHexchess;
    use crate::wellisch::Wellisch;
    use crate::weltschach::Weltschach;
    use crate::{Game, Pictured};

    #[test]
    fn mini_start_is_a_hexagon_of_37_labelled_cells() {
        let game = MiniHexchess::start();
        let text = board_text(&game.diagram().unwrap(), None);
        let labelled = |w: &&str| w.len() > 1 && w.as_bytes()[1].is_ascii_digit();
        assert_eq!(text.split_whitespace().filter(labelled).count(), 37, "{text}");
        // Files of 4, 5, 6, 7, 6, 5, 4 cells side by side: 13 half-rows, the middle file's
        // cells on every other line.
        assert_eq!(text.lines().count(), 13, "{text}");
        assert!(text.contains("a1 .") && text.contains("d2 K"), "{text}");
        assert_eq!(text.matches('K').count(), 1, "{text}");
        assert_eq!(text.matches('k').count(), 1, "{text}");
    }

    #[test]
    fn the_last_move_is_marked_on_both_cells() {
        let mut game = MiniHexchess::start();
        let mv = game.parse_move("d3-d4").unwrap();
        let cells = game.move_cells(mv);
        game.play(mv);
        let text = board_text(&game.diagram().unwrap(), cells);
        assert!(text.contains("d3*.") && text.contains("d4*P"), "{text}");
        assert_eq!(text.matches('*').count(), 2);
    }

    #[test]
    fn wellisch_pieces_carry_their_seat_and_rows_run_across() {
        let text = board_text(&Wellisch::start().diagram().unwrap(), None);
        assert_eq!(text.lines().count(), 11, "{text}");
        let kings = text.split_whitespace().filter(|w| ["K1", "K2", "K3"].contains(w)).count();
        assert_eq!(kings, 3, "{text}");
    }

    #[test]
    fn weltschach_levels_stand_in_two_rows_of_four() {
        let text = board_text(&Weltschach::start().diagram().unwrap(), None);
        let level_lines: Vec<&str> = text.lines().filter(|l| l.contains("level")).collect();
        assert_eq!(level_lines.len(), 2, "{text}");
        assert!(level_lines.iter().all(|l| l.matches("level").count() == 4), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    }
}
