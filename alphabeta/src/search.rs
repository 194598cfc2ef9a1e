//! Iterative-deepening negamax with alpha-beta, a transposition table and a quiescence search;
//! paranoid for three players.
//!
//! Every value is in centipawns for the side of the node's mover, where the sides are the root
//! player and everyone else (paranoid): for two players that is plain negamax. A move to a
//! player of the other side negates the child's value and window; a move between two of the
//! others (Wellisch) keeps them, since both minimise the root player's value.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rules::weltschach::Weltschach;
use rules::{Game, Material, Player};

use crate::eval::{decided, static_value, Mobility, INFINITY};
use crate::judge_cache::JudgeCache;
use crate::limits::SearchLimits;
use crate::ordering::MoveOrder;
use crate::table::{Bound, Table};

/// Quiescence plies after the full-width depth: captures thin out long before, and the cap
/// keeps a capture-rich Weltschach middlegame from exploding.
const MAX_QUIESCENCE_PLIES: usize = 12;

/// Centipawns of slack in delta pruning: a capture is skipped in quiescence when even the
/// victim's whole value and this much more cannot lift the static value to alpha.
const DELTA_MARGIN: i32 = 200;

/// Whether the quiescence search of game `G` may list only the captures below its first ply
/// (with [`Material::legal_captures`]) instead of every legal move: it then sees no mate or
/// stalemate there, and its mobility term is the last full node's. On a board of several hundred
/// moves a node (Weltschach), listing them all is what makes a capture sequence cost
/// milliseconds; the other boards keep the yardstick exactly as it was measured. A setting of
/// this search, chosen by the game's name; a constant of each game type.
const fn cheap_quiescence<G: Game>() -> bool {
    let (name, cheap) = (G::NAME.as_bytes(), Weltschach::NAME.as_bytes());
    if name.len() != cheap.len() {
        return false;
    }
    let mut i = 0;
    while i < name.len() {
        if name[i] != cheap[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Nodes one quiescence search may visit where a board lists only captures there
/// ([`cheap_quiescence`]): past it every node stands pat. Weltschach's long capture
/// sequences, each answered by many recaptures, otherwise reach hundreds of thousands of nodes
/// from one leaf in a crowded middlegame.
const CHEAP_QUIESCENCE_NODES: u64 = 64;

/// Centipawns below the best within which the judge values a move exactly on a board with a
/// cheap quiescence search ([`move_values`]). The tactical prior (temperature 0.33 in logits of
/// the expected score, about 100 cp near equality) gives a move this far below the best
/// e^-5, under 1% of the best's weight.
pub const JUDGE_MARGIN: i32 = 500;

/// Nodes each judged move's cheap quiescence search may visit: the judge runs one for each of
/// a node's several hundred moves, where the yardstick's one leaf may take 64
/// (`CHEAP_QUIESCENCE_NODES`).
pub const JUDGE_QUIESCENCE_NODES: u64 = 16;

/// Nodes between looks at the clock and the stop flag (a clock read costs more than a node's
/// bookkeeping; 1024 nodes are about a millisecond).
const CLOCK_INTERVAL: u64 = 1024;

/// Nodes the tactical judge may spend on one position's moves beyond their quiescence values
/// ([`move_values`], and the leaf value of a judge deeper than 0): past it the judge keeps the
/// deepest depth it completed. Weltschach's several hundred moves a node make a judge of depth
/// 2 cost seconds a node and one of depth 4 hours; this caps a judged node at about half a
/// second on any board, whatever `--tactics-depth` asks. Glinski, Mini Hexchess and Wellisch
/// judge depth 2 within it.
pub const JUDGE_NODES: u64 = 150_000;

/// One completed iteration of the deepening.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// Full-width plies of this iteration.
    pub depth: u32,
    /// Its best move.
    pub best: M,
    /// Its value for the player to move, in centipawns ([`crate::MATE`] for a win).
    pub value: i32,
    /// Nodes searched since the search began (this iteration and the shallower ones).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct SearchOutcome<M> {
    /// The move to play: the best of the deepest completed iteration.
    pub best: M,
    /// Its value for the player to move, in centipawns.
    pub value: i32,
    /// The deepest completed iteration (0 if the time limit stopped even depth 1, whose best
    /// move so far is then played).
    pub depth: u32,
    /// Every completed iteration, shallowest first.
    pub iterations: Vec<Iteration<M>>,
    /// Nodes searched in all (full-width and quiescence).
    pub nodes: u64,
    /// Wall-clock time of the whole search.
    pub elapsed: Duration,
    /// Whether the time limit or a stop request ([`search_until`]) stopped an iteration before
    /// it completed.
    pub stopped: bool,
    /// Every root move with its exact value for the player to move (centipawns), best first, from
    /// the deepest completed iteration: filled by [`score_root_moves`] only (a plain search
    /// proves the other moves worse without finding how much).
    pub root_scores: Vec<(M, i32)>,
}

/// Searches `game` within `limits` and returns the move to play, or `None` when the game is
/// over. `seed` orders equally promising root moves, so that ties are broken reproducibly.
pub fn search<G: Material>(game: &G, limits: &SearchLimits, seed: u64) -> Option<SearchOutcome<G::Move>> {
    run(game, limits, seed, None, Halt::NEVER)
}

/// [`search`] that also ends, as its time limit ends it, within about a millisecond of `stop`
/// being set: a player or a teacher at a depth of hours honours a stop signal.
pub fn search_until<G: Material>(
    game: &G,
    limits: &SearchLimits,
    seed: u64,
    stop: &AtomicBool,
) -> Option<SearchOutcome<G::Move>> {
    run(game, limits, seed, None, Halt { stop: Some(stop), ..Halt::NEVER })
}

/// Searches as [`search`] does, but every root move with a full window, so that the report's
/// [`SearchOutcome::root_scores`] holds each move's exact value: what a teacher labels a position's
/// policy with. Costs about one full search per root move at the last depth.
pub fn score_root_moves<G: Material>(game: &G, limits: &SearchLimits, seed: u64) -> Option<SearchOutcome<G::Move>> {
    run(game, limits, seed, Some(INFINITY), Halt::NEVER)
}

/// [`score_root_moves`] with exact values only for the moves within `margin` centipawns of the
/// best: a move worse than that is searched with the window's floor at the best so far minus
/// `margin`, and its score is only known to be at most `best - margin` (the quiescence's delta
/// pruning depends on the window, so it need not bound the exact value either). A policy softmax at
/// temperature T gives such a move under exp(-margin / T) of the best's weight, so the label
/// barely changes, while the floor lets the search cut its refutations short: on a crowded board
/// (Weltschach's several hundred moves, each with a capture-rich quiescence) a full window per
/// move costs tens of times a plain search. Ends as the time limit does once `stop` is set.
pub fn score_root_moves_within<G: Material>(
    game: &G,
    limits: &SearchLimits,
    seed: u64,
    margin: i32,
    stop: &AtomicBool,
) -> Option<SearchOutcome<G::Move>> {
    run(game, limits, seed, Some(margin.max(0)), Halt { stop: Some(stop), ..Halt::NEVER })
}

/// The value of `game` for its mover in centipawns after a quiescence search alone (captures
/// until the position is quiet, stand-pat on material and mobility): the tactical value a
/// search leaf can be given cheaply. Finished games score [`crate::MATE`], 0 or `-MATE`.
pub fn quiescence_value<G: Material>(game: &G) -> i32 {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut searcher = Searcher::<G>::untimed_without_table(game);
    // The others' move counts are unknown here: level with the mover's, as the root does.
    let mobility: Mobility = [moves.len() as u32; rules::MAX_PLAYERS];
    searcher.quiesce(game, 0, 0, -INFINITY, INFINITY, mobility)
}

/// The value of each of `moves` for `game`'s mover in centipawns, written to `values`: `depth`
/// full-width plies after the move, then the quiescence search (depth 0: the quiescence search
/// alone). What a tree search's tactical judge says of a new node's moves; one searcher serves
/// them all, so the per-search set-up is paid once per position. On a board with a captures
/// generator (the hex boards) its quiescence searches count every move at their first ply and
/// list captures alone below it: each value is the full quiescence search's but for the mobility
/// term below the first ply (1 cp a legal move, [`crate::MOBILITY_CENTIPAWNS`]; the first ply's
/// count stands there) and for stalemates inside the capture sequences, which it does not see
/// (checkmates and the draw rules it does). On a board with a cheap quiescence search (Weltschach)
/// only the moves within [`JUDGE_MARGIN`] of the best are valued exactly; each other move gets
/// an upper bound at most that far below the best.
///
/// Bounded: above depth 0 the depths are searched in turn, 1 to `depth`, in at most
/// [`JUDGE_NODES`] nodes together, and `values` keeps the deepest that completed before the
/// budget ran out or `stop` was set (the quiescence values at worst, which always complete).
/// Within the budget the values are those of `depth` alone.
pub fn move_values<G: Material>(
    game: &G,
    moves: &[G::Move],
    depth: u32,
    values: &mut [i32],
    stop: Option<&AtomicBool>,
) {
    values_judged(game, moves, depth, values, stop, None);
}

/// [`move_values`] with the quiescence values (depth 0) looked up in `cache` where it has them
/// and stored there where not: the same values ([`JudgeCache`] says why), found once for all
/// the nodes and moves of the player that keeps `cache`.
pub fn move_values_cached<G: Material>(
    game: &G,
    moves: &[G::Move],
    depth: u32,
    values: &mut [i32],
    stop: Option<&AtomicBool>,
    cache: &JudgeCache,
) {
    values_judged(game, moves, depth, values, stop, Some(cache));
}

/// [`move_values`], with `cache` or without.
pub(crate) fn values_judged<G: Material>(
    game: &G,
    moves: &[G::Move],
    depth: u32,
    values: &mut [i32],
    stop: Option<&AtomicBool>,
    cache: Option<&JudgeCache>,
) {
    // Always completes: the quiescence searches are bounded by their own caps.
    values_at_depth(game, moves, 0, values, &mut { Halt::NEVER }, cache);
    let mut halt = Halt { stop, nodes: JUDGE_NODES };
    let mut deeper = vec![0; moves.len()];
    for d in 1..=depth {
        if !values_at_depth(game, moves, d, &mut deeper, &mut halt, None) {
            return;
        }
        values.copy_from_slice(&deeper);
    }
}

/// [`move_values`] at one depth, within `halt` (its nodes counted down by those searched), the
/// quiescence values kept in `cache` if there is one; false, with `values` partly written, if
/// it ended first.
fn values_at_depth<G: Material>(
    game: &G,
    moves: &[G::Move],
    depth: u32,
    values: &mut [i32],
    halt: &mut Halt<'_>,
    cache: Option<&JudgeCache>,
) -> bool {
    let mobility: Mobility = [moves.len() as u32; rules::MAX_PLAYERS];
    let mut searcher = Searcher::<G>::untimed_without_table(game);
    searcher.halt = *halt;
    if Searcher::<G>::CHEAP_QUIESCENCE {
        // Weltschach's several hundred moves a node, each with its own capture search, made a
        // judged node cost about 75 ms. The moves share their node's mobility, so the first
        // quiescence ply need not list every reply to count them; and with the captures valued
        // first, a quiet move that loses to a reply capture fails low at that reply's stand-pat.
        searcher.cheap_from_first_ply = true;
        searcher.quiescence_nodes = JUDGE_QUIESCENCE_NODES;
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by(|&a, &b| game.capture_value(moves[b]).total_cmp(&game.capture_value(moves[a])));
        let ordered: Vec<G::Move> = order.iter().map(|&j| moves[j]).collect();
        searcher.values_within(game, &ordered, depth, JUDGE_MARGIN, mobility, |i, value| values[order[i]] = value);
    } else {
        // Each judged move's capture search listed every legal move at every node for its
        // mobility term and its end test: most of a judged node's cost on Glinski. Below the
        // first ply the captures alone, with the first ply's mobility and the variant's tactical
        // end test, see the same exchanges, where a board lists captures for less.
        searcher.captures_below_first_ply = G::CAPTURES_GENERATOR;
        searcher.quiescence_nodes = u64::MAX;
        match cache {
            // Every value exact, so each stands alone and may be found again.
            Some(cache) if depth == 0 => searcher.quiescence_values_cached(game, moves, mobility, values, cache),
            _ => searcher.values_within(game, moves, depth, FULL_WINDOW, mobility, |i, value| values[i] = value),
        }
    }
    halt.nodes = halt.nodes.saturating_sub(searcher.nodes);
    !searcher.stopped
}

/// What the judge's first quiescence ply does after each of `moves` and nothing more: the move
/// played, then the replies counted with their captures listed (the mobility term's count), or
/// on a board with a cheap quiescence search the captures alone; the sum of the counts, or of
/// the captures, so the work is not optimised away. The part of a judged node's cost that
/// `vzero bench alphabeta` prints beside the whole: the rest is the capture sequences below it.
pub fn judge_first_ply<G: Material>(game: &G, moves: &[G::Move]) -> u64 {
    let mut captures = Vec::new();
    let mut sum = 0;
    for &mv in moves {
        let mut next = game.clone();
        next.play(mv);
        if Searcher::<G>::CHEAP_QUIESCENCE {
            next.legal_captures(&mut captures);
            sum += captures.len() as u64;
        } else if G::CAPTURES_GENERATOR {
            sum += u64::from(next.count_and_captures(&mut captures));
        } else {
            next.legal_moves(&mut captures);
            sum += captures.len() as u64;
        }
    }
    sum
}

/// The leaf value a judge `depth` plies deep gives `game` (centipawns for its mover): the
/// deepest iteration that completed within [`JUDGE_NODES`] and before `stop`, or the
/// quiescence value alone when none did.
pub(crate) fn judged_value<G: Material>(game: &G, depth: u32, stop: Option<&AtomicBool>) -> i32 {
    if depth == 0 {
        return quiescence_value(game);
    }
    // No table: a leaf's search is small, and clearing a table per leaf costs more.
    let limits = SearchLimits { depth, time: None, table: false };
    match run(game, &limits, 0, None, Halt { stop, nodes: JUDGE_NODES }) {
        Some(report) if report.depth > 0 => report.value,
        _ => quiescence_value(game),
    }
}

/// A margin no value falls below the best by: with it, [`Searcher::values_within`] searches
/// every move with the full window, so each value is exact.
const FULL_WINDOW: i32 = i32::MAX;

/// What ends a search early besides its limits: a stop flag someone else sets (a signal, a
/// protocol's `stop`), and a budget of nodes.
#[derive(Clone, Copy, Debug)]
struct Halt<'s> {
    /// Ends the search once set (looked at every [`CLOCK_INTERVAL`] nodes).
    stop: Option<&'s AtomicBool>,
    /// Nodes the search may visit.
    nodes: u64,
}

impl Halt<'_> {
    /// Nothing but the search's own limits ends it.
    const NEVER: Halt<'static> = Halt { stop: None, nodes: u64::MAX };
}

