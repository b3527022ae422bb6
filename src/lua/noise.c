/* The noise functions Crawl gives the procedural layouts (layout/
 * procedural.lua): crawl.worley, crawl.worley_diff (Worley's cellular
 * noise) and crawl.simplex (simplex noise in 2 to 4 dimensions), and
 * crawl.split_bytes for the cell ids. Written from the algorithms'
 * descriptions; Worley noise has Crawl's scale (feature points Poisson
 * distributed with mean 2.5 per cube, distances scaled so that the mean
 * nearest distance is 1), and both are pure functions of their input, so
 * a seed gives the same level everywhere. The values are not Crawl's own
 * (its cube hash table and permutation are not reproduced). */
#include "lua/rt.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>

/* ---- Worley (cellular) noise ---------------------------------------------- */

#define WORLEY_DENSITY 0.398150
#define WORLEY_MEAN 2.5

static uint32_t churn(uint32_t seed)
{
    return 1402024253u * seed + 586950981u;
}

/* How many feature points a cube holds, from the top byte of its hash:
 * the Poisson(2.5) quantile of the byte's slice of [0, 1). */
static int points_table[256];
static pthread_once_t points_made = PTHREAD_ONCE_INIT;

/* Made once for all runtimes, whichever threads they run on. */
static void make_points_table(void)
{
    for (int i = 0; i < 256; i++) {
        double u = (i + 0.5) / 256.0, p = exp(-WORLEY_MEAN), cdf = p;
        int k = 0;
        while (cdf < u && k < 9) {
            k++;
            p *= WORLEY_MEAN / k;
            cdf += p;
        }
        points_table[i] = k;
    }
}

static int points_in_cube(uint32_t hash)
{
    pthread_once(&points_made, make_points_table);
    return points_table[hash >> 24];
}

typedef struct nearest {
    double d2[2];
    uint32_t id[2];
    double delta[2][3];
} nearest;

static void consider_cube(int32_t xi, int32_t yi, int32_t zi, const double at[3], nearest *n)
{
    uint32_t seed = 702395077u * (uint32_t)xi + 915488749u * (uint32_t)yi +
                    2120969693u * (uint32_t)zi;
    int count = points_in_cube(seed);
    seed = churn(seed);
    for (int j = 0; j < count; j++) {
        uint32_t id = seed;
        double f[3];
        for (int a = 0; a < 3; a++) {
            seed = churn(seed);
            f[a] = (seed + 0.5) / 4294967296.0;
        }
        seed = churn(seed);
        double d[3] = {xi + f[0] - at[0], yi + f[1] - at[1], zi + f[2] - at[2]};
        double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        int slot = d2 < n->d2[0] ? 0 : d2 < n->d2[1] ? 1 : 2;
        if (slot == 2)
            continue;
        if (slot == 0) {
            n->d2[1] = n->d2[0];
            n->id[1] = n->id[0];
            for (int a = 0; a < 3; a++)
                n->delta[1][a] = n->delta[0][a];
        }
        n->d2[slot] = d2;
        n->id[slot] = id;
        for (int a = 0; a < 3; a++)
            n->delta[slot][a] = d[a];
    }
}

/* The two nearest feature points to (x, y, z): every cube of the 3x3x3
 * block around the point's cube that could hold one nearer than the
 * second found so far. */
static void worley(double x, double y, double z, nearest *n)
{
    double at[3] = {x * WORLEY_DENSITY, y * WORLEY_DENSITY, z * WORLEY_DENSITY};
    int32_t cube[3];
    double low[3], high[3];
    for (int a = 0; a < 3; a++) {
        double f = floor(at[a]);
        cube[a] = f < -2e9 ? INT32_MIN : f > 2e9 ? INT32_MAX : (int32_t)f;
        low[a] = (at[a] - f) * (at[a] - f);
        high[a] = (1.0 - (at[a] - f)) * (1.0 - (at[a] - f));
    }
    n->d2[0] = n->d2[1] = 1e38;
    consider_cube(cube[0], cube[1], cube[2], at, n);
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy && !dz)
                    continue;
                const int d[3] = {dx, dy, dz};
                double reach = 0;
                for (int a = 0; a < 3; a++)
                    reach += d[a] < 0 ? low[a] : d[a] > 0 ? high[a] : 0;
                if (reach < n->d2[1])
                    consider_cube(cube[0] + dx, cube[1] + dy, cube[2] + dz, at, n);
            }
    for (int i = 0; i < 2; i++) {
        n->d2[i] = sqrt(n->d2[i]) / WORLEY_DENSITY;
        for (int a = 0; a < 3; a++)
            n->delta[i][a] /= WORLEY_DENSITY;
    }
}

static double arg_number(lua_State *L, int i)
{
    double v = lua_isnoneornil(L, i) ? 0 : luaL_checknumber(L, i);
    return isfinite(v) ? v : 0;
}

/* crawl.worley(x, y, z): the nearest two distances, their ids, and the
 * offsets from the point to each (x, y, z). */
static int l_worley(lua_State *L)
{
    nearest n;
    worley(arg_number(L, 1), arg_number(L, 2), arg_number(L, 3), &n);
    lua_pushnumber(L, n.d2[0]);
    lua_pushnumber(L, n.d2[1]);
    lua_pushinteger(L, n.id[0]);
    lua_pushinteger(L, n.id[1]);
    for (int i = 0; i < 2; i++)
        for (int a = 0; a < 3; a++)
            lua_pushnumber(L, n.delta[i][a]);
    return 10;
}

