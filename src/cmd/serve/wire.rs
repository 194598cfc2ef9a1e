//! The JSON between the server and page.js (or a script): each request body and each reply as
//! a type, so that the contract is read here, not pieced together from the handlers. A field's
//! name is its JSON key; an `Option` is `null` when absent. API.md lists which route takes and
//! gives which.

use serde::{Deserialize, Serialize};

/// A search's report: the object `vzero analyse --json` prints (docs/protocol.md), which
/// `analyse` builds and the page shows as it is.
pub type Report = crate::cmd::analyse::AnalysisJson;

/// `POST /api/new`: a game of `variant` with one player per seat.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// The variant's name (`mini-hexchess`).
    pub variant: String,
    /// One player per seat, as the arena names players (`you`, `alphabeta:2`, `PATH:SIMS`).
    pub players: Vec<String>,
    /// Where the game starts (the variant's start if absent).
    #[serde(default)]
    pub position: Option<String>,
    /// Moves played from there: a game restored from its moves (none if absent).
    #[serde(default)]
    pub moves: Vec<String>,
    /// A time control per seat (`null` or left out: no clock for that seat; none if absent).
    #[serde(default)]
    pub clocks: Vec<Option<crate::engine::TimeControl>>,
}

/// `POST /api/load`: a game from its text (docs/games.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    /// The game text; its first game is loaded.
    pub text: String,
    /// One player per seat, as for `/api/new` (the person in every seat if absent).
    #[serde(default)]
    pub players: Option<Vec<String>>,
}

/// `POST /api/move`: the person's move in game `id`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game.
    pub id: u64,
    /// The move in the variant's notation (`c2-c3`).
    #[serde(rename = "move")]
    pub text: String,
}

/// `POST /api/undo` and `POST /api/stop`: the game they act on.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdRequest {
    /// The game.
    pub id: u64,
}

/// `POST /api/position`: game `id` starts again from `position`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The game.
    pub id: u64,
    /// The position text.
    pub position: String,
}

/// `POST /api/analyse`: a search of game `id`'s position for the person.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The game.
    pub id: u64,
    /// The network to search with (`default`, `none` or a path), as a player names it.
    pub model: String,
    /// Root visits, 1 to the CLI's limit.
    pub sims: u32,
}

/// Every refusal: a 4xx or 5xx status with one line saying why.
#[derive(Debug, Serialize)]
pub struct ErrorReply {
    /// Why, in one line.
    pub error: String,
}

/// `GET /api/variants`.
#[derive(Debug, Serialize)]
pub struct VariantsReply {
    /// Every variant the server plays.
    pub variants: Vec<VariantInfo>,
}

/// A variant as the page's menu shows it.
#[derive(Debug, Serialize)]
pub struct VariantInfo {
    /// Its name, as requests name it.
    pub name: &'static str,
    /// One line about it.
    pub summary: &'static str,
    /// Its number of seats.
    pub players: usize,
    /// Its seats' names in turn order (`White`, `Black`).
    pub seats: Vec<String>,
}

/// `GET /api/players?variant=V`: whom the page offers for each seat.
#[derive(Debug, Serialize)]
pub struct PlayersReply {
    /// The choices, the person first.
    pub players: Vec<Choice>,
    /// The engine a new game's other seats get first: the `--model` or shipped network, else
    /// alpha-beta.
    pub engine: Option<String>,
    /// Visits of a network player that names none (`--sims`).
    pub sims: u32,
}

