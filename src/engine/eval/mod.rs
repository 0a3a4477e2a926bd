//! Static evaluation in two passes: material first, then position.
//!
//! The first pass is the material balance (tapered piece values from the
//! board's piece counts). When it alone lies outside the search window by
//! more than `LAZY_MARGIN`, the positional pass is skipped: the design's
//! "material search, then positional second pass" in its modern form. The
//! second pass adds piece-square tables, mobility tables, pawn structure
//! (doubled, isolated, backward, connected), passed pawns (free path, safe
//! stop square, king distances), king safety (shield, storm, open files,
//! an attack of zone hits and safe checks), bishop pair and bishop's
//! pawns, rooks on files, outposts, threats (by pawns, minors, rooks and
//! the king, hanging pieces) and tempo, all blended by game phase, then
//! scales drawish endings.
//!
//! The positional pass goes over the board twice. The first pass walks
//! every piece once, as bitboards ([`crate::chess::bitboard`]): its piece-square
//! value, its mobility and the squares it attacks, gathered per colour and
//! kind into attack maps; the second pass scores what needs both sides'
//! maps.
//!
//! Scores are from the side to move's point of view. Every weight lives in
//! [`crate::engine::eval::weights`].
//!
//! The evaluation is written once, generic over a [`Tracer`] that is told
//! every weight it adds and how many times (its slot in [`crate::engine::eval::params`]),
//! for the tuner. The evaluation used in play has the tracer that does
//! nothing, whose calls compile away (same bench node count; the bench runs
//! within 0.2% of the instructions it took before the tracer).

pub mod params;
pub mod weights;

use crate::chess::bitboard::*;
use crate::chess::board::{distance, Board};
use crate::chess::types::*;
use crate::engine::eval::params as ix;
use crate::engine::eval::weights::*;

/// The evaluation's parts, for the `eval` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
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

pub const TERMS: [Term; 9] = [
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

/// Per-term, per-colour scores, the phase and the final result.
#[derive(Clone, Debug)]
pub struct Trace {
    /// `terms[term][colour]`, from that colour's point of view.
    pub terms: [[Score; 2]; 9],
    pub phase: i32,
    /// Scale factor applied to the blended score, out of 64.
    pub scale: i32,
    /// Final score, White's point of view.
    pub white_score: i32,
}

/// Told what the evaluation adds, term by term, for the tuner. Counts are
/// for `color`, whose terms count positively from its own point of view.
pub trait Tracer {
    /// False for the play-time evaluation: the tracing code compiles away.
    const ACTIVE: bool;
    /// `color` gets the weight of `slot` (see [`crate::engine::eval::params`]) `count`
    /// times.
    fn add(&mut self, color: Color, slot: usize, count: i32);
    /// `color`'s attack on the enemy king: king-zone squares hit by each
    /// kind of attacker (`zone_hits[kind_index]`), safe checks by kind
    /// (`safe_checks[kind_index]`, counted only when scored), and whether
    /// the attack is scored at all (two attackers and a queen).
    fn king_attack(
        &mut self,
        color: Color,
        zone_hits: &[i32; 6],
        safe_checks: &[i32; 6],
        scored: bool,
    );
}

/// The tracer of the evaluation in play: does nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn add(&mut self, _: Color, _: usize, _: i32) {}
    #[inline(always)]
    fn king_attack(&mut self, _: Color, _: &[i32; 6], _: &[i32; 6], _: bool) {}
}

/// Middlegame/endgame blend, `phase` out of `PHASE_TOTAL`.
#[inline(always)]
fn blend(s: Score, phase: i32) -> i32 {
    (s.0 * phase + s.1 * (PHASE_TOTAL - phase)) / PHASE_TOTAL
}

