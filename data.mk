# The rules that rebuild the shipped data from the databases in $(SHARED_DATA) (default
# ../shared/data beside the source tree): the networks, their ProbCut parameters and shapes,
# the labelled positions, the solver's tuning set and the opening book. None of them runs in
# `make`, `make check` or `make distcheck`; each writes into the source tree (or the build
# tree for labels.obf and solve-dev.obf). Included by Makefile.am.

.PHONY: weights-import weights-train weights-mpc weights-shapes solvebench book test-data \
	weights-error test-data-deep weights-error-deep

# The fallback network: Figure 7 of Jaskowski, "Systematic N-tuple Networks for Position
# Evaluation: Exceeding 90% in the Othello League" (2014), transcribed in League text format,
# converted to the binary weights file. Rerun after editing the text or the file format.
weights-import: tools/weightstool$(EXEEXT)
	tools/weightstool$(EXEEXT) import-league $(srcdir)/weights/jaskowski-all2.txt \
	  $(srcdir)/weights/jaskowski-all2.ow

# Generated training data lives outside the tree, in $(DATA_CACHE) (default
# $XDG_CACHE_HOME/octuple, else ~/.cache/octuple); each file is rebuilt byte for byte from the
# commands below when missing. Self-play games of seed 1 and the labels are played and
# ordered by weights/octuple-r0.ow, those of seed 2 by weights/octuple-r1.ow: the two
# networks before the shipped one (their bytes are in the history already, so keeping them
# costs the repository nothing).
DATA_CACHE ?= $${XDG_CACHE_HOME:-$$HOME/.cache}/octuple
GENERATOR = $(srcdir)/weights/octuple-r0.ow
GENERATOR2 = $(srcdir)/weights/octuple-r1.ow
SELFPLAY_SHARDS = 0 1 2 3
SELFPLAY_GAMES = 2000
SELFPLAY2_GAMES = 1121
.PHONY: selfplay-data label-data

# Self-play games (octuple-train selfplay): shards of 2,000 games of seed 1, 8-50 random
# opening moves, depth 7, exact from 20 empties, and the first 1,121 games of seed 2 with
# the depth-7 score of each move's search stored as a second label (--label-depth 7 costs
# nothing at the depth of play; regress --position-target reads it). About 15 minutes for
# 2,000 games on two cores. An interrupted file resumes where it stopped.
selfplay-data: src/octuple-train$(EXEEXT)
	mkdir -p "$(DATA_CACHE)"
	for k in $(SELFPLAY_SHARDS); do \
	  src/octuple-train$(EXEEXT) selfplay --weights $(GENERATOR) \
	    --out "$(DATA_CACHE)/selfplay-1-$$k.opos" --games $(SELFPLAY_GAMES) \
	    --first-game `expr $$k \* $(SELFPLAY_GAMES)` --seed 1 || exit 1; \
	done
	src/octuple-train$(EXEEXT) selfplay --weights $(GENERATOR2) \
	  --out "$(DATA_CACHE)/selfplay-2.opos" --games $(SELFPLAY2_GAMES) --seed 2 --label-depth 7

# Held-out positions for `octuple-train error`: 139 games of seed 1000, solved from 22 empties
# (the exactly labelled positions at 1-22 empties), never trained on. About 15 minutes on
# one core.
test-data: src/octuple-train$(EXEEXT)
	mkdir -p "$(DATA_CACHE)"
	src/octuple-train$(EXEEXT) selfplay --weights $(GENERATOR) \
	  --out "$(DATA_CACHE)/test-1000.opos" --games 139 --seed 1000 --exact 22 --hash 32

# Held-out positions further from the end: 33 games of seed 1001 opening with 28-33 random
# moves, solved from 24 empties, each position above that labelled by the depth-12 search
# stored with it (error --labelled search reads it), never trained on.
test-data-deep: src/octuple-train$(EXEEXT)
	mkdir -p "$(DATA_CACHE)"
	src/octuple-train$(EXEEXT) selfplay --weights $(GENERATOR) \
	  --out "$(DATA_CACHE)/test-1001.opos" --games 33 --seed 1001 --random-moves 28:33 \
	  --exact 24 --label-depth 12 --hash 64

# Exact scores of positions of sampled WTHOR games at 10-18 empties (octuple-train label):
# three runs, about 19 minutes on one core (541, 302 and 284 s).
LABEL_RUN = src/octuple-train$(EXEEXT) label --wthor "$(SHARED_DATA)/wthor" --weights $(GENERATOR)
label-data: src/octuple-train$(EXEEXT)
	mkdir -p "$(DATA_CACHE)"
	test -f "$(DATA_CACHE)/labels-1.obf" || $(LABEL_RUN) --empties 10,12,14,16,18 \
	  --games 9000 --seed 1 --out "$(DATA_CACHE)/labels-1.obf"
	test -f "$(DATA_CACHE)/labels-5.obf" || $(LABEL_RUN) --empties 11,13,15,17 \
	  --games 11000 --seed 5 --out "$(DATA_CACHE)/labels-5.obf"
	test -f "$(DATA_CACHE)/labels-3.obf" || $(LABEL_RUN) --empties 11,13,15,17 \
	  --games 11000 --seed 3 --out "$(DATA_CACHE)/labels-3.obf"
	cat "$(DATA_CACHE)/labels-1.obf" "$(DATA_CACHE)/labels-5.obf" "$(DATA_CACHE)/labels-3.obf" \
	  > "$(DATA_CACHE)/labels.obf"

