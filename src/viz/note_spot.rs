//! Where an arrow's note (a candidate's share of the visits) goes: on the arrow's line, but
//! where it covers no piece and no other note, so the letters under it stay readable.

/// An axis-aligned box in pixels: centre and half sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    /// Centre, x.
    pub x: f32,
    /// Centre, y.
    pub y: f32,
    /// Half the width.
    pub half_w: f32,
    /// Half the height.
    pub half_h: f32,
}

impl Spot {
    /// Whether the two boxes share any area.
    pub fn overlaps(&self, other: &Spot) -> bool {
        (self.x - other.x).abs() < self.half_w + other.half_w && (self.y - other.y).abs() < self.half_h + other.half_h
    }
}

/// Pixels per character of the notes' 10 px bold text, and their height.
pub const NOTE_CHAR_W: f32 = 6.5;
/// The notes' text height in pixels.
pub const NOTE_H: f32 = 10.0;

/// The box of a note `text` centred at `(x, y)`.
pub fn note_box(x: f32, y: f32, text: &str) -> Spot {
    Spot { x, y, half_w: text.chars().count() as f32 * NOTE_CHAR_W / 2.0, half_h: NOTE_H / 2.0 }
}

/// The centre for note `text` of the arrow from `from` to `tip`: the first point, walking back
/// from the tip in small steps and then sideways from the line, whose box avoids every box in
/// `taken`; `preferred` when none does (a board too crowded to avoid everything).
pub fn place_note(from: (f32, f32), tip: (f32, f32), preferred: (f32, f32), text: &str, taken: &[Spot]) -> (f32, f32) {
    let free = |(x, y): (f32, f32)| {
        let b = note_box(x, y, text);
        !taken.iter().any(|t| t.overlaps(&b))
    };
    if free(preferred) {
        return preferred;
    }
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (nx, ny) = (-dy / len, dx / len);
    const STEPS: usize = 16;
    for side in [0.0, 14.0, -14.0, 24.0, -24.0] {
        for i in 0..=STEPS {
            // From the tip back to the tail, so the note stays near the move's end.
            let t = 1.0 - i as f32 / STEPS as f32;
            let spot = (from.0 + dx * t + nx * side, from.1 + dy * t + ny * side);
            if free(spot) {
                return spot;
            }
        }
    }
    preferred
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_leaves_a_covered_spot_for_a_free_one_on_its_line() {
        let piece = Spot { x: 100.0, y: 100.0, half_w: 12.0, half_h: 12.0 };
        let spot = place_note((0.0, 100.0), (100.0, 100.0), (100.0, 100.0), "45%", &[piece]);
        assert!(!note_box(spot.0, spot.1, "45%").overlaps(&piece), "{spot:?}");
        assert_eq!(spot.1, 100.0, "still on the arrow's line");
        assert_eq!(place_note((0.0, 0.0), (50.0, 0.0), (10.0, 0.0), "5%", &[piece]), (10.0, 0.0), "free stays");
    }
}
