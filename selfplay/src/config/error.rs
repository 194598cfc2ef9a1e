//! Why a configuration was rejected, in one line that names the file (or `--set`) and the key.

use thiserror::Error;

/// Why a configuration was rejected; the message names the file and key.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    /// The file is larger than any config (`/dev/zero`, a shard given by mistake).
    #[error("{path}: larger than {max} bytes, which no config is (a few kilobytes of TOML); is it the config file?")]
    TooLarge { path: String, max: u64 },
    /// The TOML does not parse or has unknown keys or values of the wrong type.
    #[error("{path}: {message}")]
    Parse { path: String, message: String },
    /// A `--set` override is not `key=value`.
    #[error("--set '{0}': expected section.key=value")]
    BadOverride(String),
    /// A `--set` override names no key or gives a value of the wrong kind.
    #[error("--set '{text}': {message}")]
    Override { text: String, message: String },
    /// A value is out of range.
    #[error("{path}: {key} = {value}: {reason}")]
    Invalid { path: String, key: String, value: String, reason: String },
    /// A value a `--set` override gave is out of range.
    #[error("--set {key}={value}: {reason}")]
    InvalidOverride { key: String, value: String, reason: String },
}