# The shipped network (weights/octuple.ow): full-batch Adam (octuple-train regress) on every
# position of Logistello's games (final result), the WTHOR games down to 24 empties (their
# theoretical scores), the solved WTHOR positions and the self-play positions (their games'
# results, exact from 20 empties), the last two counted 8 times; a weight set per six move
# numbers. About 5 minutes on two cores.
weights-train: src/octuple-train$(EXEEXT) selfplay-data label-data
	src/octuple-train$(EXEEXT) regress --logbook "$(SHARED_DATA)/logbook.gam.gz" \
	  --wthor "$(SHARED_DATA)/wthor" \
	  --labels "$(DATA_CACHE)/labels.obf" \
	  --positions `for k in $(SELFPLAY_SHARDS); do printf '%s,' "$(DATA_CACHE)/selfplay-1-$$k.opos"; done`"$(DATA_CACHE)/selfplay-2.opos" \
	  --label-weight 8 --optimizer adam --rate 0.2 --epochs 400 --shape edax --phase-width 6 \
	  --seed 1 --threads 2 --name "octuple edax adam, 6-move phases: logbook, WTHOR, self-play" \
	  --out $(srcdir)/weights/octuple.ow

# The held-out error of the shipped network by empties (static, 1-4 plies).
weights-error: src/octuple-train$(EXEEXT) test-data
	src/octuple-train$(EXEEXT) error --weights $(srcdir)/weights/octuple.ow \
	  --positions "$(DATA_CACHE)/test-1000.opos" --depth 4 --per-empties 1000

# The same from 1 to 30 empties: exact scores to 24 empties, depth-12 searches above.
weights-error-deep: src/octuple-train$(EXEEXT) test-data-deep
	src/octuple-train$(EXEEXT) error --weights $(srcdir)/weights/octuple.ow \
	  --positions "$(DATA_CACHE)/test-1001.opos" --depth 4 --labelled search

# The midgame Multi-ProbCut parameters of the shipped network (weights/octuple.mpc, loaded
# with octuple.ow): 4,800 positions of the WTHOR games at 10-57 empties searched by iterative
# deepening to depth 10 without cuts, and the constant endgame error model that turns on the
# selective pass before exact solves. Deterministic for the seed; about 6 minutes on one core.
weights-mpc: src/octuple-train$(EXEEXT)
	src/octuple-train$(EXEEXT) mpc --weights $(srcdir)/weights/octuple.ow \
	  --wthor "$(SHARED_DATA)/wthor" --min-empties 10 --max-empties 57 --per-empties 100 \
	  --max-depth 10 --seed 1 --endgame-sigma 8 --out $(srcdir)/weights/octuple.mpc

# Shapes for the game stages by the phase-shape paper's island GA (weights/shapes/move-T.shape)
# at a reduced scale: 5 islands (the moves of its Table 3 agent), 20 individuals each, 15
# generations (the paper: 8 islands of 100, thousands of generations). About 4 minutes on two
# cores; deterministic for the seed whatever the number of threads.
weights-shapes: src/octuple-train$(EXEEXT)
	src/octuple-train$(EXEEXT) shapes --logbook "$(SHARED_DATA)/logbook.gam.gz" \
	  --out-dir $(srcdir)/weights/shapes --islands 30,34,38,42,46 --population 20 --elite 4 \
	  --mutants 4 --migration-interval 5 --migration-size 2 --generations 15 --seed 1

# The solver's tuning set, apart from FForum so that no setting is fitted to the benchmark
# that judges it: 70 positions of sampled WTHOR games at 22 empties (exact scores, about 90 s
# to make), solved on one thread. The node count repeats exactly; a change in speed shows
# only in the times of two runs side by side, the host being noisy.
solve-dev.obf: | src/octuple-train$(EXEEXT)
	$(LABEL_RUN) --empties 22 --games 70 --seed 99 --out solve-dev.obf.tmp
	mv solve-dev.obf.tmp solve-dev.obf
solvebench: src/octuple$(EXEEXT) solve-dev.obf
	src/octuple$(EXEEXT) --solve solve-dev.obf --threads 1 --hash 256

# The opening book (book/octuple.book): the positions of the first 30 moves of Logistello's
# games and the WTHOR games that at least 2 games reached, each searched at depth 10 with the
# shipped network for its best move out of the book, negamaxed. 3,427 s on two cores; the
# same bytes whatever the number of threads (book/README.md).
book: src/octuple-train$(EXEEXT)
	src/octuple-train$(EXEEXT) book --weights $(srcdir)/weights/octuple.ow \
	  --logbook "$(SHARED_DATA)/logbook.gam.gz" --wthor "$(SHARED_DATA)/wthor" \
	  --plies 30 --min-games 2 --depth 10 --out $(srcdir)/book/octuple.book