/// The shared iterative deepening of [`search`] and [`score_root_moves_within`]: `score_margin`
/// is `None` for a plain search, else how far below the best a root move is still scored exactly.
fn run<G: Material>(
    game: &G,
    limits: &SearchLimits,
    seed: u64,
    score_margin: Option<i32>,
    halt: Halt<'_>,
) -> Option<SearchOutcome<G::Move>> {
    let began = Instant::now();
    let mut root_moves = Vec::new();
    game.legal_moves(&mut root_moves);
    if root_moves.is_empty() {
        return None;
    }
    shuffle(&mut root_moves, seed);
    let mut searcher = Searcher::<G> {
        table: Table::new(limits.table.then(|| table_bits(limits.depth))),
        deadline: limits.time.map(|t| began + t),
        halt,
        ..Searcher::untimed_without_table(game)
    };
    let mut iterations: Vec<Iteration<G::Move>> = Vec::new();
    let mut fallback = root_moves[0];
    let mut root_scores = Vec::new();
    let mut scores = score_margin.map(|_| Vec::new());
    for depth in 1..=limits.depth {
        let scoring = scores.as_mut().zip(score_margin).map(|(scores, margin)| RootScoring { scores, margin });
        let (best, value) = searcher.root(game, &mut root_moves, depth, scoring);
        if searcher.stopped {
            fallback = best;
            break;
        }
        if let Some(scores) = &mut scores {
            root_scores = std::mem::take(scores);
            root_scores.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        }
        iterations.push(Iteration { depth, best, value, nodes: searcher.nodes, elapsed: began.elapsed() });
    }
    let (best, value, depth) = match iterations.last() {
        Some(last) => (last.best, last.value, last.depth),
        None => (fallback, 0, 0),
    };
    Some(SearchOutcome {
        best,
        value,
        depth,
        iterations,
        nodes: searcher.nodes,
        elapsed: began.elapsed(),
        stopped: searcher.stopped,
        root_scores,
    })
}

