# CS4341 Project 1, run as `python tictactoe.py` (Python 2.7): the game lives in the package `ttt`.
from ttt.main import main

main()
