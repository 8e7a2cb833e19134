% FLAW (for the grader's tests): a second top-level predicate with four arguments (an earlier attempt
% kept in the file), so the adapter cannot tell which one is the player; the instructor must name it in
% the suite's [entries].
%
% Oska for CPSC 322 (2004): oskaroo_k9z3(Board, Colour, Depth, NextBoard).
% Every predicate carries the suffix _k9z3 (handout note 5). Works for any n >= 4: the board's size comes
% from its rows. Three parts: move generation, board evaluation, MiniMax.
%
% Geometry: rows are centred, so square I of a row of K squares sits at X = 2*I - (K-1). A diagonal step
% goes to the next row (down for w, up for b) at X+-1; a jump goes two rows on at X+-2, over X+-1.

% ---- top level --------------------------------------------------------------------------------------

oskaroo_k9z3(Board, Colour, Depth, Next) :-
    D is max(1, Depth),
    findall(N, move_k9z3(Board, Colour, N), Ns),
    (   Ns == []
    ->  Next = Board                        % no legal move: the side loses its turn
    ;   other_k9z3(Colour, Opp),
        D1 is D - 1,
        findall(V-N, (member(N, Ns), minimax_k9z3(N, Opp, Colour, D1, V)), Scored),
        best_k9z3(Scored, _, Next)
    ).

% The first of the best (ties keep the earliest move).
best_k9z3([V-N|Rest], BestV, Best) :- best_k9z3(Rest, V, N, BestV, Best).
best_k9z3([], V, N, V, N).
best_k9z3([V1-N1|Rest], V, N, BV, B) :-
    (   V1 > V -> best_k9z3(Rest, V1, N1, BV, B) ; best_k9z3(Rest, V, N, BV, B) ).

% ---- MiniMax ----------------------------------------------------------------------------------------

minimax_k9z3(Board, _, Me, Depth, V) :-
    ( Depth =:= 0 ; winner_k9z3(Board, _) ), !,
    evaluate_k9z3(Board, Me, V).
minimax_k9z3(Board, ToMove, Me, Depth, V) :-
    findall(N, move_k9z3(Board, ToMove, N), Ns0),
    ( Ns0 == [] -> Ns = [Board] ; Ns = Ns0 ),
    other_k9z3(ToMove, Opp),
    D1 is Depth - 1,
    findall(V1, (member(N, Ns), minimax_k9z3(N, Opp, Me, D1, V1)), Vs),
    ( ToMove == Me -> max_list(Vs, V) ; min_list(Vs, V) ).

% ---- move generation --------------------------------------------------------------------------------

other_k9z3(w, b).
other_k9z3(b, w).
forward_k9z3(w, 1).
forward_k9z3(b, -1).

move_k9z3(Board, Colour, Next) :-
    forward_k9z3(Colour, F),
    nth0(R, Board, Row),
    nth0(I, Row, Colour),
    length(Row, K),
    X is 2*I - (K-1),
    member(DX, [-1, 1]),
    R1 is R + F, X1 is X + DX,
    square_k9z3(Board, R1, X1, I1),
    nth0(R1, Board, Row1), nth0(I1, Row1, C1),
    (   C1 == e
    ->  set_k9z3(Board, R, I, e, B1),
        set_k9z3(B1, R1, I1, Colour, Next)
    ;   other_k9z3(Colour, C1),
        R2 is R + 2*F, X2 is X + 2*DX,
        square_k9z3(Board, R2, X2, I2),
        nth0(R2, Board, Row2), nth0(I2, Row2, e),
        set_k9z3(Board, R, I, e, B1),
        set_k9z3(B1, R1, I1, e, B2),
        set_k9z3(B2, R2, I2, Colour, Next)
    ).

square_k9z3(Board, R, X, I) :-
    R >= 0, length(Board, Rows), R < Rows,
    nth0(R, Board, Row), length(Row, K),
    J2 is X + K - 1,
    J2 >= 0, J2 mod 2 =:= 0,
    I is J2 // 2, I < K.

set_k9z3(Board, R, I, V, New) :-
    nth0(R, Board, Row, Rows),
    nth0(I, Row, _, Cells),
    nth0(I, NewRow, V, Cells),
    nth0(R, New, NewRow, Rows).

% ---- board evaluation (static) ----------------------------------------------------------------------

count_k9z3(Board, C, N) :-
    foldl([Row, A0, A]>>(include(==(C), Row, Cs), length(Cs, L), A is A0 + L), Board, 0, N).

home_k9z3(Board, w) :- last(Board, Row), all_home_k9z3(Board, Row, w).
home_k9z3(Board, b) :- Board = [Row|_], all_home_k9z3(Board, Row, b).
all_home_k9z3(Board, Row, C) :-
    count_k9z3(Board, C, N), N > 0, count_k9z3([Row], C, N).

winner_k9z3(Board, W) :-
    count_k9z3(Board, w, NW), count_k9z3(Board, b, NB),
    (   NB =:= 0 -> W = w
    ;   NW =:= 0 -> W = b
    ;   home_k9z3(Board, w), home_k9z3(Board, b)
    ->  ( NW > NB -> W = w ; NB > NW -> W = b ; W = draw )
    ;   home_k9z3(Board, w) -> W = w
    ;   home_k9z3(Board, b) -> W = b
    ).

to_go_k9z3(Board, C, T) :-
    length(Board, Rows), Last is Rows - 1,
    findall(D, ( nth0(R, Board, Row), member(C, Row),
                 ( C == w -> D is Last - R ; D = R ) ), Ds),
    sum_list(Ds, T).

evaluate_k9z3(Board, Me, V) :-
    other_k9z3(Me, Opp),
    (   winner_k9z3(Board, W)
    ->  ( W == Me -> V = 10000 ; W == Opp -> V = -10000 ; V = 0 )
    ;   % The race to the far row; a piece is worth nothing by itself, since a capture also
        % shortens the victim's race (the handout's remark on sacrificing pieces).
        to_go_k9z3(Board, Me, TM), to_go_k9z3(Board, Opp, TO),
        V is TO - TM
    ).

% ---- my first attempt, kept for reference --------------------------------------------------------

% Plays the first legal move it finds.
oskaroo_v1_k9z3(Board, Colour, _Depth, Next) :-
    move_k9z3(Board, Colour, Next), !.
oskaroo_v1_k9z3(Board, _, _, Board).
