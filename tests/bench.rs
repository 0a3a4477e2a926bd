//! The play of the engine, pinned: `cavalier bench` searches fixed
//! positions to a fixed depth, and the nodes it counts change with almost
//! any change to the search or the evaluation. The numbers below, with the
//! network (the default) and with the hand-written evaluation, are written
//! nowhere else: a commit that changes how the engine plays changes it here
//! and says so (with the games that justify the change), so that no change
//! of play lands unannounced. Every build runs this test the same way: CI
//! also runs it with `--features tune`, whose bench must equal the default
//! build's.

mod common;

use common::bench_nodes;

/// `cavalier bench`'s node count at the default depth.
const BENCH_NODES: u64 = 1266091;

/// `cavalier bench --hce`'s node count at the default depth: the search
/// with the hand-written evaluation, which the README's claims about that
/// evaluation rest on (and which `Use NNUE false` plays).
const BENCH_HCE_NODES: u64 = 1418863;

#[test]
fn bench_node_count_is_the_announced_one() {
    let nodes = bench_nodes(&["bench"]);
    assert_eq!(
        nodes, BENCH_NODES,
        "bench is {nodes}, announced {BENCH_NODES}: a change of play must update \
         tests/bench.rs and say so in its commit"
    );
}

#[test]
fn bench_node_count_with_the_hand_written_evaluation_is_the_announced_one() {
    let nodes = bench_nodes(&["bench", "--hce"]);
    assert_eq!(
        nodes, BENCH_HCE_NODES,
        "bench --hce is {nodes}, announced {BENCH_HCE_NODES}: a change of the \
         hand-written evaluation's play must update tests/bench.rs and say so in its commit"
    );
}
