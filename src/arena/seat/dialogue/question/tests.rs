//! Questions as real interactive programs ask them (reworded here, not copied), and the answers a
//! person playing the grader's side would type.

use super::*;

const FIRST: Want = Want { user_first: true };
const SECOND: Want = Want { user_first: false };

fn ask(text: &str) -> Ask {
    read(text, false).ask
}

#[test]
fn questions_are_read_by_what_they_ask() {
    let cases: &[(&str, Ask)] = &[
        ("Welcome!\nWhich do you want to be, X or O? ", Ask::Mark),
        ("Pick your symbol (X goes first) [X/O]: ", Ask::Mark),
        ("Type 1 to play X, anything else for O: ", Ask::Mark),
        ("Choose x or o\nChosen: ", Ask::Mark),
        (
            "Do you want to go first? (y/n): ",
            Ask::First {
                about_program: false,
            },
        ),
        (
            "First to start?[y/n]: ",
            Ask::First {
                about_program: false,
            },
        ),
        (
            "Should the computer play first? (yes/no) ",
            Ask::First {
                about_program: true,
            },
        ),
        (
            "Shall the AI make the first move? (Y/N)\n>>> ",
            Ask::First {
                about_program: true,
            },
        ),
        (
            "Who starts?\n1) you\n2) the computer\n",
            Ask::First {
                about_program: false,
            },
        ),
        ("MENU\n1. YOU VS COMPUTER\n2. YOU VS A FRIEND\n", Ask::Mode),
        ("Single Player:y\\n?\n", Ask::Mode),
        // The prompt asks the mode, though the lines before say who goes first.
        (
            "Who goes first is chosen at random.\nSingle Player:y\\n?\n",
            Ask::Mode,
        ),
        // Said, not asked: who moves first, then the board and a wait for the move.
        (
            "Player will go first. Enter choice (1-9)\nKeys as on a number pad.\n_ _ _\n_ _ _\n_ _ _\n",
            Ask::Move(Part::Whole),
        ),
        (
            "Who plays first: ",
            Ask::First {
                about_program: false,
            },
        ),
        ("Pick a level (easy/medium/hard): ", Ask::Level),
        ("What is your name? ", Ask::Name),
        (">> Board size (ENTER for 3): ", Ask::Size),
        ("<Press Enter to begin>", Ask::Enter),
        (
            "The game is a tie!\nWould you like another game? (y/n) ",
            Ask::Again,
        ),
        ("Your move (row col): ", Ask::Move(Part::Whole)),
        ("Enter row and column (0-2): ", Ask::Move(Part::Whole)),
        ("Cell row: ", Ask::Move(Part::Row)),
        ("\nENTER A COLUMN: ", Ask::Move(Part::Col)),
        ("enter x coord: ", Ask::Move(Part::Col)),
        ("Use numpad (1..9)\n", Ask::Move(Part::Whole)),
        // A board's `'x', 'o'` is no question about the mark.
        (
            "1 ['_', '_', 'o']\n3 ['x', 'o', 'x']\n    1    2    3\nPosition row: ",
            Ask::Move(Part::Row),
        ),
        ("Human : ", Ask::Unknown),
        ("", Ask::Unknown),
    ];
    for (text, want) in cases {
        assert_eq!(&ask(text), want, "{text:?}");
    }
    // A board just printed, or a game under way: a bare prompt asks for a move.
    assert_eq!(ask("Go:\n_ _ _\n_ X _\n_ _ _\n"), Ask::Move(Part::Whole));
    assert_eq!(read("Human : ", true).ask, Ask::Move(Part::Whole));
}

#[test]
fn answers_follow_the_side_the_grader_wants() {
    let q = read("Which do you want to be, X or O? ", false);
    assert_eq!(q.answers(FIRST)[0], "X");
    assert_eq!(q.answers(SECOND)[0], "O");
    assert_eq!(read("Choose x or o: ", false).answers(SECOND)[0], "o");
    assert_eq!(
        read("Type 1 to play X, 2 for O: ", false).answers(FIRST)[0],
        "1"
    );
    assert_eq!(
        read("Type 1 to play X, 2 for O: ", false).answers(SECOND)[0],
        "2"
    );
    let first = read("Do you want to go first? (y/n): ", false);
    assert_eq!(first.answers(FIRST)[0], "y");
    assert_eq!(first.answers(SECOND)[0], "n");
    let yes = read("Go first? (Yes/No): ", false);
    assert_eq!(yes.answers(FIRST)[0], "Yes");
    let program = read("Should the computer play first? (Y/N) ", false);
    assert_eq!(program.answers(FIRST)[0], "N");
    assert_eq!(program.answers(SECOND)[0], "Y");
    let menu = read("Who starts?\n1) you\n2) the computer\n", false);
    assert_eq!(menu.answers(FIRST)[0], "1");
    assert_eq!(menu.answers(SECOND)[0], "2");
    let mode = read("MENU\n1. YOU VS A FRIEND\n2. YOU VS COMPUTER\n", false);
    assert_eq!(mode.answers(FIRST)[0], "2");
    assert_eq!(read("Single Player:y\\n?\n", false).answers(FIRST)[0], "y");
    assert_eq!(
        read("Board size (ENTER for 3): ", false).answers(FIRST),
        ["", "3"]
    );
    assert_eq!(read("Play again? (Y/N): ", false).answers(FIRST)[0], "N");
    let level = read("Level:\n1) easy\n2) impossible\n3) medium\n", false);
    assert_eq!(level.answers(FIRST)[0], "2");
}