/// One entry of the page's player lists.
#[derive(Clone, Debug, Serialize)]
pub struct Choice {
    /// What the page sends back.
    pub text: String,
    /// What the list shows.
    pub label: String,
    /// For a network (or uniform search): the model as `analyse` names it (`none`, a path);
    /// left out for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// `GET /api/board?variant=V`: what stays the same through a game, drawn once.
#[derive(Debug, Serialize)]
pub struct BoardReply {
    /// The variant.
    pub variant: &'static str,
    /// Every cell.
    pub cells: Vec<BoardCell>,
    /// Text around the board (a level's name, a file letter).
    pub captions: Vec<BoardCaption>,
    /// Whether each cell's label is printed inside it.
    pub label_cells: bool,
    /// The seats' names in turn order.
    pub players: Vec<String>,
    /// Fill of the light, medium and dark cells, as `vzero render` draws them.
    pub shades: [&'static str; 3],
    /// Each seat's disc fill, outline and letter colour.
    pub seats: [(&'static str, &'static str, &'static str); 3],
    /// Each seat's colour in words (`white`, `black`, `red`), which names a seat beside its
    /// name where the name is no colour (Wellisch's `P1`).
    pub colours: [&'static str; 3],
    /// The parts of the board a narrow page lays out on their own (Weltschach's levels): the
    /// cells and captions whose centres lie in each box; empty where the board is one piece.
    pub panels: Vec<BoardPanel>,
}

/// A box of the board in diagram units (y downward) holding cells that are drawn together.
#[derive(Debug, Serialize)]
pub struct BoardPanel {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// One cell of a board, in diagram units (a cell's radius is 1; y grows downward).
#[derive(Debug, Serialize)]
pub struct BoardCell {
    /// The number moves and pieces name the cell by.
    pub key: u16,
    /// Centre, to the right.
    pub x: f32,
    /// Centre, downward.
    pub y: f32,
    /// `flat` or `pointy` (hexagons), or `square`.
    pub shape: &'static str,
    /// 0 light, 1 medium, 2 dark.
    pub shade: u8,
    /// The cell's name in the variant's notation (`f5`).
    pub label: String,
}

/// Text on the board outside the cells.
#[derive(Debug, Serialize)]
pub struct BoardCaption {
    /// Centre.
    pub x: f32,
    /// Centre.
    pub y: f32,
    /// The text.
    pub text: String,
}

/// `GET /api/game?id=N`, and every `POST` that is not refused: a game as the page draws it,
/// polled while an engine thinks.
#[derive(Debug, Serialize)]
pub struct GameReply {
    /// The game.
    pub id: u64,
    /// Raised by every change of the position: an older state is dropped.
    pub version: u64,
    /// The variant.
    pub variant: &'static str,
    /// Who plays each seat.
    pub seats: Vec<SeatInfo>,
    /// The seats' names in turn order.
    pub seat_names: Vec<String>,
    /// The seat to move.
    pub to_move: usize,
    /// The position the game started from.
    pub start: String,
    /// The position now.
    pub position: String,
    /// The moves played since `start`.
    pub moves: Vec<String>,
    /// What each move gave, shown after it: `+` check, `#` checkmate, `` neither.
    pub marks: Vec<&'static str>,
    /// The cell of the mover's king when it is in check.
    pub check: Option<u16>,
    /// How the game ended, if it has.
    pub over: Option<String>,
    /// The result once the game is over, each seat's score in seat order (`1-0`, `½-½`,
    /// Wellisch's `1-½-0`).
    pub result: Option<String>,
    /// The rule that ended the game (`checkmate`, `repetition`, `time`), once it has.
    pub ending: Option<&'static str>,
    /// Each seat's time left in milliseconds (`null`: no clock), the mover's running; empty for
    /// a game without clocks.
    pub clocks: Vec<Option<u64>>,
    /// Every piece on the board.
    pub pieces: Vec<BoardPiece>,
    /// Piece letters with their names (and, where the name says little, how the piece moves).
    pub legend: Vec<(char, String)>,
    /// The legal moves (none once the game is over).
    pub legal: Vec<LegalMove>,
    /// The cells the last move left and entered.
    pub last: Option<(u16, u16)>,
    /// The engine's work in progress.
    pub thinking: Option<Thinking>,
    /// The last finished analysis (or a network player's last search).
    pub analysis: Option<Report>,
    /// What went wrong with the last engine move, if it failed.
    pub note: Option<String>,
}

/// `GET /api/ply?id=N&ply=K`: the position after a game's first K moves, as the page draws it
/// when its move list is stepped back.
#[derive(Debug, Serialize)]
pub struct PlyReply {
    /// The game.
    pub id: u64,
    /// Moves played to reach it.
    pub ply: usize,
    /// The position.
    pub position: String,
    /// Every piece on the board.
    pub pieces: Vec<BoardPiece>,
    /// The cells the move to it left and entered.
    pub last: Option<(u16, u16)>,
    /// The cell of the mover's king when it is in check.
    pub check: Option<u16>,
}

/// A seat of a game.
#[derive(Debug, Serialize)]
pub struct SeatInfo {
    /// The player, as a request names it (`you`, `alphabeta:2`, `PATH:SIMS`).
    pub player: String,
    /// The player as people read it: a network's short name and the visits it uses.
    pub title: String,
    /// Whether moves come from the page.
    pub person: bool,
}

/// A piece on a cell.
#[derive(Debug, Serialize)]
pub struct BoardPiece {
    /// The cell's key.
    pub cell: u16,
    /// The seat it belongs to.
    pub owner: usize,
    /// Its letter in the position text.
    pub letter: char,
}

/// A legal move with the cells the page clicks to play it.
#[derive(Debug, Serialize)]
pub struct LegalMove {
    /// The move as `POST /api/move` takes it.
    #[serde(rename = "move")]
    pub text: String,
    /// The cell it leaves (none for a move without cells).
    pub from: Option<u16>,
    /// The cell it enters.
    pub to: Option<u16>,
}

/// A search running for a game.
#[derive(Debug, Serialize)]
pub struct Thinking {
    /// What it is for.
    pub kind: JobKind,
    /// The player searching.
    pub who: String,
    /// Its latest report, once it has one.
    pub report: Option<Report>,
}

/// What a search of a game is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// The move of the seat to move.
    Move,
    /// An analysis the person asked for.
    Analysis,
}

/// `GET /api/runs`: the run directories watched.
#[derive(Debug, Serialize)]
pub struct RunsReply {
    /// The `--runs` folders, as given: where a run started later appears.
    pub folders: Vec<String>,
    /// Each run, by path.
    pub runs: Vec<RunEntry>,
}

/// A run directory in the page's list.
#[derive(Debug, Serialize)]
pub struct RunEntry {
    /// Its path, as `run=` names it.
    pub path: String,
    /// Its folder's name.
    pub name: String,
    /// Its config's variant, if the config reads.
    pub variant: Option<&'static str>,
}

/// `GET /api/run?run=PATH`: a run's progress, read again on each request.
#[derive(Debug, Serialize)]
pub struct RunReply {
    /// The config's variant.
    pub variant: &'static str,
    /// The latest iteration line, as the trainer prints it.
    pub iteration: Option<String>,
    /// Iterations done.
    pub iterations_done: Option<u32>,
    /// Iterations the config asks for.
    pub iterations: u32,
    /// Self-play games of the trainer so far.
    pub trainer_games: Option<u64>,
    /// Whether the run has finished.
    pub finished: bool,
    /// The last error the run logged.
    pub last_error: Option<String>,
    /// The gauntlet table, as `vzero gauntlet --table-only` prints it.
    pub gauntlet: Option<String>,
    /// The final evaluation's matches, as the run logged them since its last iteration (none
    /// before it ends).
    pub evaluation: Vec<RunMatch>,
    /// The newest self-play games, newest first.
    pub games: Vec<RunGame>,
}

/// One match of a run's final evaluation: a network against a baseline.
#[derive(Debug, Serialize)]
pub struct RunMatch {
    /// The network: `trained`, or the checkpoint that played (`step-000000000`, the untrained one).
    pub network: String,
    /// The baseline (`alphabeta:1`).
    pub opponent: String,
    /// Games played.
    pub games: usize,
    /// Games the match was to play (0 where the log did not record it).
    pub planned: usize,
    /// Games the network won outright.
    pub wins: usize,
    /// Games every seat scored alike.
    pub draws: usize,
    /// The network's mean score, 0 to 1.
    pub score: f64,
    /// Whether a stop signal cut the match short.
    pub interrupted: bool,
}

/// One self-play game of a run.
#[derive(Debug, Serialize)]
pub struct RunGame {
    /// The file name of its shard in the run's replay folder.
    pub shard: String,
    /// Its place in the shard (`game=` of `/run/game`).
    pub index: usize,
    /// Its number in the run.
    pub number: u64,
    /// Its length.
    pub plies: usize,
    /// Each seat's score.
    pub scores: Vec<f32>,
    /// Whether a teacher played it.
    pub teacher: bool,
}
