//! The first layer's sums (both views, i16, `hidden` each) by ply of the
//! search, brought up to date lazily, as Viridithas, Stormphrax and akimbo
//! keep theirs: making a move only notes what it changes (a [`Delta`]: the
//! features that appear and that go), and a position's sums are computed
//! from the nearest ply above it whose sums are up to date when, and only
//! when, it is evaluated. Positions the search leaves without an
//! evaluation (in check, answered by the evaluation cache or the table)
//! cost nothing, and `make`/`unmake` (and so perft) know nothing of the
//! network. A null move changes no input: its delta is empty.
//!
//! Sums are kept White's view first; the output takes the side to move's
//! first. Adding in i16 wraps, and wrapping sums do not depend on the
//! order of the additions, so the incremental sums are exactly the ones
//! a refresh from the board gives (tested over random games).

use super::output::output_portable;
use super::{board_features, piece_features, Network};
use crate::chess::board::Board;
use crate::chess::types::{Color, Move, MoveKind, EMPTY, PAWN};

/// What a move changes in the inputs: the features that appear and those
/// that go, each as both views' indices (White's first). At most two of
/// each: castling moves two pieces; a capture removes one more.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    add: [[u16; 2]; 2],
    sub: [[u16; 2]; 2],
    adds: u8,
    subs: u8,
}

impl Delta {
    /// A null move's: nothing.
    pub const NONE: Delta = Delta {
        add: [[0; 2]; 2],
        sub: [[0; 2]; 2],
        adds: 0,
        subs: 0,
    };

    /// What `mv` changes, read from the board before it is made.
    #[inline(always)]
    pub fn of(board: &Board, mv: Move) -> Delta {
        let us = board.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let piece = board.at(from);
        let mut d = Delta::NONE;
        match mv.kind() {
            MoveKind::Castle => {
                let rook = board.at(to);
                let (king_to, rook_to) = board.castle_targets(from, to);
                d.push_add(piece_features(piece, king_to));
                d.push_add(piece_features(rook, rook_to));
                d.push_sub(piece_features(piece, from));
                d.push_sub(piece_features(rook, to));
            }
            kind => {
                let landing = if kind == MoveKind::Promotion {
                    us.piece(mv.promo())
                } else {
                    piece
                };
                d.push_add(piece_features(landing, to));
                d.push_sub(piece_features(piece, from));
                if kind == MoveKind::EnPassant {
                    let cap_sq = to.offset(-us.forward());
                    d.push_sub(piece_features(us.flip().piece(PAWN), cap_sq));
                } else if board.at(to) != EMPTY {
                    d.push_sub(piece_features(board.at(to), to));
                }
            }
        }
        d
    }

    #[inline(always)]
    fn push_add(&mut self, f: [u16; 2]) {
        self.add[self.adds as usize] = f;
        self.adds += 1;
    }

    #[inline(always)]
    fn push_sub(&mut self, f: [u16; 2]) {
        self.sub[self.subs as usize] = f;
        self.subs += 1;
    }
}

/// One search thread's sums by ply, and the moves between the plies.
#[derive(Clone, Debug, Default)]
pub struct Accumulators {
    hidden: usize,
    /// `2 x hidden` per ply: White's view, then Black's.
    sums: Vec<i16>,
    /// Whether each ply's sums are those of the position now at that ply.
    fresh: Vec<bool>,
    /// The change from the ply before to each ply.
    deltas: Vec<Delta>,
}

impl Accumulators {
    /// Room for `plies` plies of a network of `hidden` units per view.
    pub fn new(hidden: usize, plies: usize) -> Accumulators {
        Accumulators {
            hidden,
            sums: vec![0; 2 * hidden * plies],
            fresh: vec![false; plies],
            deltas: vec![Delta::NONE; plies],
        }
    }

    /// Units per view these sums are for.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Starts a search of `board`: its sums at ply 0, from scratch, and no
    /// other ply's up to date.
    pub fn start(&mut self, net: &Network, board: &Board) {
        self.fresh.fill(false);
        self.refresh(net, board, 0);
    }

    /// Computes the sums of `board`, at `ply`, from scratch.
    pub fn refresh(&mut self, net: &Network, board: &Board, ply: usize) {
        debug_assert_eq!(net.hidden, self.hidden);
        let h = self.hidden;
        let views = board_features(board);
        let sums = &mut self.sums[2 * h * ply..2 * h * (ply + 1)];
        let (white, black) = sums.split_at_mut(h);
        net.refresh(&views[0], white);
        net.refresh(&views[1], black);
        self.fresh[ply] = true;
    }

    /// Notes the change from the position at `ply - 1` to the one now at
    /// `ply` (`ply` at least 1).
    #[inline(always)]
    pub fn push(&mut self, ply: usize, delta: Delta) {
        self.deltas[ply] = delta;
        self.fresh[ply] = false;
    }

