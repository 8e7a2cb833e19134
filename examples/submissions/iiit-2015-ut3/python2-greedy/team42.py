# Team 42 - UT3 agent for the course evaluator (python 2.7)
# greedy: take a cell that wins its block, else one that blocks the opponent there, else the first
# open cell of the first allowed block, centre first
import sys

SENDS = {0: [0, 1, 3], 2: [1, 2, 5], 6: [3, 6, 7], 8: [5, 7, 8]}
ROWS = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
ORDER = [4, 0, 2, 6, 8, 1, 3, 5, 7]


class Player42:
	def __init__(self):
		self.turns = 0

	def blocks_for(self, last):
		if last == (-1, -1):
			return range(9)
		cell = (last[0] % 3) * 3 + last[1] % 3
		if SENDS.has_key(cell):
			return SENDS[cell]
		return [cell]

	def open_cells(self, board, stat, blocks):
		out = []
		for b in blocks:
			if stat[b] != '-':
				continue
			for k in ORDER:
				# block b's top-left cell is row 3*(b/3), column 3*(b%3): integer division
				r = 3 * (b / 3) + k / 3
				c = 3 * (b % 3) + k % 3
				if board[r][c] == '-':
					out.append((r, c))
		return out

	def completes(self, board, cell, who):
		r0 = cell[0] - cell[0] % 3
		c0 = cell[1] - cell[1] % 3
		k = (cell[0] % 3) * 3 + cell[1] % 3
		for line in ROWS:
			if k not in line:
				continue
			others = [j for j in line if j != k]
			if all(board[r0 + j / 3][c0 + j % 3] == who for j in others):
				return True
		return False

	def move(self, current_board_game, board_stat, move_by_opponent, flag):
		self.turns += 1
		other = 'o'
		if flag == 'o':
			other = 'x'
		cells = self.open_cells(current_board_game, board_stat, self.blocks_for(move_by_opponent))
		if not cells:
			cells = self.open_cells(current_board_game, board_stat, range(9))
		for who in (flag, other):
			for cell in cells:
				if self.completes(current_board_game, cell, who):
					print "turn %d: %s takes %s" % (self.turns, flag, cell)
					return cell
		print "turn %d: %s plays %s" % (self.turns, flag, cells[0])
		return cells[0]
