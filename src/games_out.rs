//! Games appended as text (docs/games.md) to a file as they end: `--games-out` of `arena` and
//! `gauntlet`, `--save` of `play`. Each game is appended in one write, so a match stopped half
//! way keeps every game it finished, and matches can add to one file.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rules::GameText;

/// The file games go to, and the first error writing it.
pub struct GamesOut {
    flag: &'static str,
    path: PathBuf,
    failed: Mutex<Option<anyhow::Error>>,
}

impl GamesOut {
    /// The file `flag` names, checked before any game as every output is
    /// ([`crate::output::check_output`]); `None` without the flag.
    pub fn open(flag: &'static str, path: Option<&Path>) -> anyhow::Result<Option<GamesOut>> {
        let Some(path) = path else { return Ok(None) };
        crate::output::check_output(flag, path, None, &[])?;
        Ok(Some(GamesOut { flag, path: path.to_path_buf(), failed: Mutex::new(None) }))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `game`; false once writing has failed (the error is kept for
    /// [`GamesOut::finish`]), so that a match stops rather than play games it cannot keep.
    pub fn append(&self, game: &GameText) -> bool {
        let mut failed = self.failed.lock().expect("games out");
        if failed.is_some() {
            return false;
        }
        // A torn game (a crash mid-write) is set aside; the whole games before it stay.
        match durable::append_line(&self.path, game.write().as_bytes(), |_| true) {
            Ok(set_aside) => {
                if let Some(set_aside) = set_aside {
                    eprintln!("vzero: warning: {set_aside}");
                }
                true
            }
            Err(e) => {
                *failed = Some(anyhow::anyhow!("{} {}: {}", self.flag, self.path.display(), e.source));
                false
            }
        }
    }

    /// The first error writing the file, if any.
    pub fn finish(self) -> anyhow::Result<()> {
        match self.failed.into_inner().expect("games out") {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