/// Game phase from the remaining pieces: `PHASE_TOTAL` at the start, 0 with
/// kings and pawns only.
pub fn phase(board: &Board) -> i32 {
    let mut p = 0;
    for color in [Color::White, Color::Black] {
        for kind in [KNIGHT, BISHOP, ROOK, QUEEN] {
            p += PHASE_WEIGHT[kind_index(kind)] * board.count(color, kind) as i32;
        }
    }
    p.min(PHASE_TOTAL)
}

fn material_of(board: &Board, color: Color) -> Score {
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

/// `evaluate`, with the pawn terms cached in `pawns`.
pub fn evaluate_with(board: &Board, pawns: &mut PawnTable) -> i32 {
    side_to_move_view(
        board,
        trace_cached(board, &mut NoTrace, Some(pawns)).white_score,
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
) -> (i32, bool) {
    match material_outside(board, alpha, beta) {
        Some(m) => (m, false),
        None => (evaluate_with(board, pawns), true),
    }
}

/// Pawn facts per colour and file (files padded by one on each side so
/// neighbours of a and h need no test).
#[derive(Clone, Copy)]
struct PawnFiles {
    count: [[u8; 10]; 2],
    /// Lowest and highest absolute rank of the colour's pawns per file
    /// (8 / -1 when none).
    lowest: [[i8; 10]; 2],
    highest: [[i8; 10]; 2],
}

impl PawnFiles {
    /// No pawns at all.
    const EMPTY: PawnFiles = PawnFiles {
        count: [[0; 10]; 2],
        lowest: [[8; 10]; 2],
        highest: [[-1; 10]; 2],
    };

    fn new(board: &Board) -> PawnFiles {
        let mut pf = PawnFiles::EMPTY;
        for color in [Color::White, Color::Black] {
            let c = color.index();
            for &s in board.squares(color.piece(PAWN)) {
                let (f, r) = (file_of(s as Square) + 1, rank_of(s as Square) as i32);
                pf.count[c][f] += 1;
                pf.lowest[c][f] = pf.lowest[c][f].min(r as i8);
                pf.highest[c][f] = pf.highest[c][f].max(r as i8);
            }
        }
        pf
    }

    /// No enemy pawn ahead of (`file`+1 padded, `rank`) on this file or its
    /// neighbours, from `color`'s point of view.
    fn passed(&self, color: Color, padded_file: usize, rank: i32) -> bool {
        let them = color.flip().index();
        (padded_file - 1..=padded_file + 1).all(|f| match color {
            Color::White => self.highest[them][f] as i32 <= rank,
            Color::Black => self.lowest[them][f] as i32 >= rank,
        })
    }

    /// No enemy pawn on the neighbouring files can ever attack this square.
    fn safe_from_pawns(&self, color: Color, padded_file: usize, rank: i32) -> bool {
        let them = color.flip().index();
        [padded_file - 1, padded_file + 1]
            .iter()
            .all(|&f| match color {
                Color::White => self.highest[them][f] as i32 <= rank,
                Color::Black => self.lowest[them][f] as i32 >= rank,
            })
    }
}

/// What the pawns alone decide, computed once per pawn structure.
#[derive(Clone, Copy)]
struct PawnEntry {
    /// `Board::pawn_key` of the structure (0: an empty slot).
    key: u64,
    files: PawnFiles,
    /// Pawn piece-square terms (advance, centre) per colour.
    psq: [Score; 2],
    /// Isolated, backward and doubled pawns per colour.
    structure: [Score; 2],
    /// The front-most passed pawns per colour.
    passed: [Bitboard; 2],
    /// The pawns per colour.
    pawns: [Bitboard; 2],
    /// Squares attacked by a pawn of each colour, and by two.
    pawn_attacks: [Bitboard; 2],
    pawn_attacks_twice: [Bitboard; 2],
}

/// Entries in a [`PawnTable`] (a power of two).
const PAWN_TABLE_ENTRIES: usize = 4096;

/// A cache of pawn-structure evaluations, one per search thread. It only
/// saves work: the evaluation is the same with or without it.
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

impl PawnTable {
    pub fn new() -> PawnTable {
        let empty = PawnEntry {
            key: 0,
            files: PawnFiles::EMPTY,
            psq: [Score(0, 0); 2],
            structure: [Score(0, 0); 2],
            passed: [0; 2],
            pawns: [0; 2],
            pawn_attacks: [0; 2],
            pawn_attacks_twice: [0; 2],
        };
        PawnTable {
            entries: vec![empty; PAWN_TABLE_ENTRIES],
        }
    }

    /// The entry of `board`'s pawns, computed now if not cached.
    fn get(&mut self, board: &Board) -> &PawnEntry {
        let key = board.pawn_key();
        let slot = &mut self.entries[key as usize & (PAWN_TABLE_ENTRIES - 1)];
        if slot.key != key {
            *slot = pawn_entry(board, &mut NoTrace, key);
        }
        slot
    }
}

/// The pawn-only terms of `board`, telling `tr` their weights.
fn pawn_entry<T: Tracer>(board: &Board, tr: &mut T, key: u64) -> PawnEntry {
    let pf = PawnFiles::new(board);
    let mut psq = [Score(0, 0); 2];
    let mut structure = [Score(0, 0); 2];
    let mut passed = [0u64; 2];
    let mut pawns = [0u64; 2];
    let mut pawn_attacks_by = [0u64; 2];
    let mut pawn_attacks_twice = [0u64; 2];
    for color in [Color::White, Color::Black] {
        let c = color.index();
        let them = color.flip();
        for &s in board.squares(color.piece(PAWN)) {
            pawns[c] |= bit(s as Square);
        }
        let (east, west) = pawn_attacks_each_way(pawns[c], color);
        pawn_attacks_by[c] = east | west;
        pawn_attacks_twice[c] = east & west;
        // Connected: a pawn beside it on the same rank, or one defending it.
        let own = pawns[c];
        let beside = ((own & !FILE_H) << 1) | ((own & !FILE_A) >> 1);
        for at in squares_of(own & (beside | pawn_attacks_by[c])) {
            let rr = rel_rank(color, from64(at));
            structure[c] += CONNECTED_PAWN[rr];
            tr.add(color, ix::CONNECTED_PAWN + rr, 1);
        }
        for &s in board.squares(color.piece(PAWN)) {
            let s = s as Square;
            let pfile = file_of(s) + 1;
            let at = pst_index(color, s);
            psq[c] += PAWN_PST[at];
            tr.add(color, ix::PAWN_PST + at, 1);
            if pf.count[c][pfile - 1] == 0 && pf.count[c][pfile + 1] == 0 {
                structure[c] += ISOLATED_PAWN;
                tr.add(color, ix::ISOLATED_PAWN, 1);
            } else {
                // Backward: no own pawn beside or behind on the neighbouring
                // files, and the square in front is guarded by an enemy pawn.
                let r = rank_of(s) as i32;
                let supported_later = match color {
                    Color::White => {
                        pf.lowest[c][pfile - 1] as i32 <= r || pf.lowest[c][pfile + 1] as i32 <= r
                    }
                    Color::Black => {
                        pf.highest[c][pfile - 1] as i32 >= r || pf.highest[c][pfile + 1] as i32 >= r
                    }
                };
                let front = (s as isize + color.forward()) as Square;
                if !supported_later && pawn_attacks(board, front, them) {
                    structure[c] += BACKWARD_PAWN;
                    tr.add(color, ix::BACKWARD_PAWN, 1);
                }
            }
            // Only the most advanced pawn of a doubled pair is passed.
            let front_most = match color {
                Color::White => pf.highest[c][pfile] as i32 == rank_of(s) as i32,
                Color::Black => pf.lowest[c][pfile] as i32 == rank_of(s) as i32,
            };
            if front_most && pf.passed(color, pfile, rank_of(s) as i32) {
                passed[c] |= bit(s);
            }
        }
        for pfile in 1..=8 {
            if pf.count[c][pfile] > 1 {
                let extra = pf.count[c][pfile] as i32 - 1;
                structure[c] += DOUBLED_PAWN * extra;
                tr.add(color, ix::DOUBLED_PAWN, extra);
            }
        }
    }
    PawnEntry {
        key,
        files: pf,
        psq,
        structure,
        passed,
        pawns,
        pawn_attacks: pawn_attacks_by,
        pawn_attacks_twice,
    }
}

/// Relative rank (0 = own back rank).
#[inline(always)]
fn rel_rank(color: Color, s: Square) -> usize {
    match color {
        Color::White => rank_of(s),
        Color::Black => 7 - rank_of(s),
    }
}

/// A square's index in the piece-square tables: as `color` sees it (a1 =
/// 0 .. h8 = 63 from White's side, mirrored by rank for Black).
#[inline(always)]
fn pst_index(color: Color, s: Square) -> usize {
    match color {
        Color::White => index64(s),
        Color::Black => index64(s) ^ 56,
    }
}

/// True when `s` is attacked by a pawn of `by`.
#[inline(always)]
fn pawn_attacks(board: &Board, s: Square, by: Color) -> bool {
    let back = -by.forward();
    let pawn = by.piece(PAWN);
    board.at((s as isize + back + EAST) as Square) == pawn
        || board.at((s as isize + back + WEST) as Square) == pawn
}

/// The full evaluation with every term kept apart.
pub fn trace(board: &Board) -> Trace {
    trace_with(board, &mut NoTrace)
}

/// One side's attack on the enemy king.
#[derive(Clone, Copy, Default)]
struct KingAttack {
    /// Pieces that hit the king's zone (the king's square and its
    /// neighbours).
    attackers: i32,
    /// Zone squares hit, by kind index of the attacker (a square hit by two
    /// pieces counts twice).
    zone_hits: [i32; 6],
}

/// Middlegame penalty of an attack on the king worth `units`.
#[inline(always)]
pub fn king_danger(units: i32) -> i32 {
    (units as i64 * units as i64 * KING_ATTACK_SCALE as i64 / KING_ATTACK_DIVISOR)
        .min(KING_ATTACK_CAP as i64) as i32
}

/// The full evaluation with every term kept apart, telling `tr` each weight
/// it adds.
pub fn trace_with<T: Tracer>(board: &Board, tr: &mut T) -> Trace {
    trace_cached(board, tr, None)
}

/// `trace_with`, taking the pawn terms from `pawns` when given (and not
/// tracing).
fn trace_cached<T: Tracer>(board: &Board, tr: &mut T, pawns: Option<&mut PawnTable>) -> Trace {
    let mut terms = [[Score(0, 0); 2]; 9];
    let phase = phase(board);
    let computed;
    let entry = match pawns {
        Some(table) if !T::ACTIVE => table.get(board),
        _ => {
            computed = pawn_entry(board, tr, 0);
            &computed
        }
    };
    let pf = &entry.files;

    // Where the pieces stand, by colour and kind index.
    let mut pieces = [[0u64; 6]; 2];
    let mut occupied_by = [0u64; 2];
    for color in [Color::White, Color::Black] {
        let c = color.index();
        pieces[c][kind_index(PAWN)] = entry.pawns[c];
        for kind in [KNIGHT, BISHOP, ROOK, QUEEN, KING] {
            let mut set = 0;
            for &s in board.squares(color.piece(kind)) {
                set |= bit(s as Square);
            }
            pieces[c][kind_index(kind)] = set;
        }
        occupied_by[c] = pieces[c].iter().fold(0, |all, &set| all | set);
    }
    let occupied = occupied_by[0] | occupied_by[1];

    // First pass, both colours: material, piece-square values, mobility
    // and what each kind attacks.
    let mut attacks = [[0u64; 6]; 2];
    let mut king_attack = [KingAttack::default(); 2];
    for color in [Color::White, Color::Black] {
        let c = color.index();
        let them = color.flip();
        let mut t = |term: Term, s: Score| terms[term as usize][c] += s;

        t(Term::Material, material_of(board, color));
        if T::ACTIVE {
            for kind in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
                let n = board.count(color, kind) as i32;
                tr.add(color, ix::PIECE_VALUE + kind_index(kind), n);
            }
        }
        t(Term::PieceSquare, entry.psq[c]);
        t(Term::PawnStructure, entry.structure[c]);

        // Squares a piece may go to and count for its mobility: not held
        // by an own piece, not attacked by an enemy pawn.
        let mobility_area = !occupied_by[c] & !entry.pawn_attacks[them.index()];
        let enemy_king = index64(board.king_square(them));
        let zone = KING_ATTACKS[enemy_king] | 1u64 << enemy_king;
        let attack = &mut king_attack[c];
        attacks[c][kind_index(PAWN)] = entry.pawn_attacks[c];
        for kind in [KNIGHT, BISHOP, ROOK, QUEEN] {
            let ki = kind_index(kind);
            let (pst, pst_slot, mobility_table, mobility_slot): (&[Score; 64], _, &[Score], _) =
                match kind {
                    KNIGHT => (
                        &KNIGHT_PST,
                        ix::KNIGHT_PST,
                        &MOBILITY_KNIGHT,
                        ix::MOBILITY_KNIGHT,
                    ),
                    BISHOP => (
                        &BISHOP_PST,
                        ix::BISHOP_PST,
                        &MOBILITY_BISHOP,
                        ix::MOBILITY_BISHOP,
                    ),
                    ROOK => (&ROOK_PST, ix::ROOK_PST, &MOBILITY_ROOK, ix::MOBILITY_ROOK),
                    _ => (
                        &QUEEN_PST,
                        ix::QUEEN_PST,
                        &MOBILITY_QUEEN,
                        ix::MOBILITY_QUEEN,
                    ),
                };
            for &s in board.squares(color.piece(kind)) {
                let s = s as Square;
                let at = pst_index(color, s);
                t(Term::PieceSquare, pst[at]);
                tr.add(color, pst_slot + at, 1);

                let from = index64(s);
                let reach = match kind {
                    KNIGHT => KNIGHT_ATTACKS[from],
                    BISHOP => bishop_attacks(from, occupied),
                    ROOK => rook_attacks(from, occupied),
                    _ => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
                };
                attacks[c][ki] |= reach;
                let mobility = (reach & mobility_area).count_ones() as usize;
                t(Term::Mobility, mobility_table[mobility]);
                tr.add(color, mobility_slot + mobility, 1);
                let zone_hits = count_sparse(reach & zone);
                if zone_hits > 0 {
                    attack.attackers += 1;
                    attack.zone_hits[ki] += zone_hits;
                }

                if (kind == KNIGHT || kind == BISHOP)
                    && (3..=5).contains(&rel_rank(color, s))
                    && entry.pawn_attacks[c] & bit(s) != 0
                    && pf.safe_from_pawns(color, file_of(s) + 1, rank_of(s) as i32)
                {
                    if kind == KNIGHT {
                        t(Term::Pieces, KNIGHT_OUTPOST);
                        tr.add(color, ix::KNIGHT_OUTPOST, 1);
                    } else {
                        t(Term::Pieces, BISHOP_OUTPOST);
                        tr.add(color, ix::BISHOP_OUTPOST, 1);
                    }
                }
                match kind {
                    BISHOP => {
                        let shade = if bit(s) & DARK_SQUARES != 0 {
                            DARK_SQUARES
                        } else {
                            LIGHT_SQUARES
                        };
                        let n = count_sparse(entry.pawns[c] & shade);
                        t(Term::Pieces, BISHOP_PAWNS * n);
                        tr.add(color, ix::BISHOP_PAWNS, n);
                    }
                    ROOK => {
                        let pfile = file_of(s) + 1;
                        if pf.count[c][pfile] == 0 {
                            if pf.count[them.index()][pfile] == 0 {
                                t(Term::Pieces, ROOK_OPEN_FILE);
                                tr.add(color, ix::ROOK_OPEN_FILE, 1);
                            } else {
                                t(Term::Pieces, ROOK_HALF_OPEN_FILE);
                                tr.add(color, ix::ROOK_HALF_OPEN_FILE, 1);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        attacks[c][kind_index(KING)] = KING_ATTACKS[index64(board.king_square(color))];
    }
    let all_attacks = attacks.map(|by_kind| by_kind.iter().fold(0, |all, &set| all | set));

    // Second pass, both colours: what needs both sides' attacks.
    for color in [Color::White, Color::Black] {
        let c = color.index();
        let them = color.flip();
        let enemy_king = board.king_square(them);
        let own_king = board.king_square(color);
        let mut t = |term: Term, s: Score| terms[term as usize][c] += s;

        // Pawns attacking enemy pieces (a piece attacked by two pawns
        // counts twice).
        let targets = occupied_by[them.index()]
            & !pieces[them.index()][kind_index(PAWN)]
            & !pieces[them.index()][kind_index(KING)];
        let pawn_threats = count_sparse(entry.pawn_attacks[c] & targets)
            + count_sparse(entry.pawn_attacks_twice[c] & targets);
        t(Term::Threats, PAWN_THREAT * pawn_threats);
        tr.add(color, ix::PAWN_THREAT, pawn_threats);

        // Pieces attacked by our minors and rooks, by the victim's kind:
        // every piece but the king, pawns only when no pawn defends them.
        let theirs = &pieces[them.index()];
        let defended = all_attacks[them.index()];
        let victims = (occupied_by[them.index()] & !theirs[kind_index(PAWN)])
            | (theirs[kind_index(PAWN)] & !entry.pawn_attacks[them.index()]);
        let ours = &attacks[c];
        let by_minor = (ours[kind_index(KNIGHT)] | ours[kind_index(BISHOP)]) & victims;
        let by_rook = ours[kind_index(ROOK)] & victims;
        if by_minor | by_rook != 0 {
            for victim in 0..kind_index(KING) {
                let n = count_sparse(by_minor & theirs[victim]);
                t(Term::Threats, THREAT_BY_MINOR[victim] * n);
                tr.add(color, ix::THREAT_BY_MINOR + victim, n);
                let n = count_sparse(by_rook & theirs[victim]);
                t(Term::Threats, THREAT_BY_ROOK[victim] * n);
                tr.add(color, ix::THREAT_BY_ROOK + victim, n);
            }
        }
        let undefended = occupied_by[them.index()] & !theirs[kind_index(KING)] & !defended;
        let n = count_sparse(ours[kind_index(KING)] & undefended);
        t(Term::Threats, THREAT_BY_KING * n);
        tr.add(color, ix::THREAT_BY_KING, n);
        let n = count_sparse(all_attacks[c] & undefended & !theirs[kind_index(PAWN)]);
        t(Term::Threats, HANGING * n);
        tr.add(color, ix::HANGING, n);

        // Passed pawns.
        for at in squares_of(entry.passed[c]) {
            let s = from64(at);
            let rr = rel_rank(color, s);
            let mut bonus = PASSED_PAWN[rr];
            tr.add(color, ix::PASSED_PAWN + rr, 1);
            let mut path = (s as isize + color.forward()) as Square;
            let mut free = true;
            while on_board(path) {
                if board.at(path) != EMPTY {
                    free = false;
                    break;
                }
                path = (path as isize + color.forward()) as Square;
            }
            if free {
                bonus += PASSED_FREE[rr];
                tr.add(color, ix::PASSED_FREE + rr, 1);
            }
            let stop = (s as isize + color.forward()) as Square;
            if on_board(stop) && all_attacks[them.index()] & bit(stop) == 0 {
                bonus += PASSED_SAFE[rr];
                tr.add(color, ix::PASSED_SAFE + rr, 1);
            }
            if on_board(stop) && rr >= 3 {
                let weight = rr as i32 - 2;
                let theirs = distance(stop, enemy_king) * weight;
                let ours = distance(stop, own_king) * weight;
                bonus += PASSED_KING_DISTANCE_THEIRS * theirs;
                bonus += PASSED_KING_DISTANCE_OURS * ours;
                tr.add(color, ix::PASSED_KING_DISTANCE_THEIRS, theirs);
                tr.add(color, ix::PASSED_KING_DISTANCE_OURS, ours);
            }
            t(Term::PassedPawns, bonus);
        }

        if board.count(color, BISHOP) >= 2 {
            t(Term::Pieces, BISHOP_PAIR);
            tr.add(color, ix::BISHOP_PAIR, 1);
        }

        // Our attack on their king, scored as their danger: counted for us.
        // With two attackers in the zone and a queen, the zone hits and the
        // safe checks add up to the attack's units.
        let attack = &king_attack[c];
        let scored = attack.attackers >= 2 && board.count(color, QUEEN) > 0;
        let mut safe_checks = [0i32; 6];
        if scored {
            let king_at = index64(enemy_king);
            let diagonals = bishop_attacks(king_at, occupied);
            let lines = rook_attacks(king_at, occupied);
            let safe = !occupied_by[c] & !all_attacks[them.index()];
            let ours = &attacks[c];
            for (kind, checking) in [
                (KNIGHT, KNIGHT_ATTACKS[king_at]),
                (BISHOP, diagonals),
                (ROOK, lines),
                (QUEEN, diagonals | lines),
            ] {
                let k = kind_index(kind);
                safe_checks[k] = count_sparse(checking & ours[k] & safe);
            }
            let units: i32 = (0..6)
                .map(|k| {
                    attack.zone_hits[k] * KING_ATTACK_UNITS[k]
                        + safe_checks[k] * KING_SAFE_CHECK_UNITS[k]
                })
                .sum();
            t(Term::KingSafety, Score(king_danger(units), 0));
        }
        tr.king_attack(color, &attack.zone_hits, &safe_checks, scored);

        // Own king: placement and pawn shield.
        let kr = rel_rank(color, own_king);
        let kf = file_of(own_king);
        let at = pst_index(color, own_king);
        t(Term::PieceSquare, KING_PST[at]);
        tr.add(color, ix::KING_PST + at, 1);
        if pf.count[c][kf + 1] == 0 {
            if pf.count[them.index()][kf + 1] == 0 {
                t(Term::KingSafety, KING_OPEN_FILE);
                tr.add(color, ix::KING_OPEN_FILE, 1);
            } else {
                t(Term::KingSafety, KING_HALF_OPEN_FILE);
                tr.add(color, ix::KING_HALF_OPEN_FILE, 1);
            }
        }
        if kr <= 1 {
            let own_pawn = color.piece(PAWN);
            let enemy_pawn = them.piece(PAWN);
            for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
                let at = |ahead: usize| {
                    let r = kr + ahead;
                    if r > 7 {
                        return EMPTY;
                    }
                    let rank = if color == Color::White { r } else { 7 - r };
                    board.at(square(f, rank))
                };
                if at(1) == own_pawn {
                    t(Term::KingSafety, SHIELD_NEAR);
                    tr.add(color, ix::SHIELD_NEAR, 1);
                } else if at(2) == own_pawn {
                    t(Term::KingSafety, SHIELD_FAR);
                    tr.add(color, ix::SHIELD_FAR, 1);
                } else {
                    t(Term::KingSafety, SHIELD_MISSING);
                    tr.add(color, ix::SHIELD_MISSING, 1);
                }
                if at(2) == enemy_pawn || at(3) == enemy_pawn {
                    t(Term::KingSafety, PAWN_STORM);
                    tr.add(color, ix::PAWN_STORM, 1);
                }
            }
        }

        if board.side_to_move() == color {
            t(Term::Tempo, TEMPO);
            tr.add(color, ix::TEMPO, 1);
        }
    }

    // White's view: the difference of the two colours' terms.
    let mut total = Score(0, 0);
    for term in &terms {
        total += term[0] - term[1];
    }
    let mut white_score = blend(total, phase);
    let scale = scale_factor(board, white_score);
    white_score = white_score * scale / 64;
    Trace {
        terms,
        phase,
        scale,
        white_score,
    }
}

/// Which scale factor applies to a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleKind {
    /// Neither side can mate: 0.
    Dead,
    /// Pawnless, with too small a material edge: `DRAWISH_SCALE`.
    Drawish,
    /// Opposite-coloured bishops and pawns: `OPPOSITE_BISHOPS_SCALE`.
    OppositeBishops,
    /// Everything else: 64.
    Full,
}

/// How much of the score the stronger side can hope to realise, out of 64.
#[inline(always)]
fn scale_factor(board: &Board, white_score: i32) -> i32 {
    let strong = if white_score >= 0 {
        Color::White
    } else {
        Color::Black
    };
    match scale_kind(board, strong) {
        ScaleKind::Dead => 0,
        ScaleKind::Drawish => DRAWISH_SCALE,
        ScaleKind::OppositeBishops => OPPOSITE_BISHOPS_SCALE,
        ScaleKind::Full => 64,
    }
}

/// The scale factor that applies when `strong` is ahead (White when the
/// score is 0).
#[inline(always)]
pub fn scale_kind(board: &Board, strong: Color) -> ScaleKind {
    if board.insufficient_material() {
        return ScaleKind::Dead;
    }
    let weak = strong.flip();
    let non_pawn = |c: Color| -> i32 {
        [KNIGHT, BISHOP, ROOK, QUEEN]
            .iter()
            .map(|&k| DRAWISH_PIECE_VALUE[kind_index(k)] * board.count(c, k) as i32)
            .sum()
    };
    if board.count(strong, PAWN) == 0 && non_pawn(strong) - non_pawn(weak) <= DRAWISH_MATERIAL_EDGE
    {
        return ScaleKind::Drawish;
    }
    let only_bishop = |c: Color| {
        board.count(c, BISHOP) == 1
            && board.count(c, KNIGHT) == 0
            && board.count(c, ROOK) == 0
            && board.count(c, QUEEN) == 0
    };
    if only_bishop(Color::White) && only_bishop(Color::Black) {
        let shade = |c: Color| {
            let s = board.squares(c.piece(BISHOP))[0] as Square;
            (file_of(s) + rank_of(s)) % 2
        };
        if shade(Color::White) != shade(Color::Black) {
            return ScaleKind::OppositeBishops;
        }
    }
    ScaleKind::Full
}

/// Human-readable table of the evaluation (the UCI `eval` command).
pub fn describe(board: &Board) -> String {
    let t = trace(board);
    let mut out = String::new();
    out.push_str("       term    |    White    |    Black    |    Total\n");
    out.push_str("               |   MG    EG  |   MG    EG  |   MG    EG\n");
    out.push_str(" --------------+-------------+-------------+------------\n");
    for (i, term) in TERMS.iter().enumerate() {
        let [w, b] = t.terms[i];
        let d = w - b;
        out.push_str(&format!(
            " {:>13} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5}\n",
            format!("{term:?}"),
            w.0,
            w.1,
            b.0,
            b.1,
            d.0,
            d.1
        ));
    }
    out.push_str(&format!(
        "\nphase {}/{}, scale {}/64\nfinal evaluation: {} (White's view), {} (side to move)\n",
        t.phase,
        PHASE_TOTAL,
        t.scale,
        t.white_score,
        evaluate(board)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_table_changes_nothing() {
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
                    assert_eq!(
                        evaluate_with(&b, &mut table),
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
