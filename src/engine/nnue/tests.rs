//! The network's file, and its incremental, refreshed, portable and AVX2
//! evaluations agreeing over random walks through games.

use super::file::{fnv1a, CHECK_BYTES, HEADER_BYTES};
use super::output::output_portable;
use super::*;
use crate::chess::board::Board;
use crate::chess::types::MoveKind;
use crate::util::rng::Rng;

/// Positions with castling (Chess960's too), en passant and promotions.
const WALK_FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
];
/// Chess960 starts whose castling moves the king onto or off a rook's
/// square, or not at all (Scharnagl numbers).
const WALK_960: [usize; 4] = [0, 1, 359, 959];
/// Deepest ply of a walk.
const WALK_PLIES: usize = 24;
/// Walks from each start, and steps of each: a walk drifts down and
/// seldom comes back to its start, so that several short walks meet the
/// start's castlings and en passant captures more often than one long.
const WALKS_PER_START: u64 = 5;
const WALK_STEPS: usize = 120;

/// A network of random weights: every first-layer value anywhere in
/// i16 (the sums wrap, and units fall on both sides of the clamp), output
/// weights anywhere within the bound.
fn random_network(hidden: usize, seed: u64) -> Network {
    random_bucketed_network(hidden, 1, seed)
}

/// `random_network` with `buckets` output buckets, each with its own
/// random weights and bias.
fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    let mut rng = Rng::new(seed);
    let mut short = |n: usize| (0..n).map(|_| rng.next_u64() as i16).collect::<Vec<i16>>();
    let w1 = short(INPUTS * hidden);
    let b1 = short(hidden);
    let w2 = short(buckets * 2 * hidden)
        .into_iter()
        .map(|w| (w as i32 % (MAX_OUTPUT_WEIGHT + 1)) as i16)
        .collect();
    let b2 = (0..buckets).map(|i| 12_345 - 20_000 * i as i32).collect();
    Network::new(hidden, 400, w1, b1, w2, b2).unwrap()
}

/// What random walks covered: evaluations compared, and the moves whose
/// updates of the sums differ from a plain move's (castling, en passant,
/// promotion), null moves and take-backs.
#[derive(Clone, Copy, Debug, Default)]
struct Coverage {
    evaluations: usize,
    castles: usize,
    castles_960: usize,
    en_passant: usize,
    promotions: usize,
    nulls: usize,
    take_backs: usize,
    /// The output buckets of the positions evaluated, a bit each.
    buckets: u64,
}

impl std::ops::AddAssign for Coverage {
    fn add_assign(&mut self, o: Coverage) {
        self.evaluations += o.evaluations;
        self.castles += o.castles;
        self.castles_960 += o.castles_960;
        self.en_passant += o.en_passant;
        self.promotions += o.promotions;
        self.nulls += o.nulls;
        self.take_backs += o.take_backs;
        self.buckets |= o.buckets;
    }
}

