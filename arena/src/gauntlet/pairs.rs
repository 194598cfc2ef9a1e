//! Head to head: a checkpoint's own matches against another network (its predecessor under
//! `--each-other`, or an anchor checkpoint such as the run's teacher-only one), each pairing's
//! score with its Elo and 95% interval. The rating table puts everyone on one scale; these
//! lines say directly whether each checkpoint beat the one before it, which is what shows that
//! learning compounds.

use std::collections::BTreeMap;

use super::{GauntletMatch, GauntletTable};
use crate::players::PlayerSpec;
use crate::rating::{elo_estimate, EloEstimate, ScoreTally};

/// One pairing of two networks, over all its matches in the table's search.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadToHead {
    /// The checkpoint measured.
    pub player: String,
    /// The network it played: a checkpoint's folder name, or an anchor as written.
    pub opponent: String,
    /// Games played.
    pub games: usize,
    /// The player's mean score.
    pub score: f64,
    /// The player's Elo over the opponent, with its 95% interval.
    pub elo: EloEstimate,
}

/// The pairings of `matches` between two networks, played under the setting of `table` (its
/// simulations, tactics, ply limit and adjudication), in the order first played.
pub fn head_to_head(matches: &[&GauntletMatch], table: &GauntletTable) -> Vec<HeadToHead> {
    let mut order: Vec<(String, String)> = Vec::new();
    let mut tallies: BTreeMap<(String, String), (usize, f64, usize, usize)> = BTreeMap::new();
    for m in matches {
        let network = matches!(m.opponent.parse::<PlayerSpec>(), Ok(PlayerSpec::Network(..)));
        if !network || m.setting() != table.setting {
            continue;
        }
        let key = (m.player.clone(), m.opponent.clone());
        let t = tallies.entry(key.clone()).or_insert_with(|| {
            order.push(key);
            (0, 0.0, 0, 0)
        });
        (t.0, t.1, t.2, t.3) = (t.0 + m.games, t.1 + m.score, t.2 + m.wins, t.3 + m.draws);
    }
    order
        .into_iter()
        .map(|key| {
            let (games, score, wins, draws) = tallies[&key];
            HeadToHead {
                games,
                score: score / games.max(1) as f64,
                elo: elo_estimate(&tally(games, score, wins, draws)),
                player: key.0,
                opponent: key.1,
            }
        })
        .collect()
}

/// The scores of `games` games with `wins` wins and `draws` draws summing to `score`: the rest
/// share what is left (a Glinski stalemate's 1/4 or 3/4, or nothing for losses), so the mean
/// is exact and the spread nearly so.
fn tally(games: usize, score: f64, wins: usize, draws: usize) -> ScoreTally {
    let mut t = ScoreTally::from_wdl(wins, draws, 0);
    let rest = games.saturating_sub(wins + draws);
    let each = if rest > 0 { ((score - wins as f64 - 0.5 * draws as f64) / rest as f64).clamp(0.0, 1.0) } else { 0.0 };
    (0..rest).for_each(|_| t.add(each));
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(player: &str, opponent: &str, games: usize, wins: usize, draws: usize) -> GauntletMatch {
        let score = wins as f64 + 0.5 * draws as f64;
        GauntletMatch {
            player: player.into(),
            opponent: opponent.into(),
            sims: 64,
            games,
            score,
            wins,
            draws,
            ..GauntletMatch::default()
        }
    }

    #[test]
    fn networks_pairings_add_up_and_fixed_players_are_left_to_the_table() {
        let setting = result("a", "b", 0, 0, 0).setting();
        let table = GauntletTable { anchor: "random".into(), setting, rows: Vec::new() };
        let matches = [
            result("step-000000200", "step-000000100", 20, 12, 4),
            result("step-000000200", "random", 20, 20, 0),
            result("step-000000200", "step-000000100", 20, 10, 6),
            result("step-000000300", "step-000000200", 40, 8, 4),
            GauntletMatch { sims: 8, ..result("step-000000300", "step-000000100", 10, 10, 0) },
        ];
        let refs: Vec<&GauntletMatch> = matches.iter().collect();
        let pairs = head_to_head(&refs, &table);
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        assert_eq!((pairs[0].games, pairs[0].score), (40, (22.0 + 5.0) / 40.0));
        assert!(pairs[0].elo.elo > 0.0 && pairs[0].elo.low < pairs[0].elo.elo && pairs[0].elo.high > pairs[0].elo.elo);
        assert_eq!((pairs[1].player.as_str(), pairs[1].score), ("step-000000300", 0.25));
        assert!(pairs[1].elo.high < 0.0, "8 wins, 4 draws, 28 losses over 40 games: {:?}", pairs[1].elo);
    }
}
