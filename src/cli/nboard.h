/* The NBoard protocol (version 2, accepting 1), as the NBoard GUI speaks it: see
 * man/octuple.6 and the protocol notes. Searches run in the engine's thread; any input that
 * arrives during a search stops it (what it had is printed and the GUI discards it as stale),
 * then the input is handled, so a `ping` is answered within milliseconds. */
#ifndef OCTUPLE_NBOARD_H
#define OCTUPLE_NBOARD_H

#include <stdio.h>

#include "engine/engine.h"
#include "cli/input.h"

/* Serves the protocol on `input` until `quit` or the end of input (which stops a running
 * search). `version` > 0: the handshake (`nboard N`) already happened (the REPL's `nboard`
 * command), so it is answered first. Returns the exit status (0). */
int nboard_run(Engine *engine, Input *input, FILE *out, int version);

#endif
