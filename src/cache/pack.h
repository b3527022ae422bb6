/* What packing a source file gives the writer: the index fields and the
 * uncompressed blob payloads (doc/qgc-format.md "Blobs"), per file and per
 * map. Packing needs no front end: only the mapdef and the text. */
#ifndef QG_CACHE_PACK_H
#define QG_CACHE_PACK_H

#include "cache/format.h"
#include "cache/spill.h"

/* Where a blob's compressed bytes are in the cache written over (its
 * blob area), for a blob taken from there: when the dictionary comes out
 * the same, the writer copies them instead of compressing the text. */
typedef struct qgc_prior {
    uint64_t at;       /* 1 + the offset in the blob area; 0: none */
    uint32_t z_len;
    uint32_t crc;
} qgc_prior;

typedef struct qgc_blob {
    qg_buf raw;
    qgc_prior prior;
} qgc_blob;

typedef struct qgc_map_rec {
    char *name;
    int quest;
    qg_map_kind kind;
    qg_format format;
    size_t file;
    int line;
    char *fields[7]; /* tags depth place orient chance weight desc */
    qg_buf meta;     /* kept in the index: slice place, row shape, properties */
    qgc_blob blob;   /* the slice (and rows that are not plain) */
    size_t slice_len; /* the slice's bytes in blob.raw (without the name) */
} qgc_map_rec;

typedef struct qgc_file_rec {
    qgc_file_meta meta;
    char *text;       /* the whole source, while it is being packed */
    size_t len;
    qgc_blob blob;    /* the context: the file with its maps' lines blank */
} qgc_file_rec;

/* A source file packed, before the writer takes it over. */
typedef struct qgc_packed {
    qgc_file_rec file;
    qgc_map_rec *maps;
    size_t count;
} qgc_packed;

/* Packs src and defs[0..count) into *out (its maps' file index is 0 until
 * a writer takes it). On failure *out holds nothing. */
qg_status qgc_pack_source(const qg_cache_source *src, const qg_mapdef *const *defs,
                          size_t count, qgc_packed *out);
void qgc_packed_free(qgc_packed *p);
/* The writer takes p over (also when it fails), as its next file. */
qg_status qgc_writer_add_packed(qg_cache_writer *w, qgc_packed *p, qg_diags *diags);
/* Reserves the places of the next count files, for files added in any
 * order (a compile that adds each as it is done): each reserved place
 * must then be filled once, by qgc_writer_add_packed_at, before the
 * write. */
qg_status qgc_writer_reserve(qg_cache_writer *w, size_t count);
/* The files added and reserved so far. */
size_t qgc_writer_file_count(const qg_cache_writer *w);
/* The hash of what every file's compile depended on (the index keeps it,
 * doc/qgc-format.md); 0 until it is set. */
void qgc_writer_set_environment(qg_cache_writer *w, uint64_t environment);
/* The cache written over: its blob area (area_len bytes, which must stay
 * mapped until the write) and its dictionary, for the blobs taken from it
 * (qgc_prior); its index, inflated (raw) and as stored (z), whose pieces
 * the new index copies where its bytes are the same (qgc_piece_prior). */
typedef struct qgc_writer_prior {
    const unsigned char *area;
    uint64_t area_len;
    const void *dict;
    size_t dict_len;
    const unsigned char *index_raw;
    uint64_t index_raw_len;
    const unsigned char *index_z;
    size_t index_z_len;
} qgc_writer_prior;

void qgc_writer_set_prior(qg_cache_writer *w, const qgc_writer_prior *prior);
qg_status qgc_writer_add_packed_at(qg_cache_writer *w, qgc_packed *p, size_t at,
                                   qg_diags *diags);

/* The index fields, in the order of qgc_map_rec.fields. */
extern const char *const qgc_field_keys[7];

/* Fills file->blob.raw (the context) and the blob payload and index fields
 * of maps[0..count) from defs (maps[i] from defs[i]). */
qg_status qgc_pack_file(qgc_file_rec *file, size_t file_index,
                        const qg_mapdef *const *defs, qgc_map_rec *maps,
                        size_t count);
void qgc_map_rec_free(qgc_map_rec *map);
void qgc_file_rec_free(qgc_file_rec *file);

/* A blob once the writer has it: its text in the writer's scratch file,
 * then its compressed size and CRC. */
typedef struct qgc_spilled {
    uint64_t at;
    uint32_t len;
    uint32_t z_len;
    uint32_t crc;
} qgc_spilled;

/* In the writer's text file each blob's text follows its head: the text's
 * length, then how many of its bytes the dictionary counts lines in (the
 * files' contexts and the maps' slices), each a u32. */
#define QGC_TEXT_HEAD 8

/* Builds a preset dictionary (at most QGC_MAX_DICTIONARY bytes) from the
 * lines found in the most blobs, reading the parts of text (blob heads
 * and texts) given by spans[0..count) once, in that order: the files'
 * texts in file order, whatever order they were added in. */
qg_status qgc_build_dictionary(const qgc_spill *text, const qgc_span *spans, size_t count,
                               qg_buf *dict);

/* The most distinct lines the dictionary counts (doc/limits.md): its
 * table then holds 4 MiB of lines and a 1 MiB index, whatever the corpus.
 * Crawl 0.28 has 92,427 distinct lines, whose array already doubled to
 * this size before there was a bound, and master about 114,600: both stay
 * under it, so their dictionaries are the ones made without it. A power
 * of two, so the doubling array lands on it and the index (at most half
 * full) on twice it. */
#define QGC_DICTIONARY_MAX_LINES 131072u

/* What the line table held once every blob was counted. */
typedef struct qgc_dictionary_table {
    size_t lines;      /* distinct lines */
    size_t line_cap;   /* lines the array has room for */
    size_t index_cap;  /* slots of its index */
} qgc_dictionary_table;

/* qgc_build_dictionary counting at most max_lines distinct lines: once
 * the table holds that many, a line not in it is passed over and those in
 * it are still counted. *held (when not NULL) tells what the table held. */
qg_status qgc_build_dictionary_bounded(const qgc_spill *text, const qgc_span *spans,
                                       size_t count, size_t max_lines, qg_buf *dict,
                                       qgc_dictionary_table *held);

#endif
