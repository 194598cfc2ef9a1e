//! What a gauntlet's games were played under: the checkpoints' simulations and search levers,
//! the ply limit and the adjudication there. Games played under different settings measure
//! different things, so a table holds the matches of one setting and names it in its title.

use mcts::Tactics;

use super::GauntletMatch;

/// Every setting of a gauntlet match that changes its games (a table's key).
#[derive(Clone, Debug, PartialEq)]
pub struct GauntletSetting {
    /// Simulations per move of the checkpoints.
    pub sims: u32,
    /// How the checkpoints used the tactical judge.
    pub tactics: Tactics,
    /// Longest game in plies.
    pub max_plies: u32,
    /// Pawns of material that decided a game at `max_plies` (0: a draw).
    pub adjudicate_material: f32,
}

impl GauntletMatch {
    /// The setting this match was played under.
    pub fn setting(&self) -> GauntletSetting {
        GauntletSetting {
            sims: self.sims,
            tactics: self.tactics(),
            max_plies: self.max_plies,
            adjudicate_material: self.adjudicate_material,
        }
    }
}

impl GauntletSetting {
    /// The flags beside `--sims` that ask for this setting, the search levers first (none when
    /// the judge was off): `--tactics 0.5 --max-plies 400 --adjudicate-material 0`.
    pub fn flags(&self) -> String {
        let plies = format!("--max-plies {} --adjudicate-material {}", self.max_plies, self.adjudicate_material);
        if self.tactics == Tactics::off() {
            plies
        } else {
            format!("{} {plies}", self.tactics.flags())
        }
    }
}

/// The distinct settings of `matches` with games, each once, in the order of their latest
/// match (the most recent last).
pub fn gauntlet_settings(matches: &[&GauntletMatch]) -> Vec<GauntletSetting> {
    let mut settings: Vec<GauntletSetting> = Vec::new();
    for g in matches.iter().filter(|g| g.games > 0) {
        let setting = g.setting();
        settings.retain(|s| *s != setting);
        settings.push(setting);
    }
    settings
}

/// The setting whose table to show: `preferred` if some match was played under it, else that of
/// the latest match at `sims` simulations (at any count when `sims` is none); none if no match
/// has games there.
pub fn setting_to_show(
    matches: &[&GauntletMatch],
    preferred: Option<&GauntletSetting>,
    sims: Option<u32>,
) -> Option<GauntletSetting> {
    let settings = gauntlet_settings(matches);
    if let Some(preferred) = preferred.filter(|p| settings.contains(p)) {
        return Some(preferred.clone());
    }
    settings.into_iter().rev().find(|s| sims.is_none_or(|n| s.sims == n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(sims: u32, max_plies: u32, adjudicate_material: f32) -> GauntletMatch {
        GauntletMatch { sims, max_plies, adjudicate_material, games: 2, ..GauntletMatch::default() }
    }

    #[test]
    fn each_setting_is_listed_once_and_the_preferred_one_is_shown_where_it_was_played() {
        let matches = [played(8, 40, 0.0), played(8, 400, 0.0), played(64, 40, 0.0), played(8, 40, 0.0)];
        let all: Vec<&GauntletMatch> = matches.iter().collect();
        let settings = gauntlet_settings(&all);
        let plies: Vec<(u32, u32)> = settings.iter().map(|s| (s.sims, s.max_plies)).collect();
        assert_eq!(plies, [(8, 400), (64, 40), (8, 40)], "the latest use last");
        let at =
            |preferred: Option<&GauntletSetting>, sims| setting_to_show(&all, preferred, sims).map(|s| s.max_plies);
        assert_eq!(at(Some(&settings[0]), Some(8)), Some(400), "the one asked for");
        let unplayed = GauntletSetting { max_plies: 7, ..settings[0].clone() };
        assert_eq!(at(Some(&unplayed), Some(8)), Some(40), "else the latest at those simulations");
        assert_eq!(at(None, Some(64)), Some(40));
        assert_eq!(at(None, Some(16)), None, "no match at 16 simulations");
        assert_eq!(setting_to_show(&all, None, None).map(|s| s.sims), Some(8), "the latest of all");
        let flags = GauntletSetting { adjudicate_material: 0.5, ..settings[0].clone() }.flags();
        assert_eq!(flags, "--max-plies 400 --adjudicate-material 0.5");
    }
}
