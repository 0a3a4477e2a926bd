//! The play of the engine, pinned: `cavalier bench` searches fixed
//! positions to a fixed depth, and the nodes it counts change with almost
//! any change to the search or the evaluation. The number below is written
//! nowhere else: a commit that changes how the engine plays changes it here
//! and says so (with the games that justify the change), so that no change
//! of play lands unannounced. Every build runs this test the same way: CI
//! also runs it with `--features tune`, whose bench must equal the default
//! build's.

mod common;

use common::cavalier;

/// `cavalier bench`'s node count at the default depth.
const BENCH_NODES: u64 = 1304323;

#[test]
fn bench_node_count_is_the_announced_one() {
    let o = cavalier(&["bench"]);
    assert!(o.success());
    let out = &o.stdout;
    let last = out.lines().last().unwrap_or("");
    let nodes: u64 = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {last:?}"));
    assert_eq!(
        nodes, BENCH_NODES,
        "bench is {nodes}, announced {BENCH_NODES}: a change of play must update \
         tests/bench.rs and say so in its commit"
    );
}
