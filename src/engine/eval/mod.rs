//! Static evaluation in two passes: material first, then position.
//!
//! The first pass is the material balance (tapered piece values from the
//! board's piece counts). When it alone lies outside the search window by
//! more than `LAZY_MARGIN`, the positional pass is skipped: the design's
//! "material search, then positional second pass" in its modern form. The
//! second pass adds piece-square tables, mobility tables, pawn structure
//! (doubled, isolated, backward, connected), passed pawns (free path, safe
//! stop square, king distances), king safety (shield, storm, open files,
//! an attack of zone hits and safe checks, the king's flank: pawnless,
//! attacked, the nearest own pawn), bishop pair and bishop's pawns, a
//! bishop on a long diagonal, bishops and rooks aimed at the king's zone,
//! rooks on files or trapped, a queen out of the pawns' reach, outposts,
//! minors behind pawns and near their king, space, threats (by pawns and
//! safe pawn pushes, minors, rooks and the king, hanging pieces, squares
//! both sides fight for, safe squares that attack the queen) and tempo,
//! all blended by game phase, then scales drawish endings.
//!
//! The positional pass goes over the board twice. The first pass walks
//! every piece once, as bitboards ([`crate::chess::bitboard`]): its piece-square
//! value, its mobility and the squares it attacks, gathered per colour and
//! kind into attack maps; the second pass scores what needs both sides'
//! maps.
//!
//! Scores are from the side to move's point of view. Every weight lives in
//! `weights.rs`.
//!
//! Files: `context` (the `EvalInfo` every term shares), `pawns`
//! (structure and its cache), `pieces` (material, placement, mobility and
//! the attack maps), `threats`, `passed`, `king` (attack and shelter),
//! `scale` (drawish endings), `mopup` (against a bare king), `trace` (the
//! tuner's `Tracer` and the `eval` table), `slots` (every weight as a slot
//! of one vector), `number` (the arithmetic of the non-linear steps),
//! `relative` (squares as a colour sees them).
//! [`trace_cached`] below calls the terms in order, and `conclude` takes
//! the last steps.
//!
//! The evaluation is written once, generic over a `Tracer` that is told
//! every weight it adds and how many times (its slot in `slots`), for the
//! tuner. The evaluation used in play has the tracer that does nothing,
//! whose calls compile away (same bench node count; the bench runs within
//! 0.2% of the instructions it took before the tracer). Its non-linear
//! steps (the king's danger, the phase blend, the endgame scale, the
//! mop-up) are written once too, generic over a `Number`, for play's
//! integers and the tuner's reals.
//!
//! Only what the engine plays with is public here. The tuner reads the
//! evaluation through one interface, `tuning` (feature `lab`): the
//! traced features of a position, the evaluation as a function of its
//! weights (computed by the steps above, not re-written), and the writing
//! of `weights.rs`; the weights, slots, tracer and scale kinds stay
//! private to this folder.

#[cfg(feature = "lab")]
pub mod tuning;

mod cache;
mod context;
mod king;
mod mopup;
mod number;
mod passed;
mod pawns;
mod pieces;
mod relative;
mod scale;
mod slots;
mod threats;
mod trace;
mod weights;

pub use cache::EvalCache;
pub use pawns::PawnTable;
pub use trace::describe;

use crate::chess::board::Board;
use crate::chess::types::*;
use context::EvalInfo;
use number::Number;
use pawns::pawn_entry;
use scale::{scale_factor, SCALE_ONE};
use trace::{NoTrace, Trace, Tracer};
use weights::*;

/// The evaluation's parts, for the `eval` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    Material,
    PieceSquare,
    Mobility,
    PawnStructure,
    PassedPawns,
    KingSafety,
    Pieces,
    Threats,
    Tempo,
}

const TERMS: [Term; 9] = [
    Term::Material,
    Term::PieceSquare,
    Term::Mobility,
    Term::PawnStructure,
    Term::PassedPawns,
    Term::KingSafety,
    Term::Pieces,
    Term::Threats,
    Term::Tempo,
];

/// Middlegame/endgame blend, `phase` out of `PHASE_TOTAL`.
#[inline(always)]
fn blend(s: Score, phase: i32) -> i32 {
    taper(s.mg(), s.eg(), phase)
}