/// Walks at random down and up the move tree from `board` (moves, null
/// moves, take-backs, as a search does), evaluating at random plies with
/// lazily updated sums (portable and, when the CPU has it, AVX2) and
/// checking them against a refresh from the board. Returns what it
/// covered.
fn walk(net: &Network, mut board: Board, seed: u64, steps: usize) -> Coverage {
    let mut rng = Rng::new(seed);
    let plies = WALK_PLIES + 1;
    let mut portable = Accumulators::new(net.hidden(), plies);
    let mut vector = Accumulators::new(net.hidden(), plies);
    portable.refresh(net, &board, 0);
    vector.refresh(net, &board, 0);
    let mut nulls: Vec<bool> = Vec::new();
    let mut covered = Coverage::default();
    for _ in 0..steps {
        let ply = nulls.len();
        let moves = board.legal_moves();
        let down = ply == 0 || (ply < WALK_PLIES && !rng.next_u64().is_multiple_of(3));
        if down && !moves.is_empty() {
            let null = !board.in_check() && rng.next_u64().is_multiple_of(10);
            let delta = if null {
                covered.nulls += 1;
                board.make_null();
                Delta::NONE
            } else {
                // Half the time, when there are any, one of the moves whose
                // update differs from a plain move's: a walk meets them
                // too rarely otherwise.
                let special: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| !matches!(m.kind(), MoveKind::Normal | MoveKind::DoublePush))
                    .collect();
                let pool = if !special.is_empty() && rng.next_u64().is_multiple_of(2) {
                    &special[..]
                } else {
                    &moves[..]
                };
                let mv = pool[(rng.next_u64() % pool.len() as u64) as usize];
                match mv.kind() {
                    MoveKind::Castle if board.is_chess960() => covered.castles_960 += 1,
                    MoveKind::Castle => covered.castles += 1,
                    MoveKind::EnPassant => covered.en_passant += 1,
                    MoveKind::Promotion => covered.promotions += 1,
                    MoveKind::Normal | MoveKind::DoublePush => {}
                }
                let d = Delta::of(&board, mv);
                board.make(mv);
                d
            };
            portable.push(ply + 1, delta);
            vector.push(ply + 1, delta);
            nulls.push(null);
        } else if ply > 0 {
            covered.take_backs += 1;
            if nulls.pop() == Some(true) {
                board.unmake_null();
            } else {
                board.unmake();
            }
        }
        if rng.next_u64().is_multiple_of(2) {
            let ply = nulls.len();
            let expected = net.evaluate(&board);
            assert_eq!(
                portable.evaluate_portable(net, &board, ply),
                expected,
                "{}",
                board.to_fen()
            );
            #[cfg(target_arch = "x86_64")]
            if crate::util::cpu::has_avx2() {
                // SAFETY: the CPU has AVX2 (checked just above).
                #[allow(unsafe_code)]
                let v = unsafe { vector.evaluate_avx2(net, &board, ply) };
                assert_eq!(v, expected, "{}", board.to_fen());
            }
            assert_eq!(vector.evaluate(net, &board, ply), expected);
            covered.evaluations += 1;
            covered.buckets |= 1 << net.bucket_of_board(&board);
        }
    }
    covered
}

/// `board` without its back ranks' bishops, knights and queens: the
/// kings may castle at once, both ways.
fn cleared_back_ranks(board: &Board) -> Board {
    let fen = board.to_fen();
    let (placement, rest) = fen.split_once(' ').unwrap();
    let mut ranks: Vec<String> = placement.split('/').map(str::to_string).collect();
    for i in [0, 7] {
        let mut rank = String::new();
        let mut empty = 0;
        for c in ranks[i].chars() {
            if let Some(d) = c.to_digit(10) {
                empty += d;
            } else if "bnqBNQ".contains(c) {
                empty += 1;
            } else {
                if empty > 0 {
                    rank.push_str(&empty.to_string());
                    empty = 0;
                }
                rank.push(c);
            }
        }
        if empty > 0 {
            rank.push_str(&empty.to_string());
        }
        ranks[i] = rank;
    }
    let mut cleared = Board::from_fen(&format!("{} {rest}", ranks.join("/"))).unwrap();
    cleared.set_chess960(board.is_chess960());
    cleared
}

fn walk_starts() -> Vec<Board> {
    let mut starts: Vec<Board> = WALK_FENS
        .iter()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    starts.push(cleared_back_ranks(&starts[0]));
    for &n in &WALK_960 {
        let start = Board::chess960_start(n).unwrap();
        starts.push(cleared_back_ranks(&start));
        starts.push(start);
    }
    starts
}

