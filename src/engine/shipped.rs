//! The networks shipped in the repository's `models/` folder, and which network a command
//! searches with: `play`, `analyse` and `uci` start from the shipped one when no model is named,
//! as lc0 and KataGo users start from published networks.

use std::convert::Infallible;
use std::path::PathBuf;
use std::str::FromStr;

use rules::Variant;

/// Which network a command searches with, as `--model` and the UCI `Model` option name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// `default`: the network shipped for the variant ([`shipped_model`]), or the uniform
    /// evaluator for a variant that has none.
    Shipped,
    /// `none` (or UCI's `<empty>`): no network, the uniform evaluator.
    Uniform,
    /// A checkpoint folder or a run directory (its newest checkpoint).
    Path(PathBuf),
}

impl FromStr for ModelChoice {
    type Err = Infallible;

    fn from_str(text: &str) -> Result<ModelChoice, Infallible> {
        Ok(match text.trim() {
            "default" => ModelChoice::Shipped,
            "none" | "<empty>" | "" => ModelChoice::Uniform,
            path => ModelChoice::Path(PathBuf::from(path)),
        })
    }
}

/// The word or path that names the choice (`default`, `none` or the path).
impl std::fmt::Display for ModelChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelChoice::Shipped => f.write_str("default"),
            ModelChoice::Uniform => f.write_str("none"),
            ModelChoice::Path(path) => write!(f, "{}", path.display()),
        }
    }
}

impl ModelChoice {
    /// The checkpoint to load for `variant`, or `None` for the uniform evaluator.
    pub fn resolve(&self, variant: Variant) -> Option<PathBuf> {
        match self {
            ModelChoice::Shipped => shipped_model(variant),
            ModelChoice::Uniform => None,
            ModelChoice::Path(path) => Some(path.clone()),
        }
    }
}

/// Where shipped networks are looked for: `$VZERO_MODELS` if set, else the `models/` folder of
/// the repository this binary was built from.
pub fn models_dir() -> PathBuf {
    match std::env::var_os("VZERO_MODELS") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/models")),
    }
}

/// `VZERO_MODELS` set to nothing: no shipped networks, on purpose (scripts and tests that want
/// the uniform evaluator whatever models/ holds).
fn shipped_turned_off() -> bool {
    std::env::var_os("VZERO_MODELS").is_some_and(|v| v.is_empty())
}

/// The checkpoint shipped for `variant` (`models/<variant>/checkpoint`), if there is one. A
/// `$VZERO_MODELS` that names no folder, or an empty one, is warned about on standard error
/// (a mistyped path would otherwise turn every search uniform in silence).
pub fn shipped_model(variant: Variant) -> Option<PathBuf> {
    if shipped_turned_off() {
        return None;
    }
    let root = models_dir();
    if std::env::var_os("VZERO_MODELS").is_some() {
        let problem = match std::fs::read_dir(&root).map(|mut entries| entries.next().is_none()) {
            Err(_) if !root.exists() => Some("does not exist".to_string()),
            Err(_) if !root.is_dir() => Some("is not a folder".to_string()),
            Err(e) => Some(format!("cannot be read ({e})")),
            Ok(true) => Some("is an empty folder".to_string()),
            Ok(false) => None,
        };
        if let Some(problem) = problem {
            eprintln!("vzero: warning: $VZERO_MODELS ({}) {problem}: no shipped networks", root.display());
            return None;
        }
    }
    let dir = root.join(variant.name()).join("checkpoint");
    nn::checkpoint::is_checkpoint(&dir).then_some(dir)
}

/// Why a search of `variant` chosen by `choice` runs without a network, for the line that says
/// which model a command uses.
pub fn uniform_reason(choice: &ModelChoice, variant: Variant) -> String {
    match choice {
        ModelChoice::Uniform => "asked for with 'none'".to_string(),
        _ if shipped_turned_off() => "$VZERO_MODELS is empty: no shipped networks".to_string(),
        _ => format!("no network shipped for {variant} in {}", models_dir().display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_name_the_shipped_network_or_none() {
        assert_eq!("default".parse(), Ok(ModelChoice::Shipped));
        for none in ["none", "<empty>", ""] {
            assert_eq!(none.parse(), Ok(ModelChoice::Uniform), "{none}");
        }
        assert_eq!("runs/x".parse(), Ok(ModelChoice::Path("runs/x".into())));
        assert_eq!(ModelChoice::Uniform.resolve(Variant::Glinski), None);
        assert_eq!(ModelChoice::Path("a".into()).resolve(Variant::Glinski), Some(PathBuf::from("a")));
    }
}