/// The middlegame and endgame values `mg` and `eg` blended by `phase`,
/// out of `PHASE_TOTAL`.
#[inline(always)]
fn taper<N: Number>(mg: N, eg: N, phase: N) -> N {
    let total = N::of(PHASE_TOTAL.into());
    (mg * phase + eg * (total - phase)) / total
}

/// Game phase from the remaining pieces: `PHASE_TOTAL` at the start, 0 with
/// kings and pawns only.
fn phase(board: &Board) -> i32 {
    let mut p = 0;
    for color in [Color::White, Color::Black] {
        for kind in [KNIGHT, BISHOP, ROOK, QUEEN] {
            p += PHASE_WEIGHT[kind_index(kind)] * board.count(color, kind) as i32;
        }
    }
    p.min(PHASE_TOTAL)
}

/// `color`'s material, tapered.
pub(super) fn material_of(board: &Board, color: Color) -> Score {
    let mut s = Score(0, 0);
    for kind in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
        s += PIECE_VALUE[kind_index(kind)] * board.count(color, kind) as i32;
    }
    s
}

/// First pass: the material balance alone, side to move's view.
pub fn material(board: &Board) -> i32 {
    let diff = material_of(board, Color::White) - material_of(board, Color::Black);
    let v = blend(diff, phase(board));
    if board.side_to_move() == Color::White {
        v
    } else {
        -v
    }
}

/// Whether this evaluation judges `board` even where a network evaluates:
/// a bare king against pieces and no pawns. How to mate there (the mop-up
/// term) and which of those endings are drawn are rules, not patterns a
/// network learns from games that seldom reach them: the first network
/// drew king, bishop and knight against king by repetition.
#[inline(always)]
pub fn judges_bare_king(board: &Board) -> bool {
    let bare = |c: Color| board.piece_count(c) == 1 && board.count(c.flip(), PAWN) == 0;
    bare(Color::White) || bare(Color::Black)
}

/// Full evaluation, side to move's view.
pub fn evaluate(board: &Board) -> i32 {
    side_to_move_view(board, trace(board).white_score)
}

/// A score from White's view as the side to move sees it.
#[inline(always)]
fn side_to_move_view(board: &Board, white_score: i32) -> i32 {
    if board.side_to_move() == Color::White {
        white_score
    } else {
        -white_score
    }
}

/// `evaluate`, with the pawn terms cached in `pawns`: compiled twice, for
/// any x86-64 and for one with the bit-counting instructions, and the
/// second taken when the CPU has them
/// ([`crate::util::cpu::has_bit_instructions`]).
#[inline]
pub fn evaluate_with(board: &Board, pawns: &mut PawnTable) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::util::cpu::has_bit_instructions() {
        // The first of the crate's `unsafe`s: calling code compiled for CPU
        // features is sound once the CPU is known to have them.
        // SAFETY: `has_bit_instructions` has checked that this CPU has every feature
        // `evaluate_with_bits` is compiled for.
        #[allow(unsafe_code)]
        return unsafe { evaluate_with_bits(board, pawns) };
    }
    evaluate_with_portable(board, pawns)
}

/// `evaluate_with` for any CPU of the target (no popcount instruction on
/// plain x86-64: the count is done in software).
pub fn evaluate_with_portable(board: &Board, pawns: &mut PawnTable) -> i32 {
    evaluate_with_body(board, pawns)
}

/// `evaluate_with` compiled for POPCNT, LZCNT and TZCNT (BMI1): the
/// evaluation's bit counts and ray scans become one instruction each.
/// Safe to declare, but a caller must know the CPU has those features
/// ([`crate::util::cpu::has_bit_instructions`]) to call it.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1")]
fn evaluate_with_bits(board: &Board, pawns: &mut PawnTable) -> i32 {
    evaluate_with_body(board, pawns)
}

#[inline(always)]
fn evaluate_with_body(board: &Board, pawns: &mut PawnTable) -> i32 {
    side_to_move_view(
        board,
        trace_cached::<_, false>(board, &mut NoTrace, Some(pawns)).white_score,
    )
}

/// Two-pass evaluation: the material pass alone when it is outside
/// `(alpha, beta)` by more than `LAZY_MARGIN`, else the full evaluation.
pub fn evaluate_lazy(board: &Board, alpha: i32, beta: i32) -> i32 {
    material_outside(board, alpha, beta).unwrap_or_else(|| evaluate(board))
}

