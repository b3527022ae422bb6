/* questgrid vocabulary mapping: which Angband-family index (an F: field
 * value), lib/edit name or tag, Crawl name and Crawl glyph mean the same
 * feature, monster, object or artifact.
 *
 * A mapping file has one entry a line (see lib/edit/mapping.txt):
 *
 *     kind:index:edit name:crawl name:glyph
 *
 * kind is feature, monster, object or artifact; index is a decimal index
 * or '-' when the entry is known by name only (Hengband tags, the names
 * of another variant); the crawl name is a Crawl feature name or KFEAT,
 * MONS or ITEM spec, empty when Crawl has no equivalent; the glyph is the
 * Crawl map glyph that means the same thing, empty when there is none.
 * Names may not contain ':'. '#' starts a comment line.
 *
 * Several files may be loaded into one mapping; each later file extends
 * the earlier ones and overrides their entries for the same index or
 * lib/edit name. Within one file an index or name may be defined only
 * once. Lookups by Crawl name or glyph skip overridden entries and return
 * the first line of the latest file that has the name or glyph, so in a
 * file the preferred entry goes first.
 *
 * A loaded mapping is read-only: lookups may run from several threads. */
#ifndef QUESTGRID_MAPPING_H
#define QUESTGRID_MAPPING_H

#include <questgrid/core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qg_mapping qg_mapping;

typedef struct qg_mapping_entry {
    qg_vocab_kind kind;
    int index;              /* -1 when the line gives no index */
    const char *edit_name;  /* lib/edit name or tag; never empty */
    const char *crawl_name; /* "" when Crawl has no equivalent */
    int glyph;              /* the Crawl glyph (a byte), or -1 */
    const char *file;       /* where the entry was defined */
    int line;
} qg_mapping_entry;

qg_mapping *qg_mapping_new(void);
void qg_mapping_free(qg_mapping *mapping);

/* Adds the entries of one mapping file. Every malformed line is
 * reported; the well-formed lines of the file are kept even then.
 * Returns QG_ERR_PARSE when the file has errors. */
qg_status qg_mapping_load_file(qg_mapping *mapping, const char *path,
                               qg_diags *diags);
/* The same from text in memory; name is used in diagnostics. */
qg_status qg_mapping_load_text(qg_mapping *mapping, const char *name,
                               const char *text, size_t len, qg_diags *diags);
/* Loads the bundled edit/mapping.txt, found by qg_data_find(). */
qg_status qg_mapping_load_bundled(qg_mapping *mapping, qg_diags *diags);

/* All entries in load order, overridden ones included. */
size_t qg_mapping_count(const qg_mapping *mapping);
const qg_mapping_entry *qg_mapping_entry_at(const qg_mapping *mapping,
                                            size_t index);

/* Lookups; NULL when nothing matches. lib/edit names and tags compare
 * byte for byte, Crawl names ignoring case. */
const qg_mapping_entry *qg_mapping_by_index(const qg_mapping *mapping,
                                            qg_vocab_kind kind, int index);
const qg_mapping_entry *qg_mapping_by_edit_name(const qg_mapping *mapping,
                                                qg_vocab_kind kind,
                                                const char *name);
const qg_mapping_entry *qg_mapping_by_crawl_name(const qg_mapping *mapping,
                                                 qg_vocab_kind kind,
                                                 const char *name);
const qg_mapping_entry *qg_mapping_by_glyph(const qg_mapping *mapping,
                                            qg_vocab_kind kind,
                                            unsigned char glyph);

/* "feature", "monster", "object", "artifact"; NULL for other values. */
const char *qg_mapping_kind_name(qg_vocab_kind kind);

#ifdef __cplusplus
}
#endif
#endif
