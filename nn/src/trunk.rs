//! The two moves of a halved trunk ([`crate::config::Trunk::Halved`]) between the board's cells
//! and the coarse grid of 2x2(x2) cells the residual blocks run on. Both are rearrangements, no
//! arithmetic: the network and its fast form share them, so they agree exactly.

use tch::Tensor;

/// `[B, C, S1, .., Sk]` (even sides) as `[B, C * 2^k, S1/2, .., Sk/2]`: each coarse cell holds
/// the channels of its 2^k fine cells, so a 1x1 convolution after it is a 2x2(x2) convolution of
/// stride 2.
pub(crate) fn fold_cells(x: &Tensor) -> Tensor {
    let size = x.size();
    let k = size.len() - 2;
    let mut split = vec![size[0], size[1]];
    for &s in &size[2..] {
        split.extend([s / 2, 2]);
    }
    // [B, C, S1/2, 2, .., Sk/2, 2] -> [B, C, 2, .., 2, S1/2, .., Sk/2].
    let mut order: Vec<i64> = vec![0, 1];
    order.extend((0..k as i64).map(|i| 3 + 2 * i));
    order.extend((0..k as i64).map(|i| 2 + 2 * i));
    let mut folded = vec![size[0], size[1] << k];
    folded.extend(size[2..].iter().map(|s| s / 2));
    x.reshape(&split).permute(&order).reshape(&folded)
}

/// `[B, C, S1, .., Sk]` as `[B, C, 2 S1, .., 2 Sk]`, each coarse cell's values on its 2^k fine
/// cells (nearest-neighbour upsampling).
pub(crate) fn spread_cells(x: &Tensor) -> Tensor {
    (2..x.dim() as i64).fold(x.shallow_clone(), |t, d| t.repeat_interleave_self_int(2, Some(d), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::{Device, Kind};

    #[test]
    fn folding_gathers_each_coarse_cells_fine_cells() {
        // One channel on a 4x2 grid holding its own flat index.
        let x = Tensor::arange(8, (Kind::Float, Device::Cpu)).reshape([1, 1, 4, 2]);
        let f = fold_cells(&x);
        assert_eq!(f.size(), [1, 4, 2, 1]);
        // Coarse cell (0, 0) covers fine rows 0-1, columns 0-1: indices 0, 1, 2, 3, in the
        // order (row offset, column offset) = (0,0), (0,1), (1,0), (1,1).
        let at = |c: i64, r: i64| f.double_value(&[0, c, r, 0]);
        assert_eq!([at(0, 0), at(1, 0), at(2, 0), at(3, 0)], [0.0, 1.0, 2.0, 3.0]);
        assert_eq!([at(0, 1), at(1, 1), at(2, 1), at(3, 1)], [4.0, 5.0, 6.0, 7.0]);
    }

    #[test]
    fn spreading_copies_each_coarse_cell_onto_its_fine_cells() {
        let x = Tensor::arange(8, (Kind::Float, Device::Cpu)).reshape([1, 1, 2, 2, 2]);
        let s = spread_cells(&x);
        assert_eq!(s.size(), [1, 1, 4, 4, 4]);
        for (d, h, w) in [(0, 0, 0), (3, 1, 2), (2, 3, 3), (1, 2, 0)] {
            let want = x.double_value(&[0, 0, d / 2, h / 2, w / 2]);
            assert_eq!(s.double_value(&[0, 0, d, h, w]), want, "fine cell ({d}, {h}, {w})");
        }
        // Folding what was spread gives each coarse cell its value on every fine channel.
        let f = fold_cells(&s);
        assert_eq!(f.size(), [1, 8, 2, 2, 2]);
        for c in 0..8 {
            assert_eq!(f.double_value(&[0, c, 1, 0, 1]), x.double_value(&[0, 0, 1, 0, 1]));
        }
    }
}
