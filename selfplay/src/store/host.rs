//! The name this machine goes by in shard names and lock files.

/// This machine's host name as file names and messages show it: ASCII letters and digits, the
/// rest `_` (shard names separate their fields with `-`).
pub fn this_host() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "host".into());
    host.trim().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect()
}
