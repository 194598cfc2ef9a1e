//! One game on the page: where it started, the moves since, who plays each seat, and what the
//! engine is doing about it, with the game and its board as the page draws them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rules::game_text::check_mark;
use rules::{BoardMove, Ending, Variant, VariantGame};

use super::players::Seat;
use super::wire::{
    BoardCaption, BoardCell, BoardPanel, BoardPiece, BoardReply, GameReply, JobKind, LegalMove, PlyReply, Report,
    SeatInfo, Thinking,
};
use crate::engine::{time_loss_scores, Clocks};
use crate::viz::svg_board::{SEATS, SEAT_COLOURS, SHADES};

/// A search or move choice running in the background for a game.
pub struct Job {
    /// Playing the seat's move, or analysing for the person.
    pub kind: JobKind,
    /// The player searching, as the page shows it.
    pub who: String,
    /// Set to end the search now (a network player then plays its best move so far).
    pub stop: Arc<AtomicBool>,
    /// The search's latest report (`vzero analyse --json`'s object), while it searches.
    pub report: Arc<Mutex<Option<Report>>>,
    /// The game's version when the job began: its answer is dropped if the game moved on.
    pub version: u64,
}

/// What the search of one played move found, kept for the saved game.
#[derive(Clone, Debug, Default)]
pub struct MoveSearch {
    /// Root visits of the moves the report listed, by move text.
    pub visits: Vec<(String, u32)>,
    /// The root's value per seat.
    pub values: Option<Vec<f32>>,
}

/// One move of a game on the page.
pub struct Played {
    /// Its text and cells.
    pub mv: BoardMove,
    /// A network's search that chose it.
    pub search: Option<MoveSearch>,
    /// What it gave: `+` check, `#` checkmate, `` neither ([`check_mark`]).
    pub mark: &'static str,
}

/// A game on the page: its moves, its seats, and what the engine is doing about it.
pub struct Game {
    /// Where the game started (position text).
    pub start: String,
    /// The position now.
    pub position: VariantGame,
    /// Every move played since `start`.
    pub played: Vec<Played>,
    /// One player per seat.
    pub seats: Vec<Seat>,
    /// Raised by every change of the position, so that a late engine answer is not played.
    pub version: u64,
    /// The engine's work in progress, if any.
    pub job: Option<Job>,
    /// The last finished analysis (or a network player's last search).
    pub analysis: Option<Report>,
    /// What went wrong with the last engine move, if it failed.
    pub note: Option<String>,
    /// Seed of the fixed players' choices.
    pub seed: u64,
    /// When a request last named it: the game a page shows is never the one ended for a new one.
    pub seen: Instant,
    /// The seats' clocks, in a timed game.
    pub clocks: Option<Clocks>,
    /// The seat that lost on time, if one has.
    pub flag: Option<usize>,
}

impl Game {
    /// A game of `variant` from `start` (the start position if `None`) with `seats`, seed 0
    /// until the server sets it; the error is the position parser's one line.
    pub fn new(variant: Variant, start: Option<&str>, seats: Vec<Seat>) -> Result<Game, String> {
        let position = VariantGame::setup::<&str>(variant, start, &[]).map_err(|e| e.to_string())?;
        Ok(Game {
            start: position.to_text(),
            position,
            played: Vec::new(),
            seats,
            version: 0,
            job: None,
            analysis: None,
            note: None,
            seed: 0,
            seen: Instant::now(),
            clocks: None,
            flag: None,
        })
    }

    /// The moves played, as text.
    pub fn moves(&self) -> Vec<String> {
        self.played.iter().map(|p| p.mv.text.clone()).collect()
    }

    /// The seat to move, if the game is not over (by the rules or on time).
    pub fn mover(&self) -> Option<usize> {
        (self.position.outcome().is_none() && self.flag.is_none()).then(|| self.position.to_move())
    }

    /// Ends the game if the mover's time has run out (its search stopped); whether it did now.
    pub fn check_time(&mut self) -> bool {
        let Some(mover) = self.mover() else { return false };
        if !self.clocks.as_ref().is_some_and(|c| c.flagged(mover)) {
            return false;
        }
        self.flag = Some(mover);
        self.changed();
        true
    }

