//! Boards as real interactive programs draw them (each drawing reproduced here, not copied), read to
//! the same nine tokens.

use super::*;

/// The tokens of the last board in `text`, as one string per row (`X|O|` for `X`, `O`, blank).
fn rows(text: &str) -> Vec<String> {
    let g = last_grid(text).unwrap_or_else(|| {
        let lines: Vec<_> = text.split('\n').map(|l| (l, classify(l))).collect();
        panic!("no board in {text:?}: {lines:#?}")
    });
    (0..3)
        .map(|r| g.cells[3 * r..3 * r + 3].join("|"))
        .collect()
}

#[test]
fn bars_rules_frames_and_boxes() {
    let cases: &[(&str, [&str; 3])] = &[
        ("X|O| \n-----\n |X| \n-----\nO| | \n", ["X|O|", "|X|", "O||"]),
        (" X | O |   \n---+---+---\n   | X |   \n---+---+---\n O |   |   \n", ["X|O|", "|X|", "O||"]),
        ("| X | O |   |\n|   | X |   |\n| O |   |   |\n", ["X|O|", "|X|", "O||"]),
        ("----\n\n----\n| X || O ||   |\n----\n|   || X ||   |\n----\n| O ||   ||   |\n----\n", ["X|O|", "|X|", "O||"]),
        (
            "       |       |       \n   X   |   O   |       \n_______|_______|_______\n       |       |       \n       |   X   |       \n_______|_______|_______\n       |       |       \n   O   |       |       \n       |       |       \n",
            ["X|O|", "|X|", "O||"],
        ),
        (
            "+-------+-------+-------+\n|       |       |       |\n|   X   |   O   |   3   |\n|       |       |       |\n+-------+-------+-------+\n|       |       |       |\n|   4   |   X   |   6   |\n|       |       |       |\n+-------+-------+-------+\n|       |       |       |\n|   O   |   8   |   9   |\n|       |       |       |\n+-------+-------+-------+\n",
            ["X|O|3", "4|X|6", "O|8|9"],
        ),
        (
            "\t*************************\n\t*       *       *       *\n\t*   X   *   O   *       *\n\t*       *       *       *\n\t*************************\n\t*       *       *       *\n\t*       *   X   *       *\n\t*       *       *       *\n\t*************************\n\t*       *       *       *\n\t*   O   *       *       *\n\t*       *       *       *\n\t*************************\n",
            ["X|O|", "|X|", "O||"],
        ),
        ("_X_|_O_|___\n___|_X_|___\n O |   |   \n", ["X|O|", "|X|", "O||"]),
        ("---------\n| X O _ |\n| _ X _ |\n| O _ _ |\n---------\n", ["X|O|", "|X|", "O||"]),
        ("| _ | X | _ | \n| O | _ | _ | \n| _ | _ | _ | \n", ["|X|", "O||", "||"]),
    ];
    for (text, want) in cases {
        let text = super::super::screen::render(text.as_bytes());
        assert_eq!(rows(&text), want.to_vec(), "{text}");
    }
}

#[test]
fn words_fixed_cells_lists_and_compact_rows() {
    let cases: &[(&str, [&str; 3])] = &[
        ("X O -\n- X -\nO - -\n", ["X|O|", "|X|", "O||"]),
        ("X   O \n      \n  X   \n-----\n", ["X||O", "||", "|X|"]),
        ("_ _ _ \n_ X _ \nO _ _ \n", ["||", "|X|", "O||"]),
        ("X*O\n***\n*X*\n", ["X|*|O", "*|*|*", "*|X|*"]),
        (
            "['X', '-', '-']\n['-', 'O', '-']\n['-', '-', '-']\n",
            ["X||", "|O|", "||"],
        ),
        ("1 # 0\n# # #\n# 1 #\n", ["1|#|0", "#|#|#", "#|1|#"]),
        ("X 2 3\n4 O 6\n7 8 9\n", ["X|2|3", "4|O|6", "7|8|9"]),
    ];
    for (text, want) in cases {
        assert_eq!(rows(text), want.to_vec(), "{text}");
    }
}

#[test]
fn labels_and_headers_are_not_cells() {
    let text =
        "Board :\n  0   1   2\n0 X | O |  \n ---+---+---\n1   | X |  \n ---+---+---\n2 O |   |  \n";
    let g = last_grid(text).unwrap();
    assert_eq!(rows(text), ["X|O|", "|X|", "O||"]);
    assert_eq!(
        g.row_labels.as_ref().unwrap(),
        &["0", "1", "2"].map(String::from)
    );
    assert_eq!(
        g.col_labels.as_ref().unwrap(),
        &["0", "1", "2"].map(String::from)
    );
    // Row labels on an empty board, where the label stands where a mark would.
    let empty = "  1   2   3\n1   |   |  \n ---+---+---\n2   |   |  \n ---+---+---\n3   |   |  \n";
    assert_eq!(rows(empty), ["||", "||", "||"]);
    // A list board with numbered rows and a header printed under it.
    let listed = "--------------------\n1 ['x', '_', '_']\n2 ['_', 'o', '_']\n3 ['_', '_', '_']\n    1    2    3\n--------------------\n";
    assert_eq!(rows(listed), ["x||", "|o|", "||"]);
    let lettered = "   A   B   C\nA  X | O |  \nB    | X |  \nC  O |   |  \n";
    let g = last_grid(lettered).unwrap();
    assert_eq!(rows(lettered), ["X|O|", "|X|", "O||"]);
    assert_eq!(g.row_labels.unwrap()[1], "B");
}

