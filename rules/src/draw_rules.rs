//! The draw rules in the one order every engine checks them: the quiet-ply count, repetition,
//! insufficient material. What comes before them (mate and stalemate, or a king capture) is each
//! engine's own.

use crate::ending::Ending;

/// The draw rule that ends the game now, if any: `quiet_plies_out` (the variant's count of plies
/// without a capture or pawn move has run out) first, then `repeated` (the position stands for
/// the third time), then `insufficient` (no sequence of moves can mate any more).
///
/// The later two are closures so that each runs only when the rules before it found nothing;
/// inlined, this is the chain of `||` each engine used to spell out, at the same cost.
#[inline(always)]
pub(crate) fn draw_by_rule(
    quiet_plies_out: bool,
    repeated: impl FnOnce() -> bool,
    insufficient: impl FnOnce() -> bool,
) -> Option<Ending> {
    if quiet_plies_out {
        Some(Ending::QuietPlies)
    } else if repeated() {
        Some(Ending::Repetition)
    } else if insufficient() {
        Some(Ending::InsufficientMaterial)
    } else {
        None
    }
}
