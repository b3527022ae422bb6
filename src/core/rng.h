/* The project's own random number generator (PCG32): the same seed gives
 * the same stream on every machine, independent of libc and of Lua. */
#ifndef QG_CORE_RNG_H
#define QG_CORE_RNG_H

#include <stdint.h>

typedef struct qg_rng {
    uint64_t state;
    uint64_t inc;
} qg_rng;

void qg_rng_seed(qg_rng *rng, uint64_t seed, uint64_t stream);
uint32_t qg_rng_next(qg_rng *rng);
/* Uniform in [0, n); 0 when n <= 0. Unbiased. */
int32_t qg_rng_below(qg_rng *rng, int32_t n);
/* Uniform in [lo, hi] (inclusive); lo when hi < lo. */
int32_t qg_rng_range(qg_rng *rng, int32_t lo, int32_t hi);
int qg_rng_coinflip(qg_rng *rng);
int qg_rng_one_chance_in(qg_rng *rng, int32_t n);
int qg_rng_x_chance_in_y(qg_rng *rng, int32_t x, int32_t y);
/* Uniform in [0, 1). */
double qg_rng_real(qg_rng *rng);
/* Derives an independent generator (for a sub-task) from this one. */
void qg_rng_split(qg_rng *rng, qg_rng *child);

#endif
