//! A search report as UCI `info` lines.

use crate::engine::{cp_from_q, Analysis};

/// One `info` line per reported root move: every visited one, and the first always.
///
/// `info depth D multipv I score cp CP [wdl W D L] [values V1 V2 V3] nodes N nps R time MS pv M1 ...`:
/// depth is the plies of that line's principal variation, the score is the mover's expected
/// score after the move as centipawns ([`cp_from_q`]), `wdl` (two players with a network) the
/// mover's win, draw and loss chances in per mille ([`Analysis::wdl_of`]), and `values` (three
/// players only) each seat's expected final score in seat order. A line never visited shows
/// the root's values.
pub fn info_lines(report: &Analysis) -> Vec<String> {
    let three = report.values.len() > 2;
    report
        .lines
        .iter()
        .enumerate()
        .filter(|(i, line)| *i == 0 || line.visits > 0)
        .map(|(i, line)| {
            let mut s =
                format!("info depth {} multipv {} score cp {}", line.pv.len(), i + 1, cp_from_q(report.q_of(line)));
            if let Some([w, d, l]) = report.wdl_of(line) {
                s.push_str(&format!(" wdl {w} {d} {l}"));
            }
            if three {
                let values: Vec<String> = report.values_of(line).iter().map(|v| format!("{v:.3}")).collect();
                s.push_str(&format!(" values {}", values.join(" ")));
            }
            s.push_str(&format!(
                " nodes {} nps {} time {} pv {}",
                report.nodes,
                report.nps(),
                report.time.as_millis(),
                line.pv.join(" ")
            ));
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use mcts::RootMove;

    fn line(mv: &str, visits: u32, q: Option<f32>, values: Option<Vec<f32>>) -> RootMove<String> {
        RootMove { mv: mv.into(), visits, prior: 0.1, q, values, pv: vec![mv.into(), "x".into()], playable: true }
    }

    #[test]
    fn two_players_get_cp_and_three_get_every_value() {
        let report = Analysis {
            mover: 0,
            nodes: 100,
            reused: 0,
            time: Duration::from_millis(50),
            values: vec![0.5, 0.5],
            lines: vec![line("a", 60, Some(0.75), Some(vec![0.75, 0.25])), line("b", 0, None, None)],
            draw: None,
            tree_full: false,
        };
        let lines = info_lines(&report);
        assert_eq!(lines, ["info depth 2 multipv 1 score cp 111 nodes 100 nps 2000 time 50 pv a x"]);
        let report = Analysis {
            values: vec![0.5, 0.25, 0.75],
            lines: vec![line("a", 0, None, None), line("b", 0, None, None)],
            ..report
        };
        let lines = info_lines(&report);
        assert_eq!(
            lines,
            ["info depth 2 multipv 1 score cp 0 values 0.500 0.250 0.750 nodes 100 nps 2000 time 50 pv a x"]
        );
    }

    #[test]
    fn a_network_draw_share_gives_wdl_that_keeps_the_score() {
        let report = Analysis {
            mover: 1,
            nodes: 10,
            reused: 0,
            time: Duration::from_millis(10),
            values: vec![0.4, 0.6],
            lines: vec![
                line("a", 6, Some(0.75), Some(vec![0.25, 0.75])),
                line("b", 4, Some(0.9), Some(vec![0.1, 0.9])),
            ],
            draw: Some(0.3),
            tree_full: false,
        };
        let lines = info_lines(&report);
        // 0.75 with a draw share of 0.3: win 0.6, loss 0.1. At 0.9 only 0.2 of draws fit.
        assert!(lines[0].contains(" score cp 111 wdl 600 300 100 nodes"), "{}", lines[0]);
        assert!(lines[1].contains(" wdl 800 200 0 nodes"), "{}", lines[1]);
        // Rounding never makes the three sum to more or less than 1000.
        for q in [0.4995f32, 0.5005, 0.0004, 0.9996] {
            let report = Analysis { draw: Some(0.0), ..report.clone() };
            let wdl = report.wdl_of(&line("c", 1, Some(q), Some(vec![q, 1.0 - q]))).unwrap();
            assert_eq!(wdl.iter().sum::<u32>(), 1000, "{q}: {wdl:?}");
        }
    }
}