/// The walks evaluate thousands of positions, and among the moves before
/// them each kind whose update differs: castling (standard and Chess960),
/// en passant, promotions, null moves and take-backs, each at least a few
/// dozen times (`cargo test --lib incremental -- --nocapture` prints the
/// counts); the network of 8 output buckets is met in most of them.
#[test]
fn incremental_refreshed_portable_and_avx2_agree() {
    let nets = [
        embedded().unwrap(),
        Arc::new(random_network(32, 7)),
        Arc::new(random_bucketed_network(32, MAX_BUCKETS, 9)),
    ];
    let mut covered = Coverage::default();
    for net in &nets {
        for (i, start) in walk_starts().into_iter().enumerate() {
            for j in 0..WALKS_PER_START {
                covered += walk(net, start.clone(), 1000 + 10 * i as u64 + j, WALK_STEPS);
            }
        }
    }
    println!("random walks covered: {covered:?}");
    let c = covered;
    // About half of what the walks cover (they are seeded: the same
    // every run), so that a change that loses much coverage fails.
    for (what, count, least) in [
        ("evaluations", c.evaluations, 6000),
        ("castles", c.castles, 40),
        ("Chess960 castles", c.castles_960, 100),
        ("en passant captures", c.en_passant, 25),
        ("promotions", c.promotions, 60),
        ("null moves", c.nulls, 500),
        ("take-backs", c.take_backs, 3500),
        ("output buckets", c.buckets.count_ones() as usize, 5),
    ] {
        assert!(count >= least, "{what}: {count}, fewer than {least}");
    }
}

/// The largest sums the output layer can meet (every unit at QA, every
/// weight at the bound, 1024 units) give the same score both ways.
#[test]
fn output_extremes_agree() {
    for w in [MAX_OUTPUT_WEIGHT, -MAX_OUTPUT_WEIGHT] {
        let h = MAX_HIDDEN;
        let net = Network::new(
            h,
            MAX_SCALE as i32,
            vec![0; INPUTS * h],
            vec![0; h],
            vec![w as i16; 2 * h],
            vec![i32::MAX],
        )
        .unwrap();
        let units = vec![i16::MAX; h];
        let p = output_portable(&net, 0, &units, &units);
        assert_eq!(p.abs(), crate::engine::score::MATE_BOUND - 1);
        #[cfg(target_arch = "x86_64")]
        if crate::util::cpu::has_avx2() {
            // SAFETY: the CPU has AVX2 (checked just above).
            #[allow(unsafe_code)]
            let v = unsafe { super::output::output_avx2(&net, 0, &units, &units) };
            assert_eq!(v, p);
        }
    }
}

#[test]
fn embedded_network_loads_and_scores_material() {
    let net = embedded().unwrap();
    assert_eq!(net.hidden(), 256);
    // A queen up is good for its side, from either side's view.
    let up = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let down = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
    assert!(net.evaluate(&up) > 300, "{}", net.evaluate(&up));
    assert!(net.evaluate(&down) < -300, "{}", net.evaluate(&down));
}

/// A network file's `bytes` with `f` applied and the check redone.
fn rechecked_from(mut bytes: Vec<u8>, f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    f(&mut bytes);
    let body = bytes.len() - CHECK_BYTES;
    let check = fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&check.to_le_bytes());
    bytes
}

/// The embedded network's bytes with `f` applied and the check redone.
fn rechecked(f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    rechecked_from(include_bytes!("default.nnue").to_vec(), f)
}

