//! The page's assets, compiled into the binary: no build step, nothing fetched from elsewhere.

/// The page.
pub const PAGE_HTML: &str = include_str!("page.html");
/// Its style.
pub const PAGE_CSS: &str = include_str!("page.css");
/// Its script: drawing boards from the cells the API gives, clicks, polling.
pub const PAGE_JS: &str = include_str!("page.js");
