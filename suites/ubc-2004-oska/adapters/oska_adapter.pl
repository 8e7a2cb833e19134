% The grader's SWI-Prolog adapter for the UBC 2004 Oska suite: loads a student's Prolog file and asks
% their predicate for one move, like typing the query by hand (handout 004:57-60).
%
%   swipl -q oska_adapter.pl DIR ENTRY BOARD COLOUR DEPTH
%
% DIR is the built submission (every *.pl file in it but this one is loaded), ENTRY the predicate's name
% from the suite's [entries] or '' (then the one arity-4 predicate no other clause calls is used), BOARD,
% COLOUR and DEPTH the predicate's first three arguments. The fourth, NextBoard, is printed on stdout as
% one line in the handout's notation. If the predicate fails, nothing is printed: that is a pass, which
% is right only when the side has no legal move (004:43-45). Whatever the student's code prints goes to
% stderr, so it can never be mistaken for a board. Errors are one line on stderr, exit status 2, saying
% what the student must fix.

:- initialization(grader_oska_main, main).

grader_oska_main :-
    current_prolog_flag(argv, Argv),
    (   Argv = [Dir, Entry, BoardText, ColourText, DepthText]
    ->  true
    ;   grader_oska_die('usage: oska_adapter.pl DIR ENTRY BOARD COLOUR DEPTH (got ~q)', [Argv])
    ),
    grader_oska_args(BoardText, ColourText, DepthText, Board, Colour, Depth),
    stream_property(Out, alias(user_output)),
    % From here on, anything written to user_output (print/1, format/2, write/1) lands on stderr.
    set_stream(user_error, alias(user_output)),
    set_output(user_error),
    grader_oska_cilog_syntax,
    grader_oska_load(Dir, Files),
    grader_oska_entry(Entry, Files, Name),
    Goal =.. [Name, Board, Colour, Depth, Next],
    (   catch(once(user:Goal), Error, grader_oska_raised(Name, Error))
    ->  (   ground(Next)
        ->  set_stream(Out, alias(user_output)),
            write_term(Out, Next, [quoted(false), ignore_ops(false), spacing(standard)]),
            nl(Out),
            flush_output(Out),
            halt(0)
        ;   grader_oska_die('`~w/4` succeeded but left the next board unbound or partly unbound (`~q`); bind its fourth argument to a complete board', [Name, Next])
        )
    ;   format(user_error, 'note: `~w/4` failed: no next board, which the grader reads as a pass~n', [Name]),
        halt(0)
    ).

grader_oska_args(BoardText, ColourText, DepthText, Board, Colour, Depth) :-
    (   catch(term_string(Board, BoardText), _, fail), is_list(Board)
    ->  true
    ;   grader_oska_die('the board argument `~w` is not a Prolog list (a grader bug)', [BoardText])
    ),
    atom_string(Colour, ColourText),
    (   catch(atom_number(DepthText, Depth), _, fail), integer(Depth)
    ->  true
    ;   grader_oska_die('the depth argument `~w` is not an integer (check the suite''s args)', [DepthText])
    ).

% CILOG writes rules `h <- b1 & b2` and negation `~ g` (the handout's language): read them as Prolog.
grader_oska_cilog_syntax :-
    op(1150, xfx, user:(<-)),
    op(950, xfy, user:(&)),
    op(900, fy, user:(~)),
    assertz((user:term_expansion('<-'(H, B), (H :- P)) :- grader_oska_body(B, P))).

grader_oska_body(V, V) :- var(V), !.
grader_oska_body('&'(A, B), (PA, PB)) :- !, grader_oska_body(A, PA), grader_oska_body(B, PB).
grader_oska_body('~'(A), \+ PA) :- !, grader_oska_body(A, PA).
grader_oska_body(A, A).

grader_oska_load(Dir, Files) :-
    (   exists_directory(Dir) -> true ; grader_oska_die('no folder `~w` (a grader bug)', [Dir]) ),
    directory_files(Dir, Names),
    findall(Path,
            ( member(N, Names),
              file_name_extension(_, Ext, N), memberchk(Ext, [pl, pro, cilog]),
              N \== 'oska_adapter.pl',
              directory_file_path(Dir, N, Path) ),
            Unsorted),
    sort(Unsorted, Paths),
    (   Paths == []
    ->  grader_oska_die('no Prolog file (*.pl) in your submission; hand in the file that defines your Oska predicate', [])
    ;   true
    ),
    maplist(grader_oska_consult, Paths),
    maplist([P, F]>>absolute_file_name(P, F), Paths, Files).

grader_oska_consult(Path) :-
    catch(load_files(user:Path, [if(true)]), Error,
          ( message_to_codes(Error, Text),
            grader_oska_die('loading `~w` failed: ~s', [Path, Text]) )).

message_to_codes(Error, Codes) :-
    (   catch(message_to_codes(Error, [], Codes0), _, fail) -> Codes = Codes0
    ;   format(codes(Codes), '~q', [Error])
    ).

% The predicate to call: the configured name, or the one arity-4 predicate that nothing else calls.
grader_oska_entry(Entry, _, Name) :-
    Entry \== '', !,
    (   current_predicate(user:Entry/4)
    ->  Name = Entry
    ;   grader_oska_die('no predicate `~w/4` in your file; the suite calls `~w(Board, Colour, Depth, NextBoard)`, so define it with exactly that name', [Entry, Entry])
    ).
grader_oska_entry(_, Files, Name) :-
    grader_oska_defined(Files, Defined),
    findall(N, member(N/4, Defined), Arity4),
    grader_oska_called(Files, Called),
    findall(N, ( member(N, Arity4), \+ memberchk(N/4, Called) ), Tops),
    (   Tops = [Name]
    ->  true
    ;   include([N]>>sub_atom(N, _, _, _, oska), Tops, [Name])
    ->  true
    ;   Tops == []
    ->  (   Arity4 == []
        ->  grader_oska_die('no predicate with four arguments (Board, Colour, Depth, NextBoard) in your file; define your Oska predicate', [])
        ;   grader_oska_die('every 4-argument predicate in your file is called by another, so none is the top level (~w); ask your instructor to name yours in the suite''s [entries]', [Arity4])
        )
    ;   atomic_list_concat(Tops, '`, `', List),
        grader_oska_die('several top-level 4-argument predicates in your file (`~w`); keep one, or ask your instructor to name yours in the suite''s [entries]', [List])
    ).

grader_oska_defined(Files, Defined) :-
    findall(N/A,
            ( member(F, Files), source_file(user:Head, F),
              functor(Head, N, A) ),
            Unsorted),
    sort(Unsorted, Defined).

% Every name/arity that appears as a callable term inside a clause body of another predicate of the
% student's files (a predicate calling itself is still top level): meta calls such as findall/3 are
% seen too, which is what "called by another" needs.
grader_oska_called(Files, Called) :-
    findall(N/A,
            ( member(F, Files), source_file(user:Head, F),
              \+ predicate_property(user:Head, dynamic),
              functor(Head, HN, HA),
              catch(clause(user:Head, Body), _, fail),
              sub_term(T, Body), callable(T),
              functor(T, N, A), N/A \== HN/HA ),
            Unsorted),
    sort(Unsorted, Called).

grader_oska_raised(Name, Error) :-
    message_to_codes(Error, Text),
    grader_oska_die('`~w/4` raised an error: ~s', [Name, Text]).

grader_oska_die(Format, Args) :-
    format(user_error, 'error: ', []),
    format(user_error, Format, Args),
    nl(user_error),
    halt(2).
