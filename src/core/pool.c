/* A fixed set of threads taking job indices from a shared counter. */
#include "core/pool.h"

#include <pthread.h>
#include <stdatomic.h>

enum { POOL_MAX_THREADS = 64 };

typedef struct Pool {
    PoolJob job;
    void *context;
    int count;
    atomic_int next;
} Pool;

static void *pool_work(void *arg)
{
    Pool *pool = arg;
    for (int i; (i = atomic_fetch_add(&pool->next, 1)) < pool->count;)
        pool->job(pool->context, i);
    return NULL;
}

void pool_run(int count, int threads, PoolJob job, void *context)
{
    Pool pool = {job, context, count, 0};
    if (threads > POOL_MAX_THREADS)
        threads = POOL_MAX_THREADS;
    pthread_t ids[POOL_MAX_THREADS];
    int started = 0;
    for (int t = 1; t < threads && t < count; ++t) {
        if (pthread_create(&ids[started], NULL, pool_work, &pool) != 0)
            break;
        ++started;
    }
    pool_work(&pool);
    for (int t = 0; t < started; ++t)
        pthread_join(ids[t], NULL);
}
