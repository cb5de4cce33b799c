/* Runs `count` independent jobs on up to `threads` threads (the calling one included), each
 * job given its index; jobs must not touch each other's data. Deterministic results need
 * no more than that: a job's outcome depends on its index, not on which thread ran it. */
#ifndef OCTUPLE_POOL_H
#define OCTUPLE_POOL_H

typedef void (*PoolJob)(void *context, int index);

/* Falls back to the calling thread alone when no thread can be started. */
void pool_run(int count, int threads, PoolJob job, void *context);

#endif
