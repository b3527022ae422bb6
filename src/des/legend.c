/* The legend of a declarative .des map: what each glyph means before any
 * Lua runs. */
#include "des/glyphs.h"
#include "des/map.h"

#include <string.h>

static int spec_has_key(const des_directive *d, unsigned char g)
{
    if (g == 0)
        return 0;
    switch (d->spec.kind) {
    case DES_SPEC_KEYED: return strchr(d->spec.u.keyed.keys, g) != NULL;
    case DES_SPEC_SUBST: return strchr(d->spec.u.subst.keys, g) != NULL;
    case DES_SPEC_NSUBST: return strchr(d->spec.u.nsubst.keys, g) != NULL;
    case DES_SPEC_MARKER: return d->spec.u.marker.key == g;
    case DES_SPEC_SHUFFLE: return strchr(d->spec.u.shuffle.glyphs, g) != NULL;
    default: return d->dir == DES_DIR_CLEAR && memchr(d->arg, g, d->arg_len) != NULL;
    }
}

/* The n-th directive of kind dir (MONS/ITEM slots count in textual order). */
static const des_directive *nth(const des_map *map, des_dir dir, int n)
{
    for (size_t i = 0; i < map->dir_count; i++)
        if (map->dirs[i].dir == dir && n-- == 0)
            return &map->dirs[i];
    return NULL;
}

static void describe(const des_map *map, unsigned char g, qg_buf *out)
{
    qg_buf_reset(out);
    for (size_t i = 0; i < map->dir_count; i++) {
        const des_directive *d = &map->dirs[i];
        if (!spec_has_key(d, g))
            continue;
        if (out->len)
            qg_buf_puts(out, "; ");
        qg_buf_printf(out, "%s %s", des_dir_name(d->dir), d->arg);
    }
    const des_glyph *info = des_glyph_info_for(g, map->legacy);
    const des_directive *slot = NULL;
    if (info->slot >= 0)
        slot = nth(map, info->kind == DES_GLYPH_MONSTER ? DES_DIR_MONS : DES_DIR_ITEM,
                   info->slot);
    if (out->len)
        qg_buf_puts(out, "; ");
    if (slot)
        qg_buf_printf(out, "%s: %s", info->meaning, slot->arg);
    else
        qg_buf_puts(out, info->meaning);
}

static void add_glyph(unsigned char *seen, unsigned char *order, size_t *count,
                      unsigned char g)
{
    if (!seen[g]) {
        seen[g] = 1;
        order[(*count)++] = g;
    }
}

static void add_glyphs(unsigned char *seen, unsigned char *order, size_t *count,
                       const des_glyph_choice *choices, size_t n)
{
    for (size_t i = 0; i < n; i++)
        add_glyph(seen, order, count, choices[i].glyph);
}

qg_status qg_des_legend(const qg_mapdef *def, qg_des_legend_fn fn, void *user)
{
    const des_map *map = des_map_of(def);
    if (!map)
        return QG_ERR_INVALID;
    unsigned char seen[256] = {0}, order[256];
    size_t count = 0;
    for (size_t r = 0; r < def->row_count; r++)
        for (size_t i = 0; i < def->rows[r].len; i++)
            add_glyph(seen, order, &count, (unsigned char)def->rows[r].text[i]);
    for (size_t i = 0; i < map->dir_count; i++) {
        const des_spec *spec = &map->dirs[i].spec;
        if (spec->kind == DES_SPEC_SUBST)
            add_glyphs(seen, order, &count, spec->u.subst.choices, spec->u.subst.count);
        else if (spec->kind == DES_SPEC_NSUBST)
            for (size_t k = 0; k < spec->u.nsubst.count; k++)
                add_glyphs(seen, order, &count, spec->u.nsubst.segs[k].choices,
                           spec->u.nsubst.segs[k].choice_count);
    }
    qg_buf text;
    qg_buf_init(&text);
    for (size_t i = 0; i < count; i++) {
        describe(map, order[i], &text);
        if (text.failed)
            break;
        fn(user, order[i], text.data);
    }
    qg_status st = text.failed ? QG_ERR_NOMEM : QG_OK;
    qg_buf_free(&text);
    return st;
}