/// The material pass, when it alone is outside `(alpha, beta)` by more than
/// `LAZY_MARGIN`.
#[inline(always)]
fn material_outside(board: &Board, alpha: i32, beta: i32) -> Option<i32> {
    let m = material(board);
    (m - LAZY_MARGIN >= beta || m + LAZY_MARGIN <= alpha).then_some(m)
}

/// `evaluate_lazy`, and whether the score is the full evaluation (true)
/// or the material pass alone (false), so that only full ones are cached.
pub fn evaluate_lazy_exact(
    board: &Board,
    alpha: i32,
    beta: i32,
    pawns: &mut PawnTable,
    evals: &mut EvalCache,
) -> (i32, bool) {
    match material_outside(board, alpha, beta) {
        Some(m) => (m, false),
        None => (evaluate_cached(board, pawns, evals), true),
    }
}

/// `evaluate_with`, looked up in `evals` first (the same value either way).
#[inline(always)]
pub fn evaluate_cached(board: &Board, pawns: &mut PawnTable, evals: &mut EvalCache) -> i32 {
    evals.get_or(board.hash(), || evaluate_with(board, pawns))
}

/// The full evaluation with every term kept apart.
fn trace(board: &Board) -> Trace {
    trace_with(board, &mut NoTrace)
}

/// The full evaluation with every term kept apart, telling `tr` each weight
/// it adds.
fn trace_with<T: Tracer>(board: &Board, tr: &mut T) -> Trace {
    trace_cached::<_, true>(board, tr, None)
}

/// `trace_with`, taking the pawn terms from `pawns` when given (and not
/// tracing): the terms in order, each colour's from its own view, over one
/// shared context.
///
/// Without `BY_TERM` (play) the terms are only summed: the trace's
/// `terms[0]` holds the sum and the others are zero.
#[inline(always)]
fn trace_cached<T: Tracer, const BY_TERM: bool>(
    board: &Board,
    tr: &mut T,
    pawns: Option<&mut PawnTable>,
) -> Trace {
    let computed;
    let entry = match pawns {
        Some(table) if !T::ACTIVE => table.get(board),
        _ => {
            computed = pawn_entry(board, tr, 0);
            &computed
        }
    };
    let mut ei = EvalInfo::new(board, entry, BY_TERM);
    // Each pass is written out for White, then Black: with the colour a
    // constant, every colour test in the terms folds away.
    first_pass(&mut ei, tr, Color::White);
    first_pass(&mut ei, tr, Color::Black);
    second_pass(&mut ei, tr, Color::White);
    second_pass(&mut ei, tr, Color::Black);
    finish(board, ei.terms, BY_TERM)
}

/// First pass, one colour: what each piece is worth and attacks.
#[inline(always)]
fn first_pass<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    pieces::material_and_pawns(ei, tr, color);
    pieces::mobility_and_placement(ei, tr, color);
}

/// Second pass, one colour: what needs both sides' attack maps.
#[inline(always)]
fn second_pass<T: Tracer>(ei: &mut EvalInfo, tr: &mut T, color: Color) {
    threats::threats(ei, tr, color);
    passed::passed_pawns(ei, tr, color);
    pieces::pair_and_tempo(ei, tr, color);
    pieces::space(ei, tr, color);
    king::king_attack(ei, tr, color);
    king::king_shelter(ei, tr, color);
}

/// White's view: the difference of the two colours' terms, blended by
/// phase and scaled.
#[inline(always)]
fn finish(board: &Board, terms: [[Score; 2]; 9], by_term: bool) -> Trace {
    let phase = phase(board);
    let mut total = Score(0, 0);
    for term in &terms[..if by_term { terms.len() } else { 1 }] {
        total += term[0] - term[1];
    }
    let end = conclude(
        total.mg(),
        total.eg(),
        phase,
        #[inline(always)]
        |strong| scale_factor(board, strong),
        #[inline(always)]
        |leader| mopup::mopup(board, leader).unwrap_or(0),
    );
    Trace {
        terms,
        phase,
        scale: end.scale,
        white_score: end.score,
    }
}

