//! `vzero play`: a person against the model in the terminal. The board is drawn as text after
//! every move, moves are typed in the variant's notation, and commands list moves, take moves
//! back and show what the search thinks. Reads lines until the end of its input, so scripts and
//! tests can drive it through a pipe. A stop signal (Ctrl-C) ends it at once, whether the model
//! is thinking or the prompt is waiting, and `--save` keeps the game so far.

mod input;

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use anyhow::{anyhow, Context};

use rules::{board_text, BoardMove, GameText, Scores, Termination};

use crate::cli::PlayArgs;
use crate::clip::clip_quotes;
use crate::cmd::analyse::print_table;
use crate::engine::{
    open_session, time_loss_scores, uniform_reason, Analysis, Clocks, EngineSettings, Limits, Session, INFO_EVERY,
};
use crate::games_out::GamesOut;
use crate::line_input::{read_line, too_long, Line, MAX_LINE};
use input::{parse_input, parse_seats, Input, HELP};

/// Root moves `show` lists.
const SHOW_LINES: usize = 5;
/// Widest line of the move list.
const LINE_WIDTH: usize = 78;
/// How often the wait for a typed line looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(50);

/// Opens the model, then plays until the game ends, the person quits or the input ends.
pub fn run(args: PlayArgs) -> anyhow::Result<()> {
    let save = GamesOut::open("--save", args.save.as_deref())?;
    let stop = crate::stop::on_stop_signal_static("at once, leaving the game unfinished (kept by --save)")?;
    let inference = args.net.inference(1)?;
    let model = args.engine.model.resolve(args.game.variant);
    let mut session =
        open_session(args.game.variant, model.as_deref(), inference).map_err(|e| anyhow!("--model: {e}"))?;
    let result = Table::new(&mut session, &args, stop).and_then(|mut table| {
        let played = table.play();
        if let Some(save) = &save {
            // The game so far is kept whatever ended it.
            if save.append(&table.game_text()) {
                println!("Saved the game to {}.", save.path().display());
            }
        }
        played
    });
    session.close();
    result.and(save.map_or(Ok(()), GamesOut::finish))
}

/// A move of the game so far and who chose it.
struct ChosenMove {
    mv: BoardMove,
    by_person: bool,
}

/// The game in progress: the position (in the session), its moves, and who plays which seat.
struct Table<'a> {
    session: &'a mut Session,
    args: &'a PlayArgs,
    names: Vec<String>,
    people: Vec<usize>,
    history: Vec<ChosenMove>,
    /// The start position's text.
    start: String,
    /// Set by a stop signal: the model's search ends and the game is left.
    stop: &'static AtomicBool,
    /// Every seat's clock, with `--clock`.
    clocks: Option<Clocks>,
    /// The seat that lost on time, once one has.
    flag: Option<usize>,
}

