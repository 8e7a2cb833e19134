;
; NAME(S) and ID#(S)
;   Example student: flawed, plays the first empty square, forgetting that a won little board is closed (rule 6)
;
; PLEASE CHECK ONE OF THE FOLLOWING:
;  __X_   Tournament + regular assignment
; ---------------------------
;
; Places its two marks on open squares chosen at random (like the referee's random-ai).

(define (make-ai)

  ; the eight lines of a 3x3 board, squares numbered 0..8 in reading order
  (define lines '((0 1 2) (3 4 5) (6 7 8) (0 3 6) (1 4 7) (2 5 8) (0 4 8) (2 4 6)))

  ; the board as a vector of 81 squares, 9 * big + little (both 0-based)
  (define (board->vector board)
    (let ((v (make-vector 81 '())))
      (let loop ((littles (cdr board)) (b 0))
        (if (pair? littles)
            (begin
              (let inner ((squares (cdar littles)) (l 0))
                (if (pair? squares)
                    (begin (vector-set! v (+ (* 9 b) l) (car squares))
                           (inner (cdr squares) (+ l 1)))))
              (loop (cdr littles) (+ b 1)))))
      v))

  (define (square v b l) (vector-ref v (+ (* 9 b) l)))

  (define (winner v b)
    (let loop ((ls lines))
      (if (null? ls)
          #f
          (let ((a (square v b (car (car ls)))))
            (if (and (symbol? a)
                     (eq? a (square v b (cadr (car ls))))
                     (eq? a (square v b (caddr (car ls)))))
                a
                (loop (cdr ls)))))))

  (define (open-squares v)
    (let loop ((i 80) (acc '()))
      (if (< i 0)
          acc
          (let ((b (quotient i 9)) (l (remainder i 9)))
            (loop (- i 1)
                  (if (null? (square v b l))  ; flaw: forgets that won boards are closed
                      (cons (cons b l) acc)
                      acc))))))

  (define (pick lst) (car lst))

  (define (place v p who) (vector-set! v (+ (* 9 (car p)) (cdr p)) who))

  (define (external p) (if (null? p) '() (cons (+ (car p) 1) (+ (cdr p) 1))))

  (define (AI board who)
    (let* ((v (board->vector board))
           (first (pick (open-squares v))))
      (place v first who)
      (let ((left (open-squares v)))
        (list (external first)
              (if (null? left) '() (external (pick left)))))))

  AI)

(define my-ai (make-ai))