#[test]
fn prose_is_no_board_and_the_last_board_wins() {
    for text in [
        "Welcome to tic-tac-toe!\nYou are X.\nMy move: 5\nIt's a draw.\n",
        "Enter your move (1-9): ",
        "I win.\nYou lose.\nPlay again?\n",
        "",
    ] {
        assert!(grids(text).is_empty(), "{text:?}");
    }
    let two = "1 2 3\n4 5 6\n7 8 9\nYour move: 5\nX | O |  \n  |   |  \n  |   |  \n";
    assert_eq!(grids(two).len(), 2);
    assert_eq!(rows(two), ["X|O|", "||", "||"]);
    // A screen clear ends a board.
    let cleared = format!(
        "X | O |  \n  |   |  \n{}  |   |  \n",
        super::super::screen::CLEAR
    );
    assert!(grids(&cleared).is_empty());
}

#[test]
fn numbers_count_cells_in_a_known_order() {
    let grid = |cells: [&str; 9]| Grid {
        cells: cells.map(String::from),
        row_labels: None,
        col_labels: None,
    };
    assert_eq!(
        numbering_of(&grid(["1", "2", "3", "4", "X", "6", "7", "8", "9"])),
        Some((1, false))
    );
    assert_eq!(
        numbering_of(&grid(["7", "8", "9", "4", "5", "6", "1", "2", "3"])),
        Some((1, true))
    );
    assert_eq!(
        numbering_of(&grid(["0", "1", "2", "3", "4", "5", "6", "7", "8"])),
        Some((0, false))
    );
    // Marks that are digits (`1` for one player, `0` for the other) number nothing.
    assert_eq!(
        numbering_of(&grid(["1", "#", "0", "#", "#", "#", "#", "1", "#"])),
        None
    );
    // Only the middle row left numbered: a phone's keys or a keypad, not certain.
    let middle = grid(["X", "O", "X", "4", "5", "6", "O", "X", "O"]);
    assert_eq!(numbering_of(&middle), Some((1, false)));
    assert_eq!(numbering_certain(&middle), None);
    let corner = grid(["X", "O", "X", "4", "5", "6", "O", "X", "3"]);
    assert_eq!(numbering_certain(&corner), Some((1, true)));
}

#[test]
fn empties_are_learned_from_an_empty_board() {
    let first = last_grid("# # #\n# # #\n# # #\n").unwrap();
    let later = last_grid("1 # 0\n# # #\n# # #\n").unwrap();
    let mut e = Empties::default();
    // Unlearned, `1` on cell 1 could be its number; learned, it is a mark.
    e.learn(&first);
    let marks = e.marks(&later);
    assert_eq!(marks[0].as_deref(), Some("1"));
    assert_eq!(marks[2].as_deref(), Some("0"));
    assert!(marks[1].is_none() && marks[8].is_none());
    let numbered = last_grid(" X | 2 | 3\n 4 | 5 | 6\n 7 | 8 | 9\n").unwrap();
    let marks = Empties::default().marks(&numbered);
    assert_eq!(marks[0].as_deref(), Some("X"));
    assert!(marks[1..].iter().all(Option::is_none));
}

#[test]
fn any_bytes_give_boards_or_none_without_panicking() {
    let mut seed = 7u64;
    for _ in 0..500 {
        let text: String = (0..200)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let alphabet = b"XO |-+_*#\n\t\r 123abc[]',";
                char::from(alphabet[(seed >> 33) as usize % alphabet.len()])
            })
            .collect();
        let _ = grids(&text);
    }
}

#[test]
fn underscored_cells_with_a_blank_last_row_are_one_board() {
    // A guide and a board drawn with `_x_` cells whose last row is spaces (a real hand-in's).
    let guide = last_grid("\t\t\t_1_|_2_|_3_\n\t\t\t_4_|_5_|_6_\n\t\t\t 7 | 8 | 9 \n").unwrap();
    let after =
        "\nMy turn:\n\t\t\t_o_|___|___\n\t\t\t___|___|___\n\t\t\t   |   |   \n\ngrader's turn:";
    let board = last_grid(&super::super::screen::render(after.as_bytes())).unwrap();
    let mut e = Empties::default();
    e.learn(&guide);
    let marks = e.marks(&board);
    assert_eq!(marks[0].as_deref(), Some("o"), "{board:?}");
    assert!(marks[1..].iter().all(Option::is_none), "{board:?}");
}
