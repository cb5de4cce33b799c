/* The Go Text Protocol (version 2) as Othello programs speak it, for GUIs such as Quarry
 * and for match runners: `play black f5`, `genmove white`, moves in Othello's coordinates
 * (a1 top left), `pass`. Commands are answered one at a time, in order: `=ID text` or
 * `?ID message`, then a blank line. See man/octuple.6. */
#ifndef OCTUPLE_GTP_H
#define OCTUPLE_GTP_H

#include <stdio.h>

#include "engine/engine.h"
#include "cli/input.h"

/* Serves the protocol on `input` until `quit` or the end of input. Returns the exit
 * status (0). */
int gtp_run(Engine *engine, Input *input, FILE *out);

#endif
