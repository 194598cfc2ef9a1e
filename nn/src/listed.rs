//! Policy logits at listed moves only: the policy head's last layer is a 1x1 convolution with
//! one output plane per move kind, so the logit of policy index `i` (kind `i / cells`, cell
//! `i % cells`) is one dot product of that kind's weights with the features at that cell.
//! Computing the few hundred legal moves' logits this way, instead of the whole plane stack
//! (178,432 logits a Weltschach position, 41,140 a Wellisch one), costs almost nothing; the
//! values are the whole head's at those indices, to float rounding.

use tch::{Kind, Tensor};

/// The policy indices wanted for each position of a batch, one position's after another.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListedMoves {
    /// Policy indices, `counts[0]` for the first position, then the second's, and so on.
    pub indices: Vec<i64>,
    /// How many indices each position lists.
    pub counts: Vec<usize>,
}

impl ListedMoves {
    /// Appends the lists of `other`'s positions after this one's.
    pub fn extend(&mut self, other: &ListedMoves) {
        self.indices.extend_from_slice(&other.indices);
        self.counts.extend_from_slice(&other.counts);
    }

    /// The lists of positions `start..start + count`.
    pub fn part(&self, start: usize, count: usize) -> ListedMoves {
        let from: usize = self.counts[..start].iter().sum();
        let len: usize = self.counts[start..start + count].iter().sum();
        ListedMoves {
            indices: self.indices[from..from + len].to_vec(),
            counts: self.counts[start..start + count].to_vec(),
        }
    }

    /// The number of positions.
    pub fn positions(&self) -> usize {
        self.counts.len()
    }

    /// The batch row of each listed index.
    fn rows(&self) -> Vec<i64> {
        self.counts.iter().enumerate().flat_map(|(row, &n)| std::iter::repeat_n(row as i64, n)).collect()
    }
}

/// The logits at `listed` of a 1x1 convolution (`weight` `[planes, C, 1..]`, `bias` `[planes]`)
/// over `features` (`[B, C, ..spatial]`, any memory layout), flattened plane-major as the whole
/// head's output is: one fp32 logit per listed index, in order.
pub(crate) fn logits_at(features: &Tensor, weight: &Tensor, bias: &Tensor, listed: &ListedMoves) -> Tensor {
    let device = features.device();
    let channels = features.size()[1];
    let cells: i64 = features.size()[2..].iter().product();
    // [B, C, cells] -> [B * cells, C]: one row of features per cell of each position.
    let by_cell = features.flatten(2, -1).transpose(1, 2).reshape([-1, channels]);
    let indices = Tensor::from_slice(&listed.indices).to_device(device);
    let rows = Tensor::from_slice(&listed.rows()).to_device(device);
    let kinds = indices.floor_divide_scalar(cells);
    let cell = indices.remainder(cells);
    let at = by_cell.index_select(0, &(rows * cells + cell));
    let w = weight.reshape([-1, channels]).index_select(0, &kinds);
    let b = bias.index_select(0, &kinds);
    ((at.to_kind(Kind::Float) * w.to_kind(Kind::Float)).sum_dim_intlist(-1, false, Kind::Float)
        + b.to_kind(Kind::Float))
    .to_kind(Kind::Float)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists() -> ListedMoves {
        ListedMoves { indices: vec![5, 1, 7, 2, 9, 4], counts: vec![2, 0, 3, 1] }
    }

    #[test]
    fn a_part_holds_its_positions_lists() {
        let l = lists();
        assert_eq!(l.part(1, 2), ListedMoves { indices: vec![7, 2, 9], counts: vec![0, 3] });
        assert_eq!(l.part(3, 1), ListedMoves { indices: vec![4], counts: vec![1] });
        assert_eq!(l.part(0, 0), ListedMoves::default());
        let mut joined = l.part(0, 2);
        joined.extend(&l.part(2, 2));
        assert_eq!(joined, l);
        assert_eq!(l.rows(), vec![0, 0, 2, 2, 2, 3]);
    }

    #[test]
    fn listed_logits_are_the_whole_convolutions_at_those_indices() {
        tch::manual_seed(3);
        let (batch, channels, planes) = (4, 5, 3);
        let features = Tensor::randn([batch, channels, 2, 3], (Kind::Float, tch::Device::Cpu));
        let weight = Tensor::randn([planes, channels, 1, 1], (Kind::Float, tch::Device::Cpu));
        let bias = Tensor::randn([planes], (Kind::Float, tch::Device::Cpu));
        let whole = features.conv2d(&weight, Some(&bias), [1, 1], [0, 0], [1, 1], 1).flatten(1, -1);
        let l = ListedMoves { indices: vec![0, 17, 6, 11, 3, 5, 12], counts: vec![2, 0, 4, 1] };
        let got = Vec::<f32>::try_from(&logits_at(&features, &weight, &bias, &l)).unwrap();
        let mut k = 0;
        for (row, &n) in l.counts.iter().enumerate() {
            for &i in &l.indices[k..k + n] {
                let want = whole.double_value(&[row as i64, i]) as f32;
                assert!((got[k] - want).abs() < 1e-5, "position {row} index {i}: {} against {want}", got[k]);
                k += 1;
            }
        }
        assert_eq!(k, got.len());
    }
}
