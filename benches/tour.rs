//! Times the first knight's tour (Warnsdorff order with backtracking) from
//! each of the 64 squares, open and closed. Divide a figure by 64 for the
//! time per tour.

use std::hint::black_box;

use cavalier::tour::{find_tours, first_tour, SearchConfig, Square};
use criterion::{criterion_group, criterion_main, Criterion};

fn first_tours(c: &mut Criterion) {
    c.bench_function("tour: first open tour from each of 64 squares", |b| {
        b.iter(|| {
            for start in Square::all() {
                black_box(first_tour(black_box(start)));
            }
        })
    });
    c.bench_function("tour: first closed tour from each of 64 squares", |b| {
        b.iter(|| {
            for start in Square::all() {
                let config = SearchConfig {
                    closed: true,
                    ..SearchConfig::new(black_box(start))
                };
                black_box(find_tours(&config));
            }
        })
    });
}

criterion_group!(benches, first_tours);
criterion_main!(benches);
