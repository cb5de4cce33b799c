/* Monotonic time, for deadlines and durations (never the wall clock, which may jump). */
#ifndef OCTUPLE_TIMING_H
#define OCTUPLE_TIMING_H

/* Seconds since an unspecified start (CLOCK_MONOTONIC). */
double monotonic_seconds(void);

#endif
