;;; grader-sttt.scm: runs a CSci 1901 (2004) Super-Tic-Tac-Toe AI procedure under the grader's
;;; persistent protocol (src/arena/PROTOCOLS.md), so the student's file runs as it was handed in.
;;;
;;;   guile --no-auto-compile -s grader-sttt.scm DIR [ENTRY]
;;;
;;; DIR holds the student's one Scheme file (.scm, .ss, or .stk as STk users named theirs). ENTRY
;;; names the AI procedure; without it the adapter takes `my-ai` (the handout's template), else the one
;;; top-level procedure that takes (board who).
;;;
;;; Every turn the AI gets a fresh board read from the referee's line, exactly the handout's list
;;; `(big (little x () o ...) ...)`, and the symbol `x` or `o`. Its answer is written back as one line
;;; the referee reads leniently: well-formed placements `(b . l)` and `()` as they are, anything else
;;; as an ill-formatted placement (forfeited, handout rule 7). What the AI prints goes to stderr, it
;;; reads from an empty input, and a Scheme error ends the process with status 1 and a one-line reason
;;; (the referee records a crash: a loss). Every message is one line on stderr, what to fix first.

(use-modules (ice-9 rdelim)
             (ice-9 pretty-print)
             (ice-9 ftw)
             (srfi srfi-1))

(define adapter-name "grader-sttt.scm")

;; The protocol's own output port; the student's code never sees it.
(define protocol-out (current-output-port))
(set-port-encoding! protocol-out "UTF-8")

;; One line on stderr, the part the student must fix first: the grader quotes only the start of a
;; crashed player's last line in its verdicts (the record keeps the whole of it).
(define (fail . parts)
  (let ((err (current-error-port)))
    (for-each (lambda (p) (display p err)) parts)
    (newline err)
    (force-output err)
    (primitive-exit 1)))

;;; Finding the student's file and procedure.

(define scheme-suffixes '(".scm" ".ss" ".stk"))

(define (scheme-files dir)
  (let ((names (scandir dir (lambda (f)
                              (and (any (lambda (suffix) (string-suffix? suffix f)) scheme-suffixes)
                                   (not (string=? f adapter-name)))))))
    (or names (fail "cannot read the submission folder `" dir "`"))))

(define (exception-text key args)
  (let ((text (call-with-output-string
               (lambda (port) (print-exception port #f key args)))))
    (string-trim-both (string-map (lambda (c) (if (char=? c #\newline) #\space c)) text))))

;; Reads the file's top-level forms to learn which names it defines (for discovery only).
(define (top-level-names path)
  (catch #t
    (lambda ()
      (call-with-input-file path
        (lambda (port)
          (let loop ((names '()))
            (let ((form (read port)))
              (cond ((eof-object? form) (reverse names))
                    ((and (pair? form) (eq? (car form) 'define) (pair? (cdr form)))
                     (let ((target (cadr form)))
                       (loop (cond ((symbol? target) (cons target names))
                                   ((and (pair? target) (symbol? (car target)))
                                    (cons (car target) names))
                                   (else names)))))
                    (else (loop names))))))))
    (lambda (key . args) '())))

(define (takes-two? proc)
  (let* ((arity (procedure-minimum-arity proc))
         (req (car arity))
         (opt (cadr arity))
         (rest (caddr arity)))
    (and arity (<= req 2) (or rest (>= (+ req opt) 2)))))

(define (bound-procedure module name)
  (let ((var (module-variable module name)))
    (and var (variable-bound? var)
         (procedure? (variable-ref var))
         (variable-ref var))))

(define (load-student dir)
  (let ((files (scheme-files dir)))
    (cond ((null? files)
           (fail "no Scheme file (`*.scm`, `*.ss` or `*.stk`) in the submission; hint: hand in your AI as one .scm file"))
          ((pair? (cdr files))
           (fail "several Scheme files in the submission ("
                 (string-join (map (lambda (f) (string-append "`" f "`")) files) ", ")
                 "); hint: the handout asks for a single plain text file: put everything in one"))
          (else
           (let* ((file (car files))
                  (path (string-append dir "/" file))
                  (module (make-fresh-user-module)))
             (catch #t
               (lambda ()
                 (with-output-to-port (current-error-port)
                   (lambda ()
                     (with-input-from-string ""
                       (lambda ()
                         (save-module-excursion
                          (lambda ()
                            (set-current-module module)
                            (primitive-load path))))))))
               (lambda (key . args)
                 (fail (exception-text key args) " (while loading `" file
                       "`); hint: the file must load on its own, without the referee code")))
             (list file path module))))))

(define (find-entry file path module entry)
  (cond
   ((not (string-null? entry))
    (let ((name (string->symbol entry)))
      (check-entry file name (or (bound-procedure module name)
                                 (fail "`" file "` does not define the procedure `" entry
                                       "`; hint: the suite expects your AI under that name")))))
   ((bound-procedure module 'my-ai)
    => (lambda (proc) (check-entry file 'my-ai proc)))
   (else
    (let ((candidates
           (filter (lambda (name)
                     (let ((proc (bound-procedure module name)))
                       (and proc (takes-two? proc))))
                   (delete-duplicates (top-level-names path)))))
      (cond ((null? candidates)
             (fail "`" file "` defines no `my-ai` and no top-level procedure taking (board who); "
                   "hint: end your file with (define my-ai (make-ai)) as the handout's template does"))
            ((pair? (cdr candidates))
             (fail "`" file "` defines no `my-ai` and several top-level procedures taking two arguments ("
                   (string-join (map (lambda (n) (string-append "`" (symbol->string n) "`"))
                                     candidates)
                                ", ")
                   "); hint: name your AI `my-ai` as the handout's template does"))
            (else (check-entry file (car candidates)
                               (bound-procedure module (car candidates)))))))))

(define (check-entry file name proc)
  (if (takes-two? proc)
      (cons name proc)
      (fail "`" name "` in `" file "` does not take two arguments (board who); "
            "hint: the handout's template defines it as (define my-ai (make-ai))")))

;;; Writing the AI's answer so the referee can always read it.

;; Text the referee's reader takes as one datum of plain atoms and balanced parentheses.
(define (plain? text)
  (and (string-every (lambda (c)
                       (or (char-alphabetic? c) (char-numeric? c)
                           (memv c '(#\space #\( #\) #\. #\- #\+ #\* #\/ #\< #\> #\= #\! #\? #\_ #\:))))
                     text)
       (string-every (lambda (c) (char<? c #\x7f)) text)
       (let loop ((i 0) (depth 0))
         (cond ((< depth 0) #f)
               ((= i (string-length text)) (= depth 0))
               (else (loop (+ i 1)
                           (case (string-ref text i)
                             ((#\() (+ depth 1))
                             ((#\)) (- depth 1))
                             (else depth))))))))

(define (shown value width)
  (string-map (lambda (c) (if (char-whitespace? c) #\space c))
              (call-with-output-string
               (lambda (port) (truncated-print value port #:width width)))))

;; One token that is certainly not a placement: brackets for parentheses, no spaces, ASCII only.
(define (opaque text)
  (string-map (lambda (c)
                (cond ((char=? c #\() #\[)
                      ((char=? c #\)) #\])
                      ((char-whitespace? c) #\_)
                      ((char<? c #\x7f) c)
                      (else #\?)))
              text))

;; An index the referee can name back (outside 1..9 is its to judge); a bignum's digits could flood the line.
(define (index? n)
  (and (exact-integer? n) (< (abs n) 1000000)))

(define (placement->text p)
  (cond ((null? p) "()")
        ((and (pair? p) (index? (car p)) (index? (cdr p)))
         (string-append "(" (number->string (car p)) " . " (number->string (cdr p)) ")"))
        (else (let ((text (shown p 40)))
                (if (plain? text) text (opaque text))))))

(define (answer->text answer)
  (if (and (list? answer) (= (length answer) 2))
      (string-append "(" (placement->text (car answer)) " " (placement->text (cadr answer)) ")")
      (let ((text (shown answer 80)))
        (if (plain? text) text (opaque text)))))

;;; The protocol loop.

(define (split-tabs line)
  (let loop ((start 0) (fields '()))
    (let ((tab (string-index line #\tab start)))
      (if tab
          (loop (+ tab 1) (cons (substring line start tab) fields))
          (reverse (cons (substring line start) fields))))))

(define (reply text)
  (display text protocol-out)
  (newline protocol-out)
  (force-output protocol-out))

(define (call-ai name proc board who turn)
  (catch #t
    (lambda ()
      (with-output-to-port (current-error-port)
        (lambda ()
          (with-input-from-string ""
            (lambda () (proc board who))))))
    (lambda (key . args)
      (fail (exception-text key args) " (in your AI `" name "` on its turn " turn ")"))))

(define (play name proc)
  (let loop ((turn 1))
    (let ((line (read-line (current-input-port))))
      (unless (eof-object? line)
        (let ((fields (split-tabs line)))
          (cond
           ((string=? (car fields) "game")
            (reply "ready")
            (loop turn))
           ((and (string=? (car fields) "turn") (= (length fields) 4))
            (let ((who (string->symbol (list-ref fields 1)))
                  (board (with-input-from-string (list-ref fields 3) read)))
              (reply (answer->text (call-ai name proc board who turn)))
              (loop (+ turn 1))))
           ((string=? (car fields) "end") #t)
           (else (fail "unexpected line from the referee: `" line "`"))))))))

(define (main args)
  (let* ((dir (if (> (length args) 1) (cadr args) "."))
         (entry (if (> (length args) 2) (caddr args) ""))
         (loaded (load-student dir))
         (found (find-entry (car loaded) (cadr loaded) (caddr loaded) entry)))
    (play (car found) (cdr found))))

(main (command-line))
