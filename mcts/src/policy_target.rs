//! What a full search's policy target is made of: the config's `search.policy_target`, declared
//! apart from the targets' computation ([`crate::target`]) so that the settings need no search.

use serde::{Deserialize, Deserializer, Serialize};

use crate::setting::{read_value, SettingError, SettingValue};

/// What a full search's policy target is made of (the config's `search.policy_target`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyTarget {
    /// The root's visit shares (AlphaZero).
    #[default]
    Visits,
    /// The visit shares with the visits no value earned taken back (KataGo's policy target
    /// pruning, against the evaluator's own prior): every move but the most visited keeps only
    /// as many visits as PUCT with that prior would have given it for its value, and a move left
    /// with one visit is dropped. Root noise, forced playouts and the tactical prior leave the
    /// target; the best move keeps all of its visits.
    Pruned,
    /// Gumbel search's improved policy `softmax(log own prior + sigma(completed Q))` (Danihelka
    /// et al. 2022): the network's own prior moved by the values the search found, unvisited
    /// moves valued at the root's mixed value; a policy improvement even at few simulations.
    CompletedQ,
    /// The completed-Q improved policy of the prior the search selected by (the evaluator's
    /// with the tactical prior mixed in, before decisive moves and noise), with the tactical
    /// prior's share taken back out: `own + (pi' - mixed) / (1 - w)`, clipped at 0 and
    /// renormalised, `w` the tactical prior's share. Mixed with the tactical prior as the play
    /// search mixes it, the network then gives the improved policy: it learns what the judge
    /// lacks instead of what the judge already gives. Where nothing was mixed in, `completed_q`.
    Residual,
}

impl std::fmt::Display for PolicyTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PolicyTarget::Visits => "visits",
            PolicyTarget::Pruned => "pruned",
            PolicyTarget::CompletedQ => "completed_q",
            PolicyTarget::Residual => "residual",
        })
    }
}

impl SettingValue for PolicyTarget {
    const KIND: &'static str = "visits, pruned, completed_q or residual";
    /// Also reads the former boolean key `policy_target_pruning`: `true` is `pruned`, `false`
    /// `visits`, so configs written before the key was renamed still load.
    fn read(text: &str) -> Option<PolicyTarget> {
        match text.trim() {
            "visits" | "false" => Some(PolicyTarget::Visits),
            "pruned" | "true" => Some(PolicyTarget::Pruned),
            "completed_q" => Some(PolicyTarget::CompletedQ),
            "residual" => Some(PolicyTarget::Residual),
            _ => None,
        }
    }
}

impl std::str::FromStr for PolicyTarget {
    type Err = SettingError;

    /// `visits`, `pruned`, `completed_q` or `residual`, as the config writes them.
    fn from_str(text: &str) -> Result<PolicyTarget, SettingError> {
        read_value("policy_target", text)
    }
}

impl<'de> Deserialize<'de> for PolicyTarget {
    /// A name, or the former key's boolean (`policy_target_pruning = true`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PolicyTarget, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Name(String),
            Former(bool),
        }
        let text = match Written::deserialize(deserializer)? {
            Written::Name(name) => name,
            Written::Former(pruned) => pruned.to_string(),
        };
        PolicyTarget::read(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("expected {}, found {text:?}", PolicyTarget::KIND)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_the_former_boolean_read_back() {
        for target in [PolicyTarget::Visits, PolicyTarget::Pruned, PolicyTarget::CompletedQ, PolicyTarget::Residual] {
            assert_eq!(target.to_string().parse::<PolicyTarget>(), Ok(target));
            let json = serde_json::to_string(&target).unwrap();
            assert_eq!(serde_json::from_str::<PolicyTarget>(&json).unwrap(), target);
        }
        assert_eq!(serde_json::from_str::<PolicyTarget>("true").unwrap(), PolicyTarget::Pruned);
        assert_eq!(serde_json::from_str::<PolicyTarget>("false").unwrap(), PolicyTarget::Visits);
        let refused = serde_json::from_str::<PolicyTarget>("\"prune\"").unwrap_err().to_string();
        assert!(refused.contains("visits, pruned, completed_q or residual"), "{refused}");
    }
}
