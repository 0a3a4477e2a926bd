//! The staged move picker: an interior node's moves, one at a time, in
//! [`crate::engine::ordering`]'s order, generated only as far as the node
//! gets before it cuts off.
//!
//! Stages: the hash move (checked with [`Board::is_pseudo_legal`], tried
//! before anything is generated); the captures and promotions, best key
//! first, each judged by SEE only when it comes up (a losing one is set
//! aside); the killers (checked like the hash move); the quiet moves by
//! history; the losing captures; the under-promotions last. Every move is
//! judged legal just before it is handed out, so a node that cuts off on
//! its first move never tests the others. Quiescence asks for the captures
//! only, by key, and leaves SEE to the caller.

use crate::chess::board::Board;
use crate::chess::movegen::{CheckInfo, GenKind, MoveSink, MAX_MOVES};
use crate::chess::types::*;
use crate::engine::ordering::{good_capture, keys, Context, MoveOrdering};
use arrayvec::ArrayVec;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killers,
    GenQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// A generated move and its ordering key.
#[derive(Clone, Copy)]
struct Scored {
    mv: Move,
    key: i32,
}

/// The generator's sink: moves with a key to be filled in.
struct ScoredList(ArrayVec<Scored, MAX_MOVES>);

impl MoveSink for ScoredList {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        let _ = self.0.try_push(Scored { mv, key: 0 });
    }
}

/// One node's moves in the order they are to be tried.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    /// Winning captures only, and then stop (quiescence).
    captures_only: bool,
    /// The side to move is in check: moves are judged with the check
    /// info, built when the first move needs judging. Out of check each
    /// move is judged alone ([`Board::is_legal_out_of_check`]).
    in_check: bool,
    info: Option<CheckInfo>,
    /// `[0, bad)`: captures set aside as losing; `[bad, next)`: moves
    /// handed out; `[next, len)`: moves of the current stage still to come.
    list: ScoredList,
    bad: usize,
    next: usize,
    killer: usize,
    /// The node has stopped trying quiet moves (late-move pruning).
    skip_quiets: bool,
}