impl<'a> Table<'a> {
    fn new(session: &'a mut Session, args: &'a PlayArgs, stop: &'static AtomicBool) -> anyhow::Result<Table<'a>> {
        if let Some(text) = &args.start.position {
            session.set_position(Some(text), &[]).map_err(crate::cmd::start::setup_usage)?;
        }
        crate::cmd::start::refuse_finished(session.game().game_over_text(), false)?;
        let names = session
            .game()
            .diagram()
            .map(|d| d.players)
            .ok_or_else(|| anyhow!("variant '{}' has no board picture to play on", args.game.variant))?;
        let people = parse_seats(&args.seats, &names)?;
        let start = session.game().to_text();
        let clocks = args.clock.and_then(|c| Clocks::new(&vec![Some(c); names.len()], names.len()));
        Ok(Table { session, args, names, people, history: Vec::new(), start, stop, clocks, flag: None })
    }

    /// The game so far as text: people's seats named `person`, the model's as an arena player
    /// that searches as it does (`PATH:SIMS`, `mcts:SIMS` without a model).
    fn game_text(&self) -> GameText {
        let game = self.session.game();
        let mut text = GameText::new(game.variant(), &self.start);
        text.tags.push(("Event".into(), "vzero play".into()));
        let sims = self.args.sims.max(1);
        let model = match self.session.model() {
            Some(path) => format!("{}:{sims}", path.display()),
            None => format!("mcts:{sims}"),
        };
        text.seats = (0..self.names.len())
            .map(|seat| if self.people.contains(&seat) { "person".to_string() } else { model.clone() })
            .collect();
        text.moves = self.history.iter().map(|p| p.mv.text.clone()).collect();
        text.end_by_rules(game);
        if let Some(c) = self.args.clock {
            // PGN's form: seconds for the game, then the increment.
            text.tags.push(("TimeControl".into(), format!("{}+{}", c.seconds, c.increment)));
        }
        if let Some(loser) = self.flag {
            text.result = Some(Scores::new(&time_loss_scores(loser, self.names.len())));
            text.termination = Some(Termination::Time);
        }
        text
    }

    fn play(&mut self) -> anyhow::Result<()> {
        self.introduce();
        let echo = !io::stdin().is_terminal();
        let input = typed_lines()?;
        let mut draw = true;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                println!("\nStopped by a signal: leaving the game unfinished.");
                return Ok(());
            }
            if let Some(loser) = self.flag {
                self.print_board();
                println!("Game over: {} lost on time.", self.names[loser]);
                return Ok(());
            }
            if let Some(ending) = self.session.game().ending_text() {
                self.print_board();
                println!("Game over: {ending}");
                return Ok(());
            }
            let seat = self.session.game().to_move();
            if !self.people.contains(&seat) {
                self.model_move(seat)?;
                draw = true;
                continue;
            }
            if draw {
                self.print_board();
                draw = false;
            }
            print!("{} to move> ", self.names[seat]);
            io::stdout().flush().context("writing the prompt")?;
            let Some(line) = self.next_line(&input, seat)? else {
                if self.stop.load(Ordering::Relaxed) || self.flag.is_some() {
                    continue;
                }
                println!("\nEnd of input: leaving the game unfinished.");
                return Ok(());
            };
            // A line that cannot be a move or a command is answered, and the prompt comes back.
            let line = match line {
                Line::Text(text) => text,
                Line::NotUtf8(text) => {
                    if echo {
                        println!("{}", clip_quotes(&text));
                    }
                    println!("Not read: that line is not UTF-8 text. Type a move, or 'help' for the commands.");
                    continue;
                }
                Line::TooLong(length) => {
                    if echo {
                        println!();
                    }
                    println!("Not read: {}.", too_long(length));
                    continue;
                }
            };
            if echo {
                println!("{}", clip_quotes(&line));
            }
            match parse_input(&line) {
                Input::Move(text) => match self.session.play_move(&text) {
                    Ok(mv) => {
                        println!("{} plays {}", self.names[seat], mv.text);
                        self.history.push(ChosenMove { mv, by_person: true });
                        if let Some(clocks) = &mut self.clocks {
                            clocks.moved(seat);
                        }
                        draw = true;
                    }
                    Err(reason) => println!(
                        "Not played: {}. Type 'moves' for the legal moves, 'help' for more.",
                        clip_quotes(&reason.to_string())
                    ),
                },
                Input::Moves(cell) => self.list_moves(cell.as_deref()),
                Input::Undo => draw = self.undo()?,
                Input::Hint => {
                    let report = self.search(1, &self.sims_limits());
                    let best = report.best().unwrap_or("-");
                    println!("Hint: the search plays {best} ({} of {} visits).", visits_of(&report), report.nodes);
                }
                Input::Show => print_table(&self.search(SHOW_LINES, &self.sims_limits()), None),
                Input::Board => draw = true,
                Input::Help => self.help(),
                Input::Quit => {
                    println!("Leaving the game unfinished.");
                    return Ok(());
                }
                Input::Nothing => {}
            }
        }
    }

    /// Who plays what, and how to get help.
    fn introduce(&self) {
        let seats = |people: bool| {
            let list: Vec<&str> = (0..self.names.len())
                .filter(|s| self.people.contains(s) == people)
                .map(|s| self.names[s].as_str())
                .collect();
            list.join(" and ")
        };
        let model = match self.session.model() {
            Some(path) => format!("the network {}", path.display()),
            None => format!(
                "no model, the uniform evaluator ({}; every move equally likely, the search alone decides)",
                uniform_reason(&self.args.engine.model, self.args.game.variant)
            ),
        };
        println!("vzero play: {}. You play {}.", self.args.game.variant, seats(true));
        let effort = match self.args.clock {
            Some(c) => format!(
                "searching as long as its clock allows (every seat has {} s, {} s more a move)",
                c.seconds, c.increment
            ),
            None => format!("{} simulations a move", self.args.sims.max(1)),
        };
        println!("The model plays {}: {model}, {effort}.", seats(false));
        println!("Type a move (e.g. one from 'moves'), or 'help' for the commands.");
    }

    fn help(&self) {
        println!("{HELP}");
        if let Some(d) = self.session.game().diagram() {
            let pieces: Vec<String> = d.legend.iter().map(|(letter, name)| format!("{letter} {name}")).collect();
            let marks = if d.players.len() > 2 {
                "pieces carry their seat's number (K1)"
            } else {
                "upper case is the first seat's, lower case the second's"
            };
            println!("Pieces: {}; {marks}; '*' marks the last move's cells.", pieces.join(", "));
        }
    }

    /// The board, the last move and who is to move.
    fn print_board(&self) {
        let Some(diagram) = self.session.game().diagram() else { return };
        let last = self.history.last();
        println!();
        print!("{}", board_text(&diagram, last.and_then(|p| p.mv.cells)));
        if let Some(p) = last {
            println!("Last move: {} (ply {})", p.mv.text, self.history.len());
        }
        if let Some(clocks) = &self.clocks {
            let mover = Some(self.session.game().to_move());
            let shown: Vec<String> = (0..self.names.len())
                .filter_map(|s| Some(format!("{} {}", self.names[s], clock_text(clocks.left(s, mover)?))))
                .collect();
            println!("Clocks: {}", shown.join(", "));
        }
    }

    /// The next line `seat` types, or `None` at the end of the input, once a stop signal came,
    /// or once `seat`'s time ran out (which [`Table::flag`] then says).
    fn next_line(&mut self, input: &Receiver<io::Result<Option<Line>>>, seat: usize) -> anyhow::Result<Option<Line>> {
        loop {
            if self.clocks.as_ref().is_some_and(|c| c.flagged(seat)) {
                self.flag = Some(seat);
                return Ok(None);
            }
            match input.recv_timeout(STOP_POLL) {
                Ok(line) => return line.context("reading standard input"),
                Err(RecvTimeoutError::Timeout) if self.stop.load(Ordering::Relaxed) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// The search's move for a model seat, played (not if a stop signal cut the search short:
    /// the game is being left, and the move was a hurried one).
    fn model_move(&mut self, seat: usize) -> anyhow::Result<()> {
        let moves = self.session.game().legal_moves().len();
        let limits = match self.clocks.as_ref().and_then(|c| c.budget(seat)) {
            // The budget never exceeds the time left, and saves what an early decision leaves.
            Some(budget) => Limits { movetime: Some(budget), early: true, ..Limits::default() },
            None => Limits { nodes: Some(self.args.sims.max(1)), ..Limits::default() },
        };
        let report = self.search(moves, &limits);
        if self.stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        if self.clocks.as_ref().is_some_and(|c| c.flagged(seat)) {
            self.flag = Some(seat);
            return Ok(());
        }
        let best = self.choose(&report).ok_or_else(|| anyhow!("the search found no move for {}", self.names[seat]))?;
        let value = report.lines.iter().find(|l| l.mv == best).map_or(report.values[seat], |l| report.q_of(l));
        let mv = self.session.play_move(&best).map_err(|e| anyhow!("the search's move {best}: {e}"))?;
        println!("{} (model) plays {} (expected score {value:.2})", self.names[seat], mv.text);
        self.history.push(ChosenMove { mv, by_person: false });
        if let Some(clocks) = &mut self.clocks {
            clocks.moved(seat);
        }
        Ok(())
    }

    /// One of the root moves tied for the most visits, picked by `--seed` and the ply.
    fn choose(&self, report: &Analysis) -> Option<String> {
        let most = report.lines.first()?.visits;
        let tied: Vec<&str> = report.lines.iter().take_while(|l| l.visits == most).map(|l| l.mv.as_str()).collect();
        let pick = mix(self.args.seed ^ self.history.len() as u64) % tied.len() as u64;
        Some(tied[pick as usize].to_string())
    }

    /// `--sims` root visits: what `hint` and `show` search (on the person's clock).
    fn sims_limits(&self) -> Limits {
        Limits { nodes: Some(self.args.sims.max(1)), ..Limits::default() }
    }

    /// A search of the position within `limits`, reporting `lines` root moves.
    fn search(&mut self, lines: usize, limits: &Limits) -> Analysis {
        let settings = EngineSettings {
            threads: 1,
            multipv: lines.max(1),
            leaves: Some(self.args.net.leaves),
            tactics: self.args.net.tactics(),
            info_every: INFO_EVERY,
        };
        let report = self.session.search(limits, settings, self.stop, &mut |_| {});
        if let Some(note) = report.tree_full_note(limits.nodes) {
            println!("Note: {note}; ask for fewer --sims.");
        }
        report
    }

    /// The legal moves, or those leaving `cell`, in lines of at most [`LINE_WIDTH`].
    fn list_moves(&self, cell: Option<&str>) {
        let all = self.session.game().legal_board_moves();
        let diagram = self.session.game().diagram();
        // The label of the cell a move leaves (none for a pass).
        let from = |m: &BoardMove| {
            let (key, _) = m.cells?;
            diagram.as_ref()?.cells.iter().find(|c| c.key == key).map(|c| c.label.as_str())
        };
        let chosen: Vec<&str> = all
            .iter()
            .filter(|m| cell.is_none_or(|c| from(m).is_some_and(|f| f.eq_ignore_ascii_case(c))))
            .map(|m| m.text.as_str())
            .collect();
        if let Some(cell) = cell {
            let known = diagram.as_ref().is_some_and(|d| d.cells.iter().any(|c| c.label.eq_ignore_ascii_case(cell)));
            if !known {
                println!("{}", clip_quotes(&format!("There is no cell '{cell}' on this board.")));
                return;
            }
            if chosen.is_empty() {
                println!("No legal move leaves {cell}.");
                return;
            }
        }
        println!("{} legal moves:", chosen.len());
        let mut line = String::new();
        for text in chosen {
            if !line.is_empty() && line.len() + 1 + text.len() > LINE_WIDTH {
                println!("{line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(text);
        }
        println!("{line}");
    }

    /// Takes back the person's last move and the model's replies since; whether it did.
    fn undo(&mut self) -> anyhow::Result<bool> {
        let Some(last) = self.history.iter().rposition(|p| p.by_person) else {
            println!("Nothing to undo: you have not moved yet.");
            return Ok(false);
        };
        let undone: Vec<String> = self.history.drain(last..).map(|p| p.mv.text).collect();
        let moves: Vec<String> = self.history.iter().map(|p| p.mv.text.clone()).collect();
        self.session
            .set_position(self.args.start.position.as_deref(), &moves)
            .map_err(|e| anyhow!("replaying the game: {e}"))?;
        println!("Took back {}.", undone.join(" "));
        Ok(true)
    }
}

/// Standard input's lines as they are typed, read on a thread of their own so that the wait
/// for one can end at a stop signal (a read of the terminal cannot be interrupted); the
/// channel ends after the end of the input or a read error.
fn typed_lines() -> anyhow::Result<Receiver<io::Result<Option<Line>>>> {
    let (send, lines) = sync_channel(0);
    std::thread::Builder::new()
        .name("play-input".into())
        .spawn(move || {
            let mut input = io::stdin().lock();
            loop {
                let line = read_line(&mut input, MAX_LINE);
                let last = !matches!(line, Ok(Some(_)));
                if send.send(line).is_err() || last {
                    break;
                }
            }
        })
        .context("starting the input reader")?;
    Ok(lines)
}

/// Time left as a clock shows it: `m:ss`, tenths under a minute.
fn clock_text(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    match tenths / 600 {
        0 => format!("0:{:02}.{}", tenths / 10, tenths % 10),
        minutes => format!("{minutes}:{:02}", tenths / 10 % 60),
    }
}

/// Visits of the report's first line.
fn visits_of(report: &Analysis) -> u32 {
    report.lines.first().map_or(0, |l| l.visits)
}

/// SplitMix64's output function: spreads a seed and a ply over all 64 bits.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