/// Table slots for a search to `depth`: several times the full-width nodes such a search
/// visits on Glinski (1024 * 4^depth), at most 2^20 (about 32 MB, allocated afresh each move).
fn table_bits(depth: u32) -> u32 {
    (10 + 2 * depth).min(20)
}

/// Fisher-Yates with SplitMix64: the tie order of the root moves, a function of the seed alone.
fn shuffle<M>(moves: &mut [M], seed: u64) {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..moves.len()).rev() {
        moves.swap(i, (next() % (i as u64 + 1)) as usize);
    }
}

/// Move lists of one ply, kept between nodes so that the search allocates only while it
/// first grows deeper.
struct Frame<M> {
    moves: Vec<M>,
    keyed: Vec<(i32, M)>,
}

/// Where a scoring iteration puts each root move's value, and how far below the best a move is
/// still searched exactly.
struct RootScoring<'a, M> {
    scores: &'a mut Vec<(M, i32)>,
    margin: i32,
}

/// The state of one search.
struct Searcher<'s, G: Material> {
    root: Player,
    table: Table<G::Move>,
    order: MoveOrder<G::Move>,
    frames: Vec<Frame<G::Move>>,
    nodes: u64,
    /// `nodes` when the current quiescence search began (at its first ply).
    quiescence_began: u64,
    /// Whether the quiescence search lists only captures from its first ply on (Weltschach's
    /// judge, [`values_at_depth`]): it stands pat with the mobility it was given and ends a game
    /// only where [`Material::tactical_outcome`] sees the end. Otherwise a board with
    /// [`cheap_quiescence`] lists captures alone only below the first ply.
    cheap_from_first_ply: bool,
    /// Whether the quiescence search lists captures alone below its first ply on a board with a
    /// captures generator (the judge's, [`values_at_depth`]); its first ply counts every move
    /// for the mobility term and lists only the captures ([`Material::count_and_captures`]).
    /// Below it, the mobility term is the first ply's and the game ends only where
    /// [`Material::tactical_outcome`] sees it.
    captures_below_first_ply: bool,
    /// Nodes one cheap quiescence search may visit ([`CHEAP_QUIESCENCE_NODES`], the judge's
    /// [`JUDGE_QUIESCENCE_NODES`]).
    quiescence_nodes: u64,
    deadline: Option<Instant>,
    /// The stop flag and node budget.
    halt: Halt<'s>,
    stopped: bool,
}

