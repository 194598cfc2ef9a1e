//! A recorded game as a sequence of pictures: for every ply, the position, the move that led to
//! it, the search's most visited moves there and its value estimate.

use anyhow::anyhow;
use rules::{ending_text, Diagram, Encoding, Pictured};
use selfplay::replay::GameRecord;

use super::svg_board::{Arrow, ArrowKind};

/// One of the search's candidate moves at a ply.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Move text in the variant's notation.
    pub text: String,
    /// Diagram keys of the cells it leaves and enters (none for a pass).
    pub cells: Option<(u16, u16)>,
    /// Its share of the root's visits.
    pub share: f32,
}

/// The game before the move at one ply.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The position.
    pub diagram: Diagram,
    /// The move that led here, as text and cells (none at ply 0; no cells for a pass).
    pub last: Option<(String, Option<(u16, u16)>)>,
    /// The move played here (none after the last move).
    pub next: Option<String>,
    /// The most visited moves of the search here, best first (empty where none were recorded).
    pub candidates: Vec<Candidate>,
    /// The search's root visits here (0 where none were recorded).
    pub visits: u32,
    /// The search's expected score of each seat here (none where it was not recorded).
    pub value: Option<Vec<f32>>,
    /// How the game ended, in words, where the rules ended it here ([`rules::ending_text`]).
    pub ending: Option<String>,
}

impl Frame {
    /// Arrows for the last move and the candidates, as asked.
    pub fn arrows(&self, last: bool, candidates: bool) -> Vec<Arrow> {
        let mut out = Vec::new();
        if candidates {
            for (c, (from, to)) in self.candidates.iter().filter_map(|c| Some((c, c.cells?))) {
                out.push(Arrow { from, to, kind: ArrowKind::Candidate(c.share) });
            }
        }
        if let (true, Some((_, Some((from, to))))) = (last, &self.last) {
            out.push(Arrow { from: *from, to: *to, kind: ArrowKind::LastMove });
        }
        out
    }
}

/// The diagram of `game`, or an error naming a variant that cannot draw itself.
pub fn diagram_of<G: Pictured>(game: &G) -> anyhow::Result<Diagram> {
    game.diagram().ok_or_else(|| anyhow!("variant '{}' has no board picture yet", G::NAME))
}

/// The caption of a position: how the game ended, or else whose move it is.
pub fn status_line(diagram: &Diagram, ending: Option<&str>) -> String {
    match ending {
        Some(ending) => ending.to_string(),
        None => format!("{} to move.", diagram.players.get(diagram.to_move).map_or("?", String::as_str)),
    }
}

/// One frame per ply of `record`, `record.moves.len() + 1` in all (the last is the final
/// position), each with up to `top` candidates.
pub fn frames<G: Encoding + Pictured>(record: &GameRecord, top: usize) -> anyhow::Result<Vec<Frame>> {
    let mut replay = record.replay::<G>()?;
    let mut out = Vec::with_capacity(record.moves.len() + 1);
    let mut last = None;
    while let Some(step) = replay.step() {
        let step = step?;
        let (game, m, ply) = (step.position, step.record, step.ply);
        let total: u32 = m.visits.iter().map(|&(_, n)| n).sum();
        let mut ranked = m.visits.clone();
        ranked.sort_by_key(|&(index, n)| (std::cmp::Reverse(n), index));
        let mut candidates = Vec::new();
        for &(index, n) in ranked.iter().take(top) {
            let mv = step
                .legal_move(index)
                .ok_or_else(|| anyhow!("recorded visits at ply {ply} name move {index}, which is not legal there"))?;
            candidates.push(Candidate {
                text: game.move_text(mv),
                cells: game.move_cells(mv),
                share: n as f32 / total.max(1) as f32,
            });
        }
        let text = game.move_text(step.mv);
        out.push(Frame {
            diagram: diagram_of(game)?,
            last: last.take(),
            next: Some(text.clone()),
            candidates,
            visits: total,
            value: m.root_value.map(|v| v[..G::NUM_PLAYERS].to_vec()),
            ending: None,
        });
        last = Some((text, game.move_cells(step.mv)));
    }
    let game = replay.into_position();
    let diagram = diagram_of(&game)?;
    let ending = ending_text(&game);
    out.push(Frame { diagram, last, next: None, candidates: Vec::new(), visits: 0, value: None, ending });
    Ok(out)
}