/// What the last steps give, White's view.
struct Concluded<N> {
    /// The terms blended by phase, before scaling (the tuner's model
    /// differentiates the scale by it).
    #[cfg_attr(not(feature = "lab"), allow(dead_code))]
    blended: N,
    /// The scale factor applied, out of `SCALE_ONE`.
    scale: N,
    /// The evaluation.
    score: N,
}

/// The evaluation's last steps from the sums of every term (the king's
/// danger included), White's view: the middlegame and endgame sums `mg`
/// and `eg` blended by `phase`; scaled by the factor of whichever side
/// leads (`scale_for`, White when level); then, against a bare king, the
/// leader's mop-up bonus (`mopup_for`, 0 where none applies: how to make
/// progress, outside the tuned terms). Play computes them in integers,
/// the tuner's model in reals (see [`Number`]).
#[inline(always)]
fn conclude<N: Number>(
    mg: N,
    eg: N,
    phase: N,
    scale_for: impl FnOnce(Color) -> N,
    mopup_for: impl FnOnce(Color) -> N,
) -> Concluded<N> {
    let blended = taper(mg, eg, phase);
    let strong = if blended >= N::ZERO {
        Color::White
    } else {
        Color::Black
    };
    let scale = scale_for(strong);
    let scaled = blended * scale / N::of(SCALE_ONE.into());
    let score = if scaled >= N::ZERO {
        scaled + mopup_for(Color::White)
    } else {
        scaled - mopup_for(Color::Black)
    };
    Concluded {
        blended,
        scale,
        score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scale::{scale_kind, ScaleKind};
    use slots as ix;

    #[test]
    fn pawn_table_and_both_compiled_forms_change_nothing() {
        // Walk pseudo-random games from a few positions; a 4096-slot table
        // sees hits, misses and overwritten slots along the way.
        let mut table = PawnTable::new();
        let fens = [
            crate::chess::fen::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ];
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut checked = 0;
        for fen in fens {
            for _game in 0..20 {
                let mut b = Board::from_fen(fen).unwrap();
                for _ply in 0..80 {
                    // Both compiled forms: the one this CPU takes in play
                    // and the portable one (software bit counts).
                    assert_eq!(
                        evaluate_with(&b, &mut table),
                        evaluate(&b),
                        "{}",
                        b.to_fen()
                    );
                    assert_eq!(
                        evaluate_with_portable(&b, &mut table),
                        evaluate(&b),
                        "{}",
                        b.to_fen()
                    );
                    checked += 1;
                    let mut moves = crate::chess::movegen::MoveList::new();
                    b.generate_legal(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    b.make(moves[(state % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 4000);
    }

    /// Counts White's slots minus Black's, and the safe checks.
    struct Count {
        net: Vec<i32>,
        safe_checks: [[i32; 6]; 2],
    }

    impl Tracer for Count {
        const ACTIVE: bool = true;
        fn add(&mut self, color: Color, slot: usize, count: i32) {
            self.net[slot] += if color == Color::White { count } else { -count };
        }
        fn king_attack(&mut self, color: Color, _: &[i32; 6], checks: &[i32; 6], _: bool) {
            self.safe_checks[color.index()] = *checks;
        }
    }

    fn count(fen: &str) -> Count {
        let mut c = Count {
            net: vec![0; ix::SLOTS],
            safe_checks: [[0; 6]; 2],
        };
        trace_with(&Board::from_fen(fen).unwrap(), &mut c);
        c
    }

    #[test]
    fn minor_space_and_push_terms_count_where_they_should() {
        // Nb1 behind the b2 pawn, three steps from its king.
        let c = count("4k3/8/8/8/8/8/1P6/1N2K3 w - - 0 1");
        assert_eq!(c.net[ix::MINOR_BEHIND_PAWN], 1);
        assert_eq!(c.net[ix::KING_PROTECTOR], 3);
        // d3-d4 would attack the knight on e5, unless a pawn on c5 guards d4.
        let c = count("4k3/8/8/4n3/8/3P4/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::PAWN_PUSH_THREAT], 1);
        let c = count("4k3/8/8/2p1n3/8/3P4/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::PAWN_PUSH_THREAT], 0);
        // The double step d2-d4 counts too.
        let c = count("4k3/8/8/4n3/8/8/3P4/4K3 w - - 0 1");
        assert_eq!(c.net[ix::PAWN_PUSH_THREAT], 1);
        // Space: 11 safe squares from c2 to f4 besides the d4 pawn, d2 and
        // d3 behind it counted twice, times 4 pieces, over 4.
        let c = count("4k3/8/8/8/3P4/8/8/RN2KB1R w - - 0 1");
        assert_eq!(c.net[ix::SPACE], 13);
        // The start position: the same for both sides.
        let c = count("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(c.net[ix::SPACE], 0);
        assert_eq!(c.net[ix::MINOR_BEHIND_PAWN], 0);
    }

    #[test]
    fn piece_terms_of_the_fourth_fit_count_where_they_should() {
        // Bb2 sees d4 and e5 through an empty long diagonal; a pawn on c3
        // closes it.
        let c = count("4k3/8/8/8/8/8/1B6/4K3 w - - 0 1");
        assert_eq!(c.net[ix::LONG_DIAGONAL_BISHOP], 1);
        let c = count("4k3/8/8/8/8/2P5/1B6/4K3 w - - 0 1");
        assert_eq!(c.net[ix::LONG_DIAGONAL_BISHOP], 0);
        // Ba3 is stopped by the knight on c5 but x-rays e7 and f8.
        let c = count("4k3/8/8/2n5/8/B7/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::BISHOP_ON_KING_RING], 1);
        // Re2 behind its own e4 pawn stands on the king's file.
        let c = count("4k3/8/8/8/4P3/8/4R3/6K1 w - - 0 1");
        assert_eq!(c.net[ix::ROOK_ON_KING_RING], 1);
        assert_eq!(c.net[ix::TRAPPED_ROOK], 0);
        // Rh1 shut in by Kf1 and its pawns: twice without castling, once
        // while the king may still castle.
        let c = count("4k3/8/8/8/8/8/6PP/5K1R w - - 0 1");
        assert_eq!(c.net[ix::TRAPPED_ROOK], 2);
        let c = count("4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1");
        assert_eq!(c.net[ix::TRAPPED_ROOK], 1);
        // Rd1 on the file of the queen on d8.
        let c = count("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1");
        assert_eq!(c.net[ix::ROOK_ON_QUEEN_FILE], 1);
        // Qd6 cannot be chased by a pawn, unless one stands on c7.
        let c = count("4k3/8/3Q4/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::QUEEN_INFILTRATION], 1);
        let c = count("4k3/2p5/3Q4/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::QUEEN_INFILTRATION], 0);
    }

    #[test]
    fn threat_and_flank_terms_of_the_fourth_fit_count_where_they_should() {
        // Na1 could go to b3 or c2 and attack the queen on d4.
        let c = count("4k3/8/8/8/3q4/8/8/N3K3 w - - 0 1");
        assert_eq!(c.net[ix::KNIGHT_ON_QUEEN], 2);
        // Ra1 and Ke1 both hold d1, from where a rook attacks Qd8; a8 is
        // held once only.
        let c = count("3qk3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(c.net[ix::SLIDER_ON_QUEEN], 1);
        // Kings in opposition share d5, e5 and f5; the knight on c3 holds
        // d5 strongly for White, so Black restricts two squares only.
        let c = count("8/8/4k3/8/4K3/2N5/8/8 w - - 0 1");
        assert_eq!(c.net[ix::RESTRICTED], 1);
        // White's king on g1 has no pawn on files e-h; Black's on e8 has
        // c7 and d7 on its flank.
        let c = count("4k3/pppp4/8/8/8/8/8/6K1 w - - 0 1");
        assert_eq!(c.net[ix::PAWNLESS_FLANK], 1);
        // Rh8 hits h1-h5 on the flank of Kg1, in White's camp.
        let c = count("k6r/8/8/8/8/8/8/6K1 w - - 0 1");
        assert_eq!(c.net[ix::FLANK_ATTACK], 5);
        // Ke1 is four steps from a4; Ke8 stands next to e7.
        let c = count("4k3/4p3/8/8/P7/8/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::KING_PAWN_DISTANCE], 3);
    }

    #[test]
    fn new_terms_count_where_they_should() {
        // Ne3 attacks the undefended rook on d5.
        let c = count("4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::THREAT_BY_MINOR + kind_index(ROOK)], 1);
        assert_eq!(c.net[ix::HANGING], 1);
        assert_eq!(c.net[ix::THREAT_BY_ROOK + kind_index(KNIGHT)], 0);
        // A phalanx on the fourth rank; a pawn defended on the fourth.
        let c = count("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::CONNECTED_PAWN + 3], 2);
        let c = count("4k3/8/8/8/3P4/2P5/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::CONNECTED_PAWN + 3], 1);
        assert_eq!(c.net[ix::CONNECTED_PAWN + 2], 0);
        // White's king on a file with only an enemy pawn.
        let c = count("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::KING_HALF_OPEN_FILE], 1);
        assert_eq!(c.net[ix::KING_OPEN_FILE], 0);
        // A passed pawn whose stop square the enemy king does or does not
        // attack.
        let c = count("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::PASSED_SAFE + 4], 1);
        let c = count("8/4k3/8/3P4/8/8/8/4K3 w - - 0 1");
        assert_eq!(c.net[ix::PASSED_SAFE + 4], 0);
        // Two of the pawns stand on the dark squares of the c1 bishop.
        let c = count("4k3/8/8/8/8/8/PPPP4/2B1K3 w - - 0 1");
        assert_eq!(c.net[ix::BISHOP_PAWNS], 2);
        // Queen and knight hit the king's zone, so the attack is scored:
        // Re1-e8 is a safe check; the queen's checks on f7 and h7 are not
        // safe (the king guards them).
        let c = count("6k1/5ppp/8/6NQ/8/8/6PP/4R1K1 w - - 0 1");
        assert_eq!(c.safe_checks[0], [0, 0, 0, 1, 0, 0]);
        // With the king on f8, e8 is guarded too.
        let c = count("5k2/5ppp/8/6NQ/8/8/6PP/4R1K1 w - - 0 1");
        assert_eq!(c.safe_checks[0][kind_index(ROOK)], 0);
    }

    #[test]
    fn a_cornered_bishop_counts_in_chess960_only() {
        // White's bishop on a1 behind b2 (b3 blocked: twice); Black's on h8
        // with g7 empty (free); Black's a8 bishop behind b7 (once).
        let fen = "b3k2b/1p6/8/8/8/1n6/1P6/B3K3 w - - 0 1";
        let counted = |chess960: bool| {
            let mut board = Board::from_fen(fen).unwrap();
            board.set_chess960(chess960);
            let mut c = Count {
                net: vec![0; ix::SLOTS],
                safe_checks: [[0; 6]; 2],
            };
            trace_with(&board, &mut c);
            c.net[ix::CORNERED_BISHOP]
        };
        assert_eq!(counted(true), 2 - 1);
        assert_eq!(counted(false), 0);
    }

    #[test]
    fn start_position_is_level_but_for_tempo() {
        let b = Board::startpos();
        let e = evaluate(&b);
        assert!(e > 0 && e < 30, "{e}");
        assert_eq!(material(&b), 0);
    }

    #[test]
    fn extra_queen_is_winning() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&b) > 800);
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&b) < -800);
    }

    #[test]
    fn drawish_endings_by_fixed_piece_values() {
        let cases = [
            // A rook against a knight: drawish.
            ("4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1", ScaleKind::Drawish),
            // A queen against a rook, a rook alone: winning material.
            ("4k3/8/8/3r4/8/8/8/Q3K3 w - - 0 1", ScaleKind::Full),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ScaleKind::Full),
            // Pawns on the stronger side: never drawish by this rule.
            ("4k3/8/8/3n4/8/8/4P3/R3K3 w - - 0 1", ScaleKind::Full),
        ];
        for (fen, expected) in cases {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(scale_kind(&board, Color::White), expected, "{fen}");
        }
    }

    #[test]
    fn insufficient_material_is_zero() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").unwrap();
        assert_eq!(evaluate(&b), 0);
    }

    #[test]
    fn lazy_pass_returns_material_far_outside_the_window() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1").unwrap();
        assert_eq!(evaluate_lazy(&b, -50, 50), material(&b));
        let b = Board::startpos();
        assert_eq!(evaluate_lazy(&b, -50, 50), evaluate(&b));
    }

    #[test]
    fn describe_lists_every_term() {
        let text = describe(&Board::startpos());
        for term in TERMS {
            assert!(text.contains(&format!("{term:?}")));
        }
    }
}