impl MovePicker {
    /// The picker of a node whose hash move is `tt_move` and whose killers
    /// are `killers`; `captures_only` for quiescence outside check (then
    /// the hash move is tried only if it is a capture or promotion, the
    /// other captures and queen promotions come by key in the winning band
    /// whatever SEE says, for the caller to judge, and nothing else comes);
    /// `in_check` whether the side to move is in check.
    pub fn new(
        tt_move: Move,
        killers: [Move; 2],
        captures_only: bool,
        in_check: bool,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            captures_only,
            in_check,
            info: None,
            list: ScoredList(ArrayVec::new()),
            bad: 0,
            next: 0,
            killer: 0,
            skip_quiets: false,
        }
    }

    /// The next move and its ordering key, or `None` when the node's moves
    /// are exhausted. Every move returned is legal.
    pub fn next(
        &mut self,
        board: &Board,
        ordering: &MoveOrdering,
        cx: &mut Context,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    let mv = self.tt_move;
                    if board.is_pseudo_legal(mv)
                        && (!self.captures_only
                            || board.is_capture(mv)
                            || mv.kind() == MoveKind::Promotion)
                        && self.legal(board, mv)
                    {
                        return Some((mv, keys::TT_MOVE));
                    }
                }
                Stage::GenCaptures => {
                    self.generate_captures(board, ordering);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    let Some(s) = self.pick_best() else {
                        self.stage = if self.captures_only {
                            Stage::Done
                        } else {
                            Stage::Killers
                        };
                        continue;
                    };
                    if s.mv == self.tt_move {
                        continue;
                    }
                    if self.captures_only {
                        // Quiescence judges SEE itself, after its cheaper
                        // delta test.
                        if s.key != keys::UNDER_PROMOTION && self.legal(board, s.mv) {
                            return Some((s.mv, keys::capture(s.key, true)));
                        }
                        continue;
                    }
                    if s.key == keys::UNDER_PROMOTION || !good_capture(board, s.mv) {
                        self.set_aside(s);
                        continue;
                    }
                    if self.legal(board, s.mv) {
                        return Some((s.mv, keys::capture(s.key, true)));
                    }
                }
                Stage::Killers | Stage::GenQuiets | Stage::Quiets if self.skip_quiets => {
                    self.begin_bad_captures();
                }
                Stage::Killers => {
                    if self.killer == 2 {
                        self.stage = Stage::GenQuiets;
                        continue;
                    }
                    let i = self.killer;
                    self.killer += 1;
                    let mv = self.killers[i];
                    if mv != self.tt_move
                        && board.is_pseudo_legal(mv)
                        && board.is_quiet(mv)
                        && self.legal(board, mv)
                    {
                        return Some((mv, keys::KILLERS[i]));
                    }
                }
                Stage::GenQuiets => {
                    self.generate_quiets(board, ordering, cx);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let Some(s) = self.pick_best() else {
                        self.begin_bad_captures();
                        continue;
                    };
                    if s.mv == self.tt_move || s.mv == self.killers[0] || s.mv == self.killers[1] {
                        continue;
                    }
                    if self.legal(board, s.mv) {
                        return Some((s.mv, s.key));
                    }
                }
                Stage::BadCaptures => {
                    let Some(s) = self.pick_best() else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    if self.legal(board, s.mv) {
                        let key = if s.key == keys::UNDER_PROMOTION {
                            s.key
                        } else {
                            keys::capture(s.key, false)
                        };
                        return Some((s.mv, key));
                    }
                }
                Stage::Done => return None,
            }
        }
    }

    /// Appends the captures and promotions with their keys. Out of line,
    /// as is [`MovePicker::generate_quiets`]: each runs once a node, and
    /// what they need would otherwise be set up on every call of `next`.
    #[inline(never)]
    fn generate_captures(&mut self, board: &Board, ordering: &MoveOrdering) {
        let start = self.list.0.len();
        board.generate(GenKind::Captures, &mut self.list);
        for s in &mut self.list.0[start..] {
            let promo = s.mv.promo();
            s.key = if promo != EMPTY && promo != QUEEN {
                keys::UNDER_PROMOTION
            } else {
                ordering.capture_key(board, s.mv)
            };
        }
    }

    /// Appends the quiet moves with their history keys; they come next.
    #[inline(never)]
    fn generate_quiets(&mut self, board: &Board, ordering: &MoveOrdering, cx: &mut Context) {
        cx.fill_threats(board);
        let cx = *cx;
        let start = self.list.0.len();
        board.generate(GenKind::Quiets, &mut self.list);
        for s in &mut self.list.0[start..] {
            s.key = ordering.quiet_key(board, s.mv, cx);
        }
        self.next = start;
    }

    /// No more quiet moves (killers included): the node prunes every quiet
    /// move from here on, so they are neither scored nor handed out.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// Selection sort, one step: the best-keyed move of the rest of the
    /// current stage, taken out of it.
    #[inline(always)]
    fn pick_best(&mut self) -> Option<Scored> {
        let list = &mut self.list.0;
        let rest = list.get(self.next..).filter(|rest| !rest.is_empty())?;
        // The first of the best keys, the best kept at hand as the scan
        // goes. By index: the iterator form (enumerate, skip) compiled to
        // 9 instructions a move, this one to an unrolled loop of fewer,
        // and this scan is the picker's main cost. Whether a key beats the
        // best so far is a coin toss for the CPU's branch predictor: taken
        // without a branch (conditional moves), the scan costs the same
        // instructions and about 1.7 M fewer mispredicted branches in
        // `bench 8` (cachegrind's branch simulation: 20.2 M to 18.5 M).
        let (mut b, mut best) = (0, rest[0].key);
        #[allow(clippy::needless_range_loop)]
        for j in 1..rest.len() {
            let key = rest[j].key;
            let better = key > best;
            b = std::hint::select_unpredictable(better, j, b);
            best = std::hint::select_unpredictable(better, key, best);
        }
        list.swap(self.next, self.next + b);
        let s = list[self.next];
        self.next += 1;
        Some(s)
    }

    /// On to the losing captures and under-promotions, set aside at the
    /// front of the list.
    fn begin_bad_captures(&mut self) {
        self.list.0.truncate(self.bad);
        self.next = 0;
        self.stage = Stage::BadCaptures;
    }

    /// Moves the capture just picked (at `next - 1`) to the set-aside
    /// block at the front.
    #[inline(always)]
    fn set_aside(&mut self, s: Scored) {
        let list = &mut self.list.0;
        list[self.next - 1] = list[self.bad];
        list[self.bad] = s;
        self.bad += 1;
    }

    #[inline(always)]
    fn legal(&mut self, board: &Board, mv: Move) -> bool {
        if !self.in_check {
            return board.is_legal_out_of_check(mv);
        }
        let info = self.info.get_or_insert_with(|| board.check_info());
        board.is_legal_with(mv, info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_move;
    use crate::engine::ordering::below_killers;

    /// Everything the picker hands out at a node, in order.
    fn drain(board: &Board, o: &MoveOrdering, tt: Move, ply: usize, qs: bool) -> Vec<(Move, i32)> {
        let mut p = MovePicker::new(tt, o.killers(ply), qs, board.in_check());
        let mut out = Vec::new();
        let mut cx = Context::ROOT;
        while let Some(x) = p.next(board, o, &mut cx) {
            out.push(x);
        }
        out
    }

    #[test]
    fn every_legal_move_once_in_band_order() {
        let text = include_str!("../../tests/data/standard.epd");
        let mut o = MoveOrdering::new(4);
        let mut positions = 0;
        for (n, line) in text.lines().enumerate() {
            let fen = line.split(';').next().unwrap().trim();
            let Ok(board) = Board::from_fen(fen) else {
                continue;
            };
            let legal = board.legal_moves();
            if legal.len() < 2 {
                continue;
            }
            positions += 1;
            // A killer, the hash move and some history from the list.
            let quiet: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| !board.is_capture(m))
                .collect();
            if let Some(&k) = quiet.get(n % quiet.len().max(1)) {
                o.reward_quiet(&board, k, 1, 4, &quiet[..quiet.len().min(3)], Context::ROOT);
            }
            let tt = legal[n % legal.len()];
            let got = drain(&board, &o, tt, 1, false);
            assert_eq!(got.len(), legal.len(), "{fen}");
            for m in &legal {
                assert_eq!(got.iter().filter(|x| x.0 == *m).count(), 1, "{fen}");
            }
            assert_eq!(got[0], (tt, keys::TT_MOVE));
            // Bands never go up: keys fall except within the quiets.
            for w in got[1..].windows(2) {
                assert!(w[0].1 >= w[1].1 || below_killers(w[0].1) && below_killers(w[1].1));
            }
            // The same set and order the full sort gives, band by band.
            let bands = |v: &[(Move, i32)]| -> Vec<i32> { v.iter().map(|x| x.1).collect() };
            let mut full: Vec<i32> = legal
                .iter()
                .map(|&m| o.score(&board, m, tt, 1, Context::ROOT))
                .collect();
            full.sort_unstable_by(|a, b| b.cmp(a));
            let mut mine = bands(&got);
            mine.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(mine, full, "{fen}");
            // Quiescence: the captures and queen promotions only.
            let qs = drain(&board, &o, Move::NONE, 1, true);
            let caps = legal
                .iter()
                .filter(|&&m| {
                    (board.is_capture(m) || m.promo() == QUEEN)
                        && (m.promo() == EMPTY || m.promo() == QUEEN)
                })
                .count();
            assert_eq!(qs.len(), caps, "{fen}");
        }
        assert!(positions > 100);
    }

    #[test]
    fn a_foreign_hash_move_or_killer_is_never_handed_out() {
        let board = Board::from_fen("4k3/8/2p5/3p4/p7/2N5/8/3QK3 w - - 0 1").unwrap();
        let other = Board::startpos();
        let mut o = MoveOrdering::new(4);
        let foreign = parse_move(&other, "g1f3").unwrap();
        o.reward_quiet(
            &other,
            parse_move(&other, "e2e4").unwrap(),
            1,
            4,
            &[],
            Context::ROOT,
        );
        let got = drain(&board, &o, foreign, 1, false);
        assert_eq!(got.len(), board.legal_moves().len());
        assert!(got.iter().all(|x| board.legal_moves().contains(&x.0)));
        // In check, the hash move must be an evasion.
        let check = Board::from_fen("4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1").unwrap();
        let castle = parse_move(
            &Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap(),
            "e1c1",
        )
        .unwrap();
        let got = drain(&check, &o, castle, 1, false);
        assert_eq!(got.len(), check.legal_moves().len());
        assert!(!got.iter().any(|x| x.0 == castle));
    }

    #[test]
    fn skipping_quiets_leaves_the_losing_captures() {
        // Qd1xd5 loses the queen; Nc3xa4 wins a pawn.
        let board = Board::from_fen("4k3/8/2p5/3p4/p7/2N5/8/3QK3 w - - 0 1").unwrap();
        let o = MoveOrdering::new(4);
        let mut p = MovePicker::new(Move::NONE, o.killers(1), false, board.in_check());
        let mut cx = Context::ROOT;
        let (first, _) = p.next(&board, &o, &mut cx).unwrap();
        assert_eq!(first, parse_move(&board, "c3a4").unwrap());
        p.skip_quiets();
        let rest: Vec<Move> =
            std::iter::from_fn(|| p.next(&board, &o, &mut cx).map(|x| x.0)).collect();
        assert!(rest.contains(&parse_move(&board, "d1d5").unwrap()));
        assert!(
            rest.iter().all(|&m| board.is_capture(m)),
            "no quiet move after the skip"
        );
    }
}