impl<'s, G: Material> Searcher<'s, G> {
    /// [`cheap_quiescence`] for `G`, worked out as the code is compiled.
    const CHEAP_QUIESCENCE: bool = cheap_quiescence::<G>();

    /// A searcher for `game`'s mover with no table and no clock: the cheap set-up of the
    /// small searches a tree search's judge runs by the thousand.
    fn untimed_without_table(game: &G) -> Searcher<'s, G> {
        Searcher {
            root: game.to_move(),
            table: Table::new(None),
            order: MoveOrder::new(),
            frames: Vec::new(),
            nodes: 0,
            quiescence_began: 0,
            cheap_from_first_ply: false,
            captures_below_first_ply: false,
            quiescence_nodes: CHEAP_QUIESCENCE_NODES,
            deadline: None,
            halt: Halt::NEVER,
            stopped: false,
        }
    }

    /// One iteration over the root moves, best of the previous iteration first, then the rest
    /// in the usual order (ties in the seed's order). Returns the best move and its value; if
    /// the clock stopped the iteration, the best of the moves searched so far. With `scoring`,
    /// every move's value is pushed there, exact within the margin of the best so far.
    fn root(
        &mut self,
        game: &G,
        moves: &mut [G::Move],
        depth: u32,
        mut scoring: Option<RootScoring<'_, G::Move>>,
    ) -> (G::Move, i32) {
        let mut keys: Vec<(i32, G::Move)> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let previous_best = depth > 1 && i == 0;
                let key =
                    if previous_best { i32::MAX } else { self.order.key(game, mv, game.capture_value(mv), 0, None) };
                (key, mv)
            })
            .collect();
        keys.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let ordered: Vec<G::Move> = keys.iter().map(|&(_, mv)| mv).collect();
        // The others' counts are unknown until the line reaches their moves: start them level.
        let mobility: Mobility = [moves.len() as u32; rules::MAX_PLAYERS];
        // Without scoring, a margin of 0 is plain alpha-beta over the moves.
        let margin = scoring.as_ref().map_or(0, |scoring| scoring.margin);
        let mut alpha = -INFINITY;
        let mut best = ordered[0];
        self.values_within(game, &ordered, depth - 1, margin, mobility, |i, value| {
            if let Some(scoring) = scoring.as_mut() {
                scoring.scores.push((ordered[i], value));
            }
            if value > alpha {
                alpha = value;
                best = ordered[i];
            }
        });
        // The best move leads the next iteration; the others keep their relative order.
        if let Some(i) = moves.iter().position(|&m| m == best) {
            moves[..=i].rotate_right(1);
        }
        (best, alpha)
    }

    /// The value for `game`'s mover of each of `moves`, searched in that order `depth` plies
    /// after the move (then quiescence), handed to `found` with the move's index: the root of
    /// the teacher's scoring and of the judge's values alike. Each move's window has its floor
    /// `margin` below the best value so far, so a move within `margin` of the best comes out
    /// exact and any other only as at most `margin` below the best, its refutation cut short
    /// (a margin of 0 is plain alpha-beta, [`FULL_WINDOW`] every value exact). Stops, with
    /// what it found, when the clock runs out.
    fn values_within(
        &mut self,
        game: &G,
        moves: &[G::Move],
        depth: u32,
        margin: i32,
        mobility: Mobility,
        mut found: impl FnMut(usize, i32),
    ) {
        let mut best = -INFINITY;
        for (i, &mv) in moves.iter().enumerate() {
            let floor = best.saturating_sub(margin).max(-INFINITY);
            let value = self.child(game, mv, depth, 1, floor, INFINITY, mobility);
            if self.stopped {
                break;
            }
            found(i, value);
            best = best.max(value);
        }
    }

    /// The quiescence value for `game`'s mover of each of `moves` with the full window, as
    /// [`Searcher::values_within`] finds them at depth 0, into `values`: looked up in `cache`
    /// where the position after the move has a key ([`Material::judge_key`]) stored there,
    /// searched and stored where it has a key and none is stored.
    fn quiescence_values_cached(
        &mut self,
        game: &G,
        moves: &[G::Move],
        mobility: Mobility,
        values: &mut [i32],
        cache: &JudgeCache,
    ) {
        for (value, &mv) in values.iter_mut().zip(moves) {
            let mut next = game.clone();
            next.play(mv);
            let key = next.judge_key().map(|position| JudgeCache::key(position, mobility[game.to_move()]));
            if let Some(found) = key.and_then(|key| cache.probe(key)) {
                *value = found;
                continue;
            }
            *value = self.across(game, &next, -INFINITY, INFINITY, |s, a, b| s.quiesce(&next, 1, 0, a, b, mobility));
            if let Some(key) = key {
                cache.store(key, *value);
            }
        }
    }

    /// The value for `game`'s mover of playing `mv`, searched `depth` plies (then quiescence).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        game: &G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
        mobility: Mobility,
    ) -> i32 {
        let mut next = game.clone();
        next.play(mv);
        self.across(game, &next, alpha, beta, |s, a, b| match depth {
            0 => s.quiesce(&next, ply, 0, a, b, mobility),
            _ => s.full_width(&next, depth, ply, a, b, mobility),
        })
    }

    /// The value for `game`'s mover of `next` (a position one move later) that `visit` finds
    /// for `next`'s mover in a window: the window and value turn over when the move passes to
    /// the other side, and stay when it passes between two of the others.
    fn across(
        &mut self,
        game: &G,
        next: &G,
        alpha: i32,
        beta: i32,
        visit: impl FnOnce(&mut Self, i32, i32) -> i32,
    ) -> i32 {
        if (next.to_move() == self.root) == (game.to_move() == self.root) {
            visit(self, alpha, beta)
        } else {
            -visit(self, -beta, -alpha)
        }
    }

    /// Whether the time or the node budget is up or a stop was asked for (then every node
    /// returns at once and the iteration is dropped).
    fn out_of_time(&mut self) -> bool {
        if !self.stopped && self.nodes >= self.halt.nodes {
            self.stopped = true;
        }
        // From the first node on, so that a search asked to stop before it began does not
        // complete an iteration first.
        if !self.stopped && (self.nodes - 1).is_multiple_of(CLOCK_INTERVAL) {
            self.stopped = self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.halt.stop.is_some_and(|stop| stop.load(Ordering::Relaxed));
        }
        self.stopped
    }

    /// Whether the current quiescence search has used up its nodes (`quiescence_nodes`).
    fn quiescence_spent(&self) -> bool {
        self.nodes - self.quiescence_began > self.quiescence_nodes
    }

    /// The frame of `ply`, taken out while its node runs.
    fn take_frame(&mut self, ply: usize) -> Frame<G::Move> {
        if self.frames.len() <= ply {
            self.frames.resize_with(ply + 1, || Frame { moves: Vec::new(), keyed: Vec::new() });
        }
        std::mem::replace(&mut self.frames[ply], Frame { moves: Vec::new(), keyed: Vec::new() })
    }

    /// Ply `ply`'s frame with every legal move of `game` listed, their count recorded as the
    /// mover's mobility; or, when there is none, the finished game's value for the mover.
    fn expand(&mut self, game: &G, ply: usize, mobility: &mut Mobility) -> Result<Frame<G::Move>, i32> {
        let mut frame = self.take_frame(ply);
        game.legal_moves(&mut frame.moves);
        if frame.moves.is_empty() {
            self.frames[ply] = frame;
            return Err(self.finished(game, ply));
        }
        mobility[game.to_move()] = frame.moves.len() as u32;
        Ok(frame)
    }

    /// The value of a finished game for the mover of `game`.
    fn finished(&self, game: &G, ply: usize) -> i32 {
        let value = game.outcome().map_or(0, |scores| decided(&scores, self.root, ply));
        self.for_mover(game, value)
    }

    /// A value for the root player, turned to the side of `game`'s mover.
    fn for_mover(&self, game: &G, value: i32) -> i32 {
        if game.to_move() == self.root {
            value
        } else {
            -value
        }
    }

    /// Alpha-beta over every move, `depth` plies still to go.
    fn full_width(
        &mut self,
        game: &G,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        mut mobility: Mobility,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let key = game.hash();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            table_move = entry.best;
            let value = entry.value(ply);
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if entry.depth >= depth && usable {
                return value;
            }
        }
        let mut frame = match self.expand(game, ply, &mut mobility) {
            Ok(frame) => frame,
            Err(value) => return value,
        };
        frame.keyed.clear();
        for &mv in &frame.moves {
            let capture = game.capture_value(mv);
            frame.keyed.push((self.order.key(game, mv, capture, ply, table_move), mv));
        }
        frame.keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        let window_floor = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for &(_, mv) in &frame.keyed {
            let value = self.child(game, mv, depth - 1, ply + 1, alpha, beta, mobility);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                if game.capture_value(mv) == 0.0 {
                    self.order.reward(mv, ply, depth);
                }
                break;
            }
        }
        self.frames[ply] = frame;
        if self.stopped {
            return 0;
        }
        let bound = if best <= window_floor {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(key, depth, best, bound, best_move, ply);
        best
    }

    /// Captures only, after standing pat on the static value; `qply` plies into quiescence.
    #[allow(clippy::too_many_arguments)]
    fn quiesce(&mut self, game: &G, ply: usize, qply: usize, mut alpha: i32, beta: i32, mut mobility: Mobility) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if qply == 0 {
            self.quiescence_began = self.nodes;
        }
        let cheap =
            self.cheap_from_first_ply || ((Self::CHEAP_QUIESCENCE || self.captures_below_first_ply) && qply > 0);
        let stand_pat;
        let mut frame = if cheap {
            // Captures alone, listed only when standing pat does not already decide: the game's
            // own end test stops at its first legal move, and the mobility term is the last full
            // node's.
            if let Some(scores) = game.tactical_outcome() {
                return self.for_mover(game, decided(&scores, self.root, ply));
            }
            stand_pat = self.for_mover(game, static_value(game, self.root, &mobility));
            if stand_pat >= beta || qply >= MAX_QUIESCENCE_PLIES || self.quiescence_spent() {
                return stand_pat;
            }
            let mut frame = self.take_frame(ply);
            // Only the captures the loop below tries: worth their capturer, and hopeful.
            let floor = alpha.max(stand_pat).saturating_sub(stand_pat.saturating_add(DELTA_MARGIN));
            game.worthwhile_captures(&mut frame.moves, floor);
            frame
        } else {
            // All moves, not just captures: an empty list is mate or stalemate, and the count
            // is the mobility term. The judge's first ply counts them and lists the captures.
            let frame = if self.captures_below_first_ply {
                let mut frame = self.take_frame(ply);
                let count = game.count_and_captures(&mut frame.moves);
                if count == 0 {
                    self.frames[ply] = frame;
                    return self.finished(game, ply);
                }
                mobility[game.to_move()] = count;
                frame
            } else {
                match self.expand(game, ply, &mut mobility) {
                    Ok(frame) => frame,
                    Err(value) => return value,
                }
            };
            stand_pat = self.for_mover(game, static_value(game, self.root, &mobility));
            if stand_pat >= beta || qply >= MAX_QUIESCENCE_PLIES {
                self.frames[ply] = frame;
                return stand_pat;
            }
            frame
        };
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        frame.keyed.clear();
        for &mv in &frame.moves {
            let capture = game.capture_value(mv);
            let hopeful = stand_pat + (capture * 100.0) as i32 + DELTA_MARGIN > alpha;
            // A capture by a piece worth more than its victim usually loses the exchange; without
            // exchange evaluation, leaving those out is what keeps Weltschach's quiescence small.
            let not_losing = game.mover_value(mv) <= capture;
            if capture > 0.0 && hopeful && not_losing {
                frame.keyed.push((self.order.key(game, mv, capture, ply, None), mv));
            }
        }
        frame.keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
        for &(_, mv) in &frame.keyed {
            let mut next = game.clone();
            next.play(mv);
            let value =
                self.across(game, &next, alpha, beta, |s, a, b| s.quiesce(&next, ply + 1, qply + 1, a, b, mobility));
            if self.stopped {
                break;
            }
            best = best.max(value);
            alpha = alpha.max(value);
            // Past its node budget a cheap quiescence search keeps what it found so far.
            if alpha >= beta || (Self::CHEAP_QUIESCENCE && self.quiescence_spent()) {
                break;
            }
        }
        self.frames[ply] = frame;
        if self.stopped {
            return 0;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use rules::wellisch::Wellisch;
    use rules::{Glinski, MiniHexchess};

    use super::*;

    #[test]
    fn the_judges_first_ply_counts_the_replies_after_every_move() {
        let game = Glinski::start();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let replies: u64 = moves
            .iter()
            .map(|&mv| {
                let mut next = game.clone();
                next.play(mv);
                next.count_legal_moves()
            })
            .sum();
        assert_eq!(judge_first_ply(&game, &moves), replies);
    }

    #[test]
    fn only_weltschach_searches_the_cheap_quiescence() {
        // Constants of each game type, so checked as the test compiles.
        const { assert!(Searcher::<Weltschach>::CHEAP_QUIESCENCE) };
        const { assert!(!Searcher::<Glinski>::CHEAP_QUIESCENCE) };
        const { assert!(!Searcher::<MiniHexchess>::CHEAP_QUIESCENCE) };
        const { assert!(!Searcher::<Wellisch>::CHEAP_QUIESCENCE) };
    }
}
