# The rules that rebuild the shipped data from the databases in $(SHARED_DATA) (default
# ../shared/data beside the source tree): the networks, their ProbCut parameters and shapes,
# the labelled positions, the solver's tuning set and the opening book. None of them runs in
# `make`, `make check` or `make distcheck`; each writes into the source tree (or the build
# tree for labels.obf and solve-dev.obf). Included by Makefile.am.

.PHONY: weights-import weights-train weights-mpc weights-shapes solvebench book

# The fallback network: Figure 7 of Jaskowski, "Systematic N-tuple Networks for Position
# Evaluation: Exceeding 90% in the Othello League" (2014), transcribed in League text format,
# converted to the binary weights file. Rerun after editing the text or the file format.
weights-import: tools/weightstool$(EXEEXT)
	tools/weightstool$(EXEEXT) import-league $(srcdir)/weights/jaskowski-all2.txt \
	  $(srcdir)/weights/jaskowski-all2.ow

# The shipped trained network: Logistello's games, the WTHOR games down to 24 empties with
# their theoretical scores, and solved positions of sampled WTHOR games (labels.obf, made by
# the rule below when missing). Deterministic for the seeds; about 3 minutes on one core.
weights-train: src/octuple-train$(EXEEXT) labels.obf
	src/octuple-train$(EXEEXT) regress --logbook "$(SHARED_DATA)/logbook.gam.gz" \
	  --wthor "$(SHARED_DATA)/wthor" --labels labels.obf --shape edax \
	  --phase-width 2 --epochs 16 --seed 1 \
	  --name "octuple edax regression: logbook, WTHOR, solved positions" \
	  --out $(srcdir)/weights/octuple.ow

# The midgame Multi-ProbCut parameters of the shipped network (weights/octuple.mpc, loaded
# with octuple.ow): 4,800 positions of the WTHOR games at 10-57 empties searched by iterative
# deepening to depth 10 without cuts, and the constant endgame error model that turns on the
# selective pass before exact solves. Deterministic for the seed; about 6 minutes on one core.
weights-mpc: src/octuple-train$(EXEEXT)
	src/octuple-train$(EXEEXT) mpc --weights $(srcdir)/weights/octuple.ow \
	  --wthor "$(SHARED_DATA)/wthor" --min-empties 10 --max-empties 57 --per-empties 100 \
	  --max-depth 10 --seed 1 --endgame-sigma 4 --out $(srcdir)/weights/octuple.mpc

# Shapes for the game stages by the phase-shape paper's island GA (weights/shapes/move-T.shape)
# at a reduced scale: 5 islands (the moves of its Table 3 agent), 20 individuals each, 15
# generations (the paper: 8 islands of 100, thousands of generations). About 4 minutes on two
# cores; deterministic for the seed whatever the number of threads.
weights-shapes: src/octuple-train$(EXEEXT)
	src/octuple-train$(EXEEXT) shapes --logbook "$(SHARED_DATA)/logbook.gam.gz" \
	  --out-dir $(srcdir)/weights/shapes --islands 30,34,38,42,46 --population 20 --elite 4 \
	  --mutants 4 --migration-interval 5 --migration-size 2 --generations 15 --seed 1

# Exact scores of 396,092 positions of sampled WTHOR games at 10-21 empties: about 100 minutes
# on one core. The scores are exact, so they do not depend on the weights ordering the solver
# (among equal moves the one written may differ; the trainer reads only the score).
LABEL_RUN = src/octuple-train$(EXEEXT) label --wthor "$(SHARED_DATA)/wthor" \
	  --weights $(srcdir)/weights/octuple.ow
labels.obf: | src/octuple-train$(EXEEXT)
	$(LABEL_RUN) --empties 10,12,14,16,18 --games 30000 --seed 1 --out labels-1.obf
	$(LABEL_RUN) --empties 20 --games 4000 --seed 2 --out labels-2.obf
	$(LABEL_RUN) --empties 21 --games 3000 --seed 3 --out labels-3.obf
	$(LABEL_RUN) --empties 11,12,13,14,15,16,17,18 --games 30000 --seed 5 --out labels-5.obf
	cat labels-1.obf labels-2.obf labels-3.obf labels-5.obf > labels.obf.tmp
	mv labels.obf.tmp labels.obf

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
# shipped network for its best move out of the book, negamaxed. 4,673 s on two cores; the
# same bytes whatever the number of threads (book/README.md).
book: src/octuple-train$(EXEEXT)
	src/octuple-train$(EXEEXT) book --weights $(srcdir)/weights/octuple.ow \
	  --logbook "$(SHARED_DATA)/logbook.gam.gz" --wthor "$(SHARED_DATA)/wthor" \
	  --plies 30 --min-games 2 --depth 10 --out $(srcdir)/book/octuple.book