/* crawl.worley_diff(x, y, z): the second distance less the first, and
 * the nearest point's id. */
static int l_worley_diff(lua_State *L)
{
    nearest n;
    worley(arg_number(L, 1), arg_number(L, 2), arg_number(L, 3), &n);
    lua_pushnumber(L, n.d2[1] - n.d2[0]);
    lua_pushinteger(L, n.id[0]);
    return 2;
}

/* crawl.split_bytes(n): the four bytes of a 32-bit number, most
 * significant first. */
static int l_split_bytes(lua_State *L)
{
    double v = arg_number(L, 1);
    uint32_t n = (uint32_t)(int64_t)fmod(trunc(v), 4294967296.0);
    for (int shift = 24; shift >= 0; shift -= 8)
        lua_pushinteger(L, (n >> shift) & 0xff);
    return 4;
}

/* ---- simplex noise ---------------------------------------------------------- */

/* A fixed permutation of 0..255, twice over: a shuffle by a fixed
 * generator, the same on every machine. */
static unsigned char perm_table[512];
static pthread_once_t perm_made = PTHREAD_ONCE_INIT;

static void make_permutation(void)
{
    qg_rng rng;
    qg_rng_seed(&rng, 0x51a9e7ull, 7);
    for (int i = 0; i < 256; i++)
        perm_table[i] = (unsigned char)i;
    for (int i = 255; i > 0; i--) {
        int j = qg_rng_below(&rng, i + 1);
        unsigned char t = perm_table[i];
        perm_table[i] = perm_table[j];
        perm_table[j] = t;
    }
    for (int i = 0; i < 256; i++)
        perm_table[256 + i] = perm_table[i];
}

static const unsigned char *permutation(void)
{
    pthread_once(&perm_made, make_permutation);
    return perm_table;
}

/* The gradient a hash picks: one of the directions from the centre of a
 * hypercube to the middle of an edge (in 4D, of a 2-face) with the
 * coordinates outside dims left out. */
static double gradient(int hash, const double *d, int dims)
{
    double sum = 0;
    /* in 2D as in 3D with z = 0: diagonals and axes */
    int skip = dims == 4 ? hash % 4 : hash % 3;
    for (int a = 0, bit = 0; a < dims; a++) {
        if (a == skip)
            continue;
        sum += (hash >> (2 + bit)) & 1 ? -d[a] : d[a];
        bit++;
    }
    return sum;
}

/* Simplex noise in dims (2 to 4) dimensions, in [-1, 1]: the point skewed
 * onto the simplex grid, the corners of its simplex found by ranking the
 * offsets, each corner's gradient weighted by (r^2 - distance^2)^4. */
static double simplex(const double *p, int dims)
{
    static const double scale[5] = {0, 0, 70.0, 32.0, 27.0};
    const unsigned char *perm = permutation();
    double f = (sqrt(dims + 1.0) - 1.0) / dims, g = (1.0 - 1.0 / sqrt(dims + 1.0)) / dims;
    double s = 0, t = 0, x0[4];
    int cell[4], rank[4] = {0, 0, 0, 0};
    for (int a = 0; a < dims; a++)
        s += p[a];
    s *= f;
    for (int a = 0; a < dims; a++)
        cell[a] = (int)floor(p[a] + s);
    for (int a = 0; a < dims; a++)
        t += cell[a];
    t *= g;
    for (int a = 0; a < dims; a++)
        x0[a] = p[a] - (cell[a] - t);
    for (int a = 0; a < dims; a++)
        for (int b = a + 1; b < dims; b++)
            rank[x0[a] > x0[b] ? a : b]++;
    double total = 0;
    for (int corner = 0; corner <= dims; corner++) {
        double d[4], r2 = dims == 2 ? 0.5 : 0.6;
        int hash = 0;
        for (int a = dims - 1; a >= 0; a--) {
            int step = corner == 0 ? 0 : rank[a] >= dims - corner;
            d[a] = x0[a] - step + corner * g;
            hash = perm[(hash + ((cell[a] + step) & 255)) & 511];
        }
        for (int a = 0; a < dims; a++)
            r2 -= d[a] * d[a];
        if (r2 > 0)
            total += r2 * r2 * r2 * r2 * gradient(hash, d, dims);
    }
    return scale[dims] * total;
}

/* crawl.simplex(x, y[, z[, w]]). */
static int l_simplex(lua_State *L)
{
    int dims = lua_isnoneornil(L, 3) ? 2 : lua_isnoneornil(L, 4) ? 3 : 4;
    double p[4];
    for (int a = 0; a < dims; a++)
        p[a] = fmod(arg_number(L, a + 1), 1e9);
    lua_pushnumber(L, simplex(p, dims));
    return 1;
}

void lrt_open_noise(lua_State *L)
{
    static const luaL_Reg fns[] = {{"worley", l_worley}, {"worley_diff", l_worley_diff},
                                   {"simplex", l_simplex}, {"split_bytes", l_split_bytes},
                                   {NULL, NULL}};
    lua_getglobal(L, "crawl");
    luaL_setfuncs(L, fns, 0);
    lua_pop(L, 1);
}
