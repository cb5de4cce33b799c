/* The project's one seeded generator (splitmix64): small, the same on every platform, so
 * trained weights, samples and generated openings repeat for a seed. Not for secrets. */
#ifndef OCTUPLE_RNG_H
#define OCTUPLE_RNG_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform double in [0, 1): the top 53 bits. */
static inline double rng_unit(uint64_t *state)
{
    return (double)(rng_next(state) >> 11) * 0x1.0p-53;
}

/* A standard normal deviate (Box-Muller, one of the pair). */
static inline double rng_gaussian(uint64_t *state)
{
    double u = 1.0 - rng_unit(state); /* (0, 1]: the logarithm stays finite */
    double v = rng_unit(state);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Fills order[0..count) with 0..count-1 in a seeded random order (Fisher-Yates). */
static inline void rng_shuffle_indices(size_t *order, size_t count, uint64_t *state)
{
    for (size_t i = 0; i < count; ++i)
        order[i] = i;
    for (size_t i = count; i > 1; --i) {
        size_t j = (size_t)(rng_next(state) % i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

#endif