    /// Each seat's score once the game is over, by the rules or on time (what a saved game's
    /// result should be; save.rs still reads the position's outcome alone).
    pub fn scores(&self) -> Option<Vec<f32>> {
        match self.flag {
            Some(loser) => Some(time_loss_scores(loser, self.seats.len())),
            None => self.position.outcome().map(|s| s.as_slice().to_vec()),
        }
    }

    /// How the game ended in one sentence (`White lost on time.`), or why nothing can be
    /// played; `None` while it goes on.
    pub fn over_text(&self) -> Option<String> {
        if let Some(loser) = self.flag {
            let names = drawn(&self.position).2;
            let name = |s: usize| names.get(s).cloned().unwrap_or_else(|| format!("seat {}", s + 1));
            let winner = if self.seats.len() == 2 { format!(", {} wins", name(1 - loser)) } else { String::new() };
            return Some(format!("{} lost on time{winner}.", name(loser)));
        }
        self.position.ending_text().or_else(|| self.position.game_over_text())
    }

    /// Ends the job in progress (its answer, if it still comes, is dropped) and marks the
    /// position changed.
    pub fn changed(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::Relaxed);
        }
        self.version += 1;
        self.note = None;
    }

    /// Plays `text` (a legal move); the error is the engine's one line on why not.
    pub fn play(&mut self, text: &str, search: Option<MoveSearch>) -> Result<(), String> {
        let mover = self.position.to_move();
        let mv = self.position.play_text(text.trim()).map_err(|e| e.to_string())?;
        if let Some(clocks) = &mut self.clocks {
            clocks.moved(mover);
        }
        self.played.push(Played { mv, search, mark: check_mark(&self.position) });
        self.changed();
        Ok(())
    }

    /// Takes back moves: at least one, then on while an engine is to move (so that it does not
    /// at once play again), as far as the game's start. Whether anything was taken back.
    pub fn undo(&mut self) -> bool {
        if self.played.is_empty() {
            return false;
        }
        self.played.pop();
        // An analysis of a later position would read as one of this position's past.
        self.analysis = None;
        let seats = self.seats.clone();
        loop {
            self.replay();
            let engine_to_move = !seats[self.position.to_move() % seats.len()].is_person();
            if self.played.is_empty() || !engine_to_move || seats.iter().all(|s| !s.is_person()) {
                break;
            }
            self.played.pop();
        }
        self.changed();
        true
    }

    /// The position after `played` from `start`.
    fn replay(&mut self) {
        let moves = self.moves();
        self.position = VariantGame::setup(self.position.variant(), Some(&self.start), &moves)
            .expect("moves that were legal replay from the same start");
    }

    /// The game as the page draws it: seats, position, pieces, legal moves with their cells,
    /// the last move, the engine's work and the last analysis.
    pub fn reply(&self, id: u64) -> GameReply {
        let (pieces, legend, seat_names) = drawn(&self.position);
        let legal = if self.position.outcome().is_some() {
            Vec::new()
        } else {
            self.position
                .legal_board_moves()
                .into_iter()
                .map(|m| LegalMove { from: m.cells.map(|c| c.0), to: m.cells.map(|c| c.1), text: m.text })
                .collect()
        };
        let thinking = self.job.as_ref().map(|job| Thinking {
            kind: job.kind,
            who: job.who.clone(),
            report: job.report.lock().map(|r| r.clone()).unwrap_or(None),
        });
        GameReply {
            id,
            version: self.version,
            variant: self.position.variant().name(),
            seats: self
                .seats
                .iter()
                .map(|s| SeatInfo { player: s.text(), title: s.title(), person: s.is_person() })
                .collect(),
            seat_names,
            to_move: self.position.to_move(),
            start: self.start.clone(),
            position: self.position.to_text(),
            moves: self.moves(),
            marks: self.played.iter().map(|p| p.mark).collect(),
            check: self.position.checked_king(),
            over: self.over_text(),
            result: self.scores().map(|scores| result_text(&scores)),
            ending: if self.flag.is_some() { Some("time") } else { self.position.ending().map(Ending::name) },
            // A seat lost on time shows its clock run down to 0.
            clocks: self.clocks.as_ref().map(|c| c.millis(self.mover().or(self.flag))).unwrap_or_default(),
            pieces,
            legend,
            legal,
            last: self.played.last().and_then(|p| p.mv.cells),
            thinking,
            analysis: self.analysis.clone(),
            note: self.note.clone(),
        }
    }
}