#[test]
fn bad_files_are_errors() {
    let good = include_bytes!("default.nnue").to_vec();
    let embedded = Network::from_bytes(&good).expect("the embedded network loads");
    let hidden = embedded.hidden();
    let err = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(err(&magic), NetworkError::BadMagic);
    assert_eq!(err(b"CAVNN"), NetworkError::BadMagic);
    assert_eq!(err(b""), NetworkError::BadMagic);
    for hidden in [0u32, 8, 100, 2048, u32::MAX] {
        let b = rechecked(|b| b[8..12].copy_from_slice(&hidden.to_le_bytes()));
        assert_eq!(err(&b), NetworkError::BadHidden(hidden));
    }
    let b = rechecked(|b| b[12..16].copy_from_slice(&0u32.to_le_bytes()));
    assert_eq!(err(&b), NetworkError::BadScale(0));
    // 64 units: a valid size, but not this file's.
    let b = rechecked(|b| b[8..12].copy_from_slice(&64u32.to_le_bytes()));
    assert!(
        matches!(err(&b), NetworkError::BadLength { .. }),
        "{}",
        err(&b)
    );
    assert!(matches!(
        err(&good[..good.len() - 1]),
        NetworkError::BadLength { .. }
    ));
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(err(&longer), NetworkError::BadLength { .. }));
    let mut damaged = good.clone();
    damaged[1000] ^= 1;
    assert_eq!(err(&damaged), NetworkError::Checksum);
    // The first output weight set beyond the bound.
    let w2_at = file::header_bytes(embedded.buckets()) + 2 * (INPUTS + 1) * hidden;
    let b = rechecked(|b| b[w2_at..w2_at + 2].copy_from_slice(&300i16.to_le_bytes()));
    assert_eq!(err(&b), NetworkError::OutputWeight(300));
    assert!(err(&b).to_string().contains("300"));
    assert!(matches!(
        Network::from_file("/no/such/file.nnue"),
        Err(NetworkError::Unreadable(_))
    ));
}

/// What the engine writes it reads back as the same network, at the size
/// the format gives; damage is found.
#[test]
fn written_files_read_back_as_the_same_network() {
    for hidden in [MIN_HIDDEN, 48] {
        let net = random_network(hidden, hidden as u64);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file::file_bytes(hidden, 1));
        assert_eq!(&bytes[..8], file::MAGIC);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let check = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap());
        assert_eq!(net.file_check(), check);
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert_eq!(Network::from_bytes(&bad), Err(NetworkError::Checksum));
    }
    let embedded_bytes = include_bytes!("default.nnue");
    assert_eq!(embedded().unwrap().to_bytes(), embedded_bytes);
}

