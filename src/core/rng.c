#include "core/rng.h"

void qg_rng_seed(qg_rng *rng, uint64_t seed, uint64_t stream)
{
    rng->state = 0;
    rng->inc = (stream << 1) | 1u;
    qg_rng_next(rng);
    rng->state += seed;
    qg_rng_next(rng);
}

uint32_t qg_rng_next(qg_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ULL + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32 - rot) & 31));
}

int32_t qg_rng_below(qg_rng *rng, int32_t n)
{
    if (n <= 0)
        return 0;
    uint32_t bound = (uint32_t)n;
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t r = qg_rng_next(rng);
        if (r >= threshold)
            return (int32_t)(r % bound);
    }
}

int32_t qg_rng_range(qg_rng *rng, int32_t lo, int32_t hi)
{
    if (hi <= lo)
        return lo;
    int64_t span = (int64_t)hi - lo + 1;
    if (span > INT32_MAX)
        return (int32_t)(lo + (int64_t)(qg_rng_real(rng) * (double)span));
    return lo + qg_rng_below(rng, (int32_t)span);
}

int qg_rng_coinflip(qg_rng *rng)
{
    return (int)(qg_rng_next(rng) >> 31);
}

int qg_rng_one_chance_in(qg_rng *rng, int32_t n)
{
    return n <= 1 || qg_rng_below(rng, n) == 0;
}

int qg_rng_x_chance_in_y(qg_rng *rng, int32_t x, int32_t y)
{
    if (x <= 0)
        return 0;
    if (x >= y)
        return 1;
    return qg_rng_below(rng, y) < x;
}

double qg_rng_real(qg_rng *rng)
{
    uint64_t hi = qg_rng_next(rng) >> 5;
    uint64_t lo = qg_rng_next(rng) >> 6;
    return (double)(hi * 67108864.0 + lo) / 9007199254740992.0;
}

void qg_rng_split(qg_rng *rng, qg_rng *child)
{
    uint64_t seed = ((uint64_t)qg_rng_next(rng) << 32) | qg_rng_next(rng);
    uint64_t stream = ((uint64_t)qg_rng_next(rng) << 32) | qg_rng_next(rng);
    qg_rng_seed(child, seed, stream);
}
