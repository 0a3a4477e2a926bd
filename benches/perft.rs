//! Perft speed: the start position to depth 5 and Kiwipete to depth 4
//! (docs/speed.md quotes the CLI's deeper runs).

use cavalier::chess::perft::perft;
use cavalier::Board;
use criterion::{criterion_group, criterion_main, Criterion};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("startpos depth 5", |b| {
        let mut board = Board::startpos();
        b.iter(|| assert_eq!(perft(&mut board, 5), 4_865_609));
    });
    group.bench_function("kiwipete depth 4", |b| {
        let mut board = Board::from_fen(KIWIPETE).unwrap();
        b.iter(|| assert_eq!(perft(&mut board, 4), 4_085_603));
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
