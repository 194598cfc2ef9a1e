//! The tactical prior: a softmax over every move's judged value, mixed into the evaluator's
//! prior of a new node, so the search looks at the captures and threats the judge sees however
//! low the evaluator ranks them (lc0 found refutations under a 0.2% prior missed).

use super::Tactics;

/// Judged expected scores are clamped this far inside (0, 1) before their logit: a found mate
/// takes nearly all of the tactical prior without making the others' weights zero.
const CLAMP: f32 = 1e-4;

/// `softmax(score / temperature)` over `scores`, computed from the best score down so that mate
/// scores do not overflow; at temperature 0 the best scores share the whole weight. The one way
/// move scores become a policy: the tactical prior's (logits of judged values) and a teacher's
/// policy target (centipawns).
pub fn softmax(scores: &[f64], temperature: f64) -> Vec<f32> {
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if temperature <= 0.0 {
        let ties = scores.iter().filter(|&&s| s == best).count() as f32;
        return scores.iter().map(|&s| if s == best { 1.0 / ties } else { 0.0 }).collect();
    }
    let weights: Vec<f64> = scores.iter().map(|&s| ((s - best) / temperature).exp()).collect();
    let sum: f64 = weights.iter().sum();
    weights.iter().map(|w| (w / sum) as f32).collect()
}

/// The tactical prior: a softmax over the judged values' logits at `temperature` (in logit
/// units), written to `out`. Works on logits so that a pawn means the same near equality and
/// a queen up, as the centipawns behind an expected score do.
pub(crate) fn judged_priors(values: &[f32], temperature: f32, out: &mut [f32]) {
    let logits: Vec<f64> = values
        .iter()
        .map(|&v| {
            let v = v.clamp(CLAMP, 1.0 - CLAMP);
            (v / (1.0 - v)).ln() as f64
        })
        .collect();
    out.copy_from_slice(&softmax(&logits, temperature.max(1e-3) as f64));
}

/// Mixes the tactical prior of `values` into `priors` as `tactics` says.
pub(crate) fn mix_priors(priors: &mut [f32], values: &[f32], tactics: &Tactics) {
    let mut tactical = vec![0.0; values.len()];
    judged_priors(values, tactics.tactical_temperature, &mut tactical);
    let w = tactics.tactical_prior.clamp(0.0, 1.0);
    for (p, t) in priors.iter_mut().zip(tactical) {
        *p = (1.0 - w) * *p + w * t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tactical_prior_favours_the_better_move_by_its_logit() {
        let mut out = [0.0; 3];
        // 0.5 and 0.73 are a logit of 1 apart: at temperature 1 their weights differ by e.
        judged_priors(&[0.5, 1.0 / (1.0 + (-1.0f32).exp()), 0.5], 1.0, &mut out);
        assert!((out.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!((out[1] / out[0] - std::f32::consts::E).abs() < 1e-3, "{out:?}");
        assert_eq!(out[0], out[2]);
        // A won move takes nearly everything, a lost one nearly nothing, and none is zero.
        judged_priors(&[1.0, 0.5, 0.0], 0.25, &mut out);
        assert!(out[0] > 0.999 && out[2] > 0.0, "{out:?}");
    }
}