    /// The network's evaluation (centipawns, side to move's view) of
    /// `board`, the position at `ply`: its sums brought up to date from
    /// the nearest ply above with fresh ones (the root's are, since
    /// `refresh`), then the output layer of the board's bucket, with AVX2
    /// when the CPU has it.
    #[inline(always)]
    pub fn evaluate(&mut self, net: &Network, board: &Board, ply: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if crate::util::cpu::has_avx2() {
            // One of the crate's `unsafe`s: calling code compiled for a CPU
            // feature is sound once the CPU is known to have it.
            // SAFETY: `has_avx2` has checked that this CPU has AVX2, the
            // only feature `evaluate_avx2` is compiled for.
            #[allow(unsafe_code)]
            return unsafe { self.evaluate_avx2(net, board, ply) };
        }
        self.evaluate_portable(net, board, ply)
    }

    /// `evaluate` on any CPU.
    pub(super) fn evaluate_portable(&mut self, net: &Network, board: &Board, ply: usize) -> i32 {
        self.bring_up_to_date(net, ply);
        let (us, them) = self.views(board.side_to_move(), ply);
        output_portable(net, net.bucket_of_board(board), us, them)
    }

    /// `evaluate` compiled for AVX2: the updates are vectorised 16 units
    /// at a time by the compiler, the output layer by hand.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    pub(super) fn evaluate_avx2(&mut self, net: &Network, board: &Board, ply: usize) -> i32 {
        self.bring_up_to_date(net, ply);
        let (us, them) = self.views(board.side_to_move(), ply);
        super::output::output_avx2(net, net.bucket_of_board(board), us, them)
    }

    /// The two views' sums at `ply`, the side to move's first.
    #[inline(always)]
    fn views(&self, side: Color, ply: usize) -> (&[i16], &[i16]) {
        let h = self.hidden;
        let (white, black) = self.sums[2 * h * ply..2 * h * (ply + 1)].split_at(h);
        if side == Color::White {
            (white, black)
        } else {
            (black, white)
        }
    }

    /// The sums of `ply` (and of every ply between it and the nearest
    /// fresh one above it), from the moves in between.
    #[inline(always)]
    fn bring_up_to_date(&mut self, net: &Network, ply: usize) {
        let mut base = ply;
        while !self.fresh[base] {
            debug_assert!(base > 0, "the root's sums are not fresh");
            base -= 1;
        }
        let width = 2 * self.hidden;
        for p in base + 1..=ply {
            let (done, rest) = self.sums.split_at_mut(width * p);
            let src = &done[width * (p - 1)..];
            let dst = &mut rest[..width];
            apply(net, &self.deltas[p], src, dst);
            self.fresh[p] = true;
        }
    }
}

/// `dst` = `src` with `delta` applied, both views.
#[inline(always)]
fn apply(net: &Network, delta: &Delta, src: &[i16], dst: &mut [i16]) {
    let h = net.hidden;
    for view in 0..2 {
        let s = &src[view * h..(view + 1) * h];
        let d = &mut dst[view * h..(view + 1) * h];
        let add = |i: usize| net.row(delta.add[i][view] as usize);
        let sub = |i: usize| net.row(delta.sub[i][view] as usize);
        match (delta.adds, delta.subs) {
            (0, 0) => d.copy_from_slice(s),
            (1, 1) => update(d, s, [add(0)], [sub(0)]),
            (1, 2) => update(d, s, [add(0)], [sub(0), sub(1)]),
            (2, 2) => update(d, s, [add(0), add(1)], [sub(0), sub(1)]),
            (adds, subs) => {
                d.copy_from_slice(s);
                (0..adds as usize).for_each(|i| update_in_place(d, add(i), i16::wrapping_add));
                (0..subs as usize).for_each(|i| update_in_place(d, sub(i), i16::wrapping_sub));
            }
        }
    }
}

/// `dst = src + the add rows - the sub rows`, in one pass (wrapping).
#[inline(always)]
fn update<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    add: [&[i16]; A],
    sub: [&[i16]; S],
) {
    let n = dst.len();
    let src = &src[..n];
    let add = add.map(|r| &r[..n]);
    let sub = sub.map(|r| &r[..n]);
    for i in 0..n {
        let mut v = src[i];
        for r in &add {
            v = v.wrapping_add(r[i]);
        }
        for r in &sub {
            v = v.wrapping_sub(r[i]);
        }
        dst[i] = v;
    }
}

/// `dst = op(dst, row)` unit by unit.
#[inline(always)]
fn update_in_place(dst: &mut [i16], row: &[i16], op: fn(i16, i16) -> i16) {
    dst.iter_mut().zip(row).for_each(|(d, &r)| *d = op(*d, r));
}