impl Game {
    /// The position after the first `ply` moves, as the page draws it when the move list is
    /// stepped back; the refusal says how many moves there are.
    pub fn ply_reply(&self, id: u64, ply: usize) -> Result<PlyReply, String> {
        if ply > self.played.len() {
            return Err(format!("ply {ply}: the game has {} moves", self.played.len()));
        }
        let moves = &self.moves()[..ply];
        let position = VariantGame::setup(self.position.variant(), Some(&self.start), moves)
            .expect("moves that were legal replay from the same start");
        let (pieces, ..) = drawn(&position);
        let last = ply.checked_sub(1).and_then(|i| self.played[i].mv.cells);
        Ok(PlyReply { id, ply, position: position.to_text(), pieces, last, check: position.checked_king() })
    }
}

/// A game's result as the move list ends with it: each seat's score in seat order, joined by
/// dashes (`1-0`, `½-½`, Glinski's stalemate `¾-¼`, Wellisch's `1-½-0`).
pub fn result_text(scores: &[f32]) -> String {
    let score = |v: f32| match (v * 4.0).round() as i32 {
        q if (v * 4.0 - q as f32).abs() > 1e-4 => format!("{v:.2}"),
        0 => "0".into(),
        1 => "¼".into(),
        2 => "½".into(),
        3 => "¾".into(),
        4 => "1".into(),
        _ => format!("{v:.2}"),
    };
    scores.iter().map(|&v| score(v)).collect::<Vec<_>>().join("-")
}

/// The pieces of `position`, its legend and its seats' names, as the page draws them.
fn drawn(position: &VariantGame) -> (Vec<BoardPiece>, Vec<(char, String)>, Vec<String>) {
    match position.diagram() {
        Some(d) => {
            let pieces = d.pieces.iter().map(|p| BoardPiece { cell: p.cell, owner: p.owner, letter: p.letter });
            (pieces.collect(), d.legend, d.players)
        }
        None => Default::default(),
    }
}

/// The board of `variant` that stays the same through a game: its cells, captions and seat
/// names, drawn once by the page.
pub fn board_reply(variant: Variant) -> BoardReply {
    let d = VariantGame::start(variant).diagram();
    let cells = d.iter().flat_map(|d| &d.cells).map(|c| BoardCell {
        key: c.key,
        x: c.x,
        y: c.y,
        shape: match c.shape {
            rules::CellShape::FlatHex => "flat",
            rules::CellShape::PointyHex => "pointy",
            rules::CellShape::Square => "square",
        },
        shade: c.shade,
        label: c.label.clone(),
    });
    let captions = d.iter().flat_map(|d| &d.captions).map(|c| BoardCaption { x: c.x, y: c.y, text: c.text.clone() });
    let panels = d.iter().flat_map(|d| &d.panels).map(|p| BoardPanel { x: p.x, y: p.y, w: p.width, h: p.height });
    BoardReply {
        variant: variant.name(),
        panels: panels.collect(),
        colours: SEAT_COLOURS,
        cells: cells.collect(),
        captions: captions.collect(),
        label_cells: d.as_ref().is_some_and(|d| d.label_cells),
        players: d.map(|d| d.players).unwrap_or_default(),
        // The colours of `vzero render`'s boards.
        shades: SHADES,
        seats: SEATS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_each_seats_score_in_seat_order() {
        assert_eq!(result_text(&[1.0, 0.0]), "1-0");
        assert_eq!(result_text(&[0.5, 0.5]), "½-½");
        assert_eq!(result_text(&[0.75, 0.25]), "¾-¼");
        assert_eq!(result_text(&[1.0, 0.5, 0.0]), "1-½-0");
        assert_eq!(result_text(&[0.4, 0.6]), "0.40-0.60");
    }
}