/// A file is read only when it is a regular one within the largest
/// network's size and a margin: one a little too long is read (and its
/// length is wrong), a huge one and a device are refused unread.
#[test]
fn network_files_are_read_within_a_bound() {
    let dir = std::env::temp_dir().join(format!("cavalier-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("long.nnue");
    let mut bytes = random_network(16, 5).to_bytes();
    let largest = file::file_bytes(MAX_HIDDEN, MAX_BUCKETS);
    bytes.resize(largest + 1, 0);
    std::fs::write(&path, &bytes).unwrap();
    let name = path.to_str().unwrap();
    assert!(matches!(
        Network::from_file(name),
        Err(NetworkError::BadLength { .. })
    ));
    std::fs::File::create(&path)
        .unwrap()
        .set_len(file::MAX_READ_BYTES + 1)
        .unwrap();
    let err = Network::from_file(name).unwrap_err().to_string();
    assert!(err.contains("larger than"), "{err}");
    #[cfg(unix)]
    {
        let err = Network::from_file("/dev/zero").unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// One loader: `<embedded>` and nothing name the embedded network, any
/// other name a file, and the error names the file.
#[test]
fn sources_are_named_and_loaded() {
    assert_eq!(NetSource::named(""), NetSource::Embedded);
    assert_eq!(NetSource::named(" <embedded> "), NetSource::Embedded);
    assert_eq!(
        NetSource::named("a.nnue"),
        NetSource::File("a.nnue".to_string())
    );
    assert!(Arc::ptr_eq(
        &load(&NetSource::Embedded).unwrap(),
        &embedded().unwrap()
    ));
    let err = load(&NetSource::named("/no/such/a.nnue")).unwrap_err();
    assert!(
        err.starts_with("network \"/no/such/a.nnue\": cannot be read"),
        "{err}"
    );
}

/// The one check of a hidden size.
#[test]
fn hidden_sizes_are_multiples_of_16_within_bounds() {
    let valid: Vec<usize> = (0..=2048).filter(|&h| valid_hidden(h)).collect();
    assert_eq!(valid.len(), 64);
    assert_eq!(valid[0], 16);
    assert_eq!(valid[63], 1024);
    assert!(valid.iter().all(|h| h % 16 == 0));
}

/// The feature mapping: White's view of a White piece is its own square;
/// Black's view mirrors the rank and swaps the colours.
#[test]
fn features_mirror_for_black() {
    use crate::chess::types::{Square, KING, PAWN};
    // A White pawn on e2 (12) and a Black king on e8 (60).
    assert_eq!(
        piece_features(PAWN, Square::from_coords(4, 1)),
        [12, 384 + 52]
    );
    assert_eq!(
        piece_features(-KING, Square::from_coords(4, 7)),
        [384 + 5 * 64 + 60, 5 * 64 + 4]
    );
}

/// The bucket of a piece count: the pieces beyond the kings,
/// `ceil(32 / buckets)` to a bucket, the last for any more.
#[test]
fn output_buckets_go_by_piece_count() {
    assert_eq!(bucket(1, 2), 0);
    assert_eq!(bucket(1, 32), 0);
    // 8 buckets: 4 pieces each.
    assert_eq!(bucket(8, 2), 0);
    assert_eq!(bucket(8, 5), 0);
    assert_eq!(bucket(8, 6), 1);
    assert_eq!(bucket(8, 31), 7);
    assert_eq!(bucket(8, 32), 7);
    assert_eq!(bucket(8, 64), 7);
    assert_eq!(bucket(8, 0), 0);
    // 3 buckets: 11 pieces each.
    assert_eq!(bucket(3, 12), 0);
    assert_eq!(bucket(3, 13), 1);
    assert_eq!(bucket(3, 32), 2);
    let net = random_bucketed_network(16, 8, 3);
    let start = Board::startpos();
    assert_eq!(net.bucket_of_board(&start), 7);
    let bare = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    assert_eq!(net.bucket_of_board(&bare), 0);
    assert_eq!((0..=64).map(|n| net.bucket(n)).max(), Some(7));
}

/// A hand-made network of 2 buckets (2..=17 pieces, 18 and more) whose
/// buckets differ only in that one's output weights and bias are zero:
/// the positions of that bucket score 0 and the others do not, by
/// refresh and by the search's sums (portable and AVX2).
#[test]
fn positions_of_different_piece_counts_use_their_buckets() {
    let h = 16;
    let w1: Vec<i16> = (0..INPUTS * h).map(|i| (i % 13) as i16 * 4).collect();
    let b1 = vec![10; h];
    let row: Vec<i16> = (0..2 * h).map(|i| (i % 5) as i16 - 1).collect();
    let zero = vec![0i16; 2 * h];
    let many = Board::startpos();
    let few = Board::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    assert_eq!(many.occupied().count_ones(), 32);
    for (zero_bucket, zero_board, other_board) in [(0, &few, &many), (1, &many, &few)] {
        let w2 = if zero_bucket == 0 {
            [zero.clone(), row.clone()].concat()
        } else {
            [row.clone(), zero.clone()].concat()
        };
        let mut b2 = vec![700; 2];
        b2[zero_bucket] = 0;
        let net = Network::new(h, 400, w1.clone(), b1.clone(), w2, b2).unwrap();
        assert_eq!(net.buckets(), 2);
        for (board, zero) in [(zero_board, true), (other_board, false)] {
            let refreshed = net.evaluate(board);
            assert_eq!(
                refreshed == 0,
                zero,
                "{} scores {refreshed}",
                board.to_fen()
            );
            let mut sums = Accumulators::new(h, 1);
            sums.start(&net, board);
            assert_eq!(sums.evaluate_portable(&net, board, 0), refreshed);
            assert_eq!(sums.evaluate(&net, board, 0), refreshed);
        }
    }
}

/// Files of several buckets read back as the same network and write the
/// same bytes again; a one-bucket network is written as the plain
/// format, which reads back byte-identical too (so does the embedded
/// one); the bucketed format may also say 1 bucket.
#[test]
fn bucketed_files_round_trip_byte_identical() {
    for buckets in [1, 2, 5, MAX_BUCKETS] {
        let net = random_bucketed_network(32, buckets, 40 + buckets as u64);
        assert_eq!(net.buckets(), buckets);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file::file_bytes(32, buckets));
        let magic = if buckets == 1 {
            file::MAGIC
        } else {
            file::MAGIC_BUCKETED
        };
        assert_eq!(&bytes[..8], magic);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
    }
    let embedded_bytes = include_bytes!("default.nnue");
    let embedded = Network::from_bytes(embedded_bytes).unwrap();
    assert_eq!(embedded.to_bytes(), embedded_bytes);
    // A plain network in "CAVNNUE2" saying 1 bucket: the same network.
    let plain = random_network(32, 41);
    let plain_bytes = plain.to_bytes();
    assert_eq!(&plain_bytes[..8], file::MAGIC);
    let body = &plain_bytes[HEADER_BYTES..plain_bytes.len() - CHECK_BYTES];
    let mut two = file::MAGIC_BUCKETED.to_vec();
    two.extend_from_slice(&plain_bytes[8..HEADER_BYTES]);
    two.extend_from_slice(&1u32.to_le_bytes());
    two.extend_from_slice(body);
    let check = fnv1a(&two);
    two.extend_from_slice(&check.to_le_bytes());
    assert_eq!(Network::from_bytes(&two).unwrap(), plain);
}

/// A bucketed file with its bytes changed by `f` and its check redone.
fn rechecked_bucketed(buckets: usize, f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    rechecked_from(random_bucketed_network(16, buckets, 77).to_bytes(), f)
}

/// Bucket counts beyond 1..=8, in a file or in a network's parts, and a
/// file shorter than its bucket count needs, are refused and say why.
#[test]
fn bad_bucket_counts_are_refused() {
    let err = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
    for buckets in [0u32, 9, 100, u32::MAX] {
        let b = rechecked_bucketed(4, |b| b[16..20].copy_from_slice(&buckets.to_le_bytes()));
        assert_eq!(err(&b), NetworkError::BadBuckets(buckets));
        let text = err(&b).to_string();
        assert!(
            text.contains(&format!("output bucket count {buckets}")) && text.contains("1..=8"),
            "{text}"
        );
    }
    // 4 buckets said, 3 given: w2 and b2 a bucket short.
    let b = rechecked_bucketed(3, |b| b[16..20].copy_from_slice(&4u32.to_le_bytes()));
    assert_eq!(
        err(&b),
        NetworkError::BadLength {
            found: file::file_bytes(16, 3),
            expected: file::file_bytes(16, 4),
        }
    );
    // w2 cut short (the check redone over what is left).
    let good = random_bucketed_network(16, 4, 5).to_bytes();
    let mut cut = good[..good.len() - CHECK_BYTES - 4 * 4 - 2].to_vec();
    let check = fnv1a(&cut);
    cut.extend_from_slice(&check.to_le_bytes());
    assert!(matches!(err(&cut), NetworkError::BadLength { .. }));
    // Too short to hold the bucket count.
    assert!(matches!(
        err(&good[..18]),
        NetworkError::BadLength { found: 18, .. }
    ));
    // A bucketed file damaged is found.
    let mut damaged = good.clone();
    damaged[good.len() - CHECK_BYTES - 3] ^= 1;
    assert_eq!(err(&damaged), NetworkError::Checksum);
    // A network's parts.
    let parts = |w2: usize, b2: usize| {
        Network::new(
            16,
            400,
            vec![0; INPUTS * 16],
            vec![0; 16],
            vec![0; w2],
            vec![0; b2],
        )
    };
    assert_eq!(parts(0, 0).unwrap_err(), NetworkError::BadBuckets(0));
    assert_eq!(parts(9 * 32, 9).unwrap_err(), NetworkError::BadBuckets(9));
    assert_eq!(parts(3 * 32, 2).unwrap_err(), NetworkError::Sizes);
    assert_eq!(parts(2 * 32, 2).unwrap().buckets(), 2);
}
