;
; NAME(S) and ID#(S)
;   Example student: the handout's make-ai template, filled in
;
; PLEASE CHECK ONE OF THE FOLLOWING:
;  __X_   Tournament + regular assignment
; ---------------------------
;
; Written on the handout's template, keeping its local state in the closure: the previous board
; (to see where the opponent just played) and the number of turns played. Strategy: finish a
; little board I can win, else block a little board the opponent just threatened, else take
; centres, else the first open square.

; a sample AI player to serve as a general template

(define (make-ai)

  ; local state info, if any, might go here
  ; may include last move info, strategy info, previous board state
  (define previous-board #f)
  (define turns 0)

  (define lines '((1 2 3) (4 5 6) (7 8 9) (1 4 7) (2 5 8) (3 6 9) (1 5 9) (3 5 7)))

  ; square l (1..9) of little board b (1..9) in the handout's list structure
  (define (square board b l) (list-ref (list-ref board b) l))

  (define (winner board b)
    (let loop ((ls lines))
      (cond ((null? ls) #f)
            ((let ((s (square board b (car (car ls)))))
               (and (not (null? s))
                    (eq? s (square board b (cadr (car ls))))
                    (eq? s (square board b (caddr (car ls))))))
             (square board b (car (car ls))))
            (else (loop (cdr ls))))))

  (define (open? board b l)
    (and (null? (square board b l)) (not (winner board b))))

  ; a copy of the board with one more mark (the board we are given is a copy anyway)
  (define (with-mark board b l who)
    (let copy ((rows board) (i 0))
      (cond ((null? rows) '())
            ((= i b)
             (cons (let mark ((cells (car rows)) (j 0))
                     (cond ((null? cells) '())
                           ((= j l) (cons who (cdr cells)))
                           (else (cons (car cells) (mark (cdr cells) (+ j 1))))))
                   (cdr rows)))
            (else (cons (car rows) (copy (cdr rows) (+ i 1)))))))

  ; an open square of little board b that completes a line for `side`, or #f
  (define (completing board b side)
    (let loop ((l 1))
      (cond ((> l 9) #f)
            ((and (open? board b l) (eq? (winner (with-mark board b l side) b) side)) l)
            (else (loop (+ l 1))))))

  (define (other who) (if (eq? who 'x) 'o 'x))

  ; little boards where the opponent placed since my last turn
  (define (opponent-boards board)
    (if (not previous-board)
        '()
        (let loop ((b 1) (acc '()))
          (if (> b 9)
              (reverse acc)
              (loop (+ b 1)
                    (if (equal? (list-ref board b) (list-ref previous-board b)) acc (cons b acc)))))))

  (define (choose board who)
    (or (let loop ((b 1))
          (cond ((> b 9) #f)
                ((completing board b who) => (lambda (l) (cons b l)))
                (else (loop (+ b 1)))))
        (let loop ((bs (opponent-boards board)))
          (cond ((null? bs) #f)
                ((completing board (car bs) (other who)) => (lambda (l) (cons (car bs) l)))
                (else (loop (cdr bs)))))
        (let loop ((b 1))
          (cond ((> b 9) #f)
                ((open? board b 5) (cons b 5))
                (else (loop (+ b 1)))))
        (let loop ((i 0))
          (cond ((= i 81) '())
                ((open? board (+ 1 (quotient i 9)) (+ 1 (remainder i 9)))
                 (cons (+ 1 (quotient i 9)) (+ 1 (remainder i 9))))
                (else (loop (+ i 1)))))))

  (define (AI board who)  ; AI is entry point for our AI

    ; code to compute my move and update local state as needed
    ; this procedure returns a list of two moves representing
    ; the intended placements of my X/O's on the board
    (let* ((first (choose board who))
           (after (if (null? first) board (with-mark board (car first) (cdr first) who)))
           (second (choose after who)))
      (set! turns (+ turns 1))
      (set! previous-board
            (if (null? second) after (with-mark after (car second) (cdr second) who)))
      (list first second))
  )

  AI    ; AI (which operates in the environment referred to as the
        ; local state above) is returned from a call to make-ai
)

(define my-ai (make-ai))    ; create my-ai as AI in local state
