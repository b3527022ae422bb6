/* Compiled level caches (.qgc): many map definitions compiled into one
 * small verified file; doc/qgc-format.md describes the bytes.
 *
 * A qg_cache is immutable once open: any number of threads may look maps
 * up and load them at the same time. Every offset, size and checksum read
 * from the file is checked before it is used; a damaged file is reported
 * as QG_ERR_CORRUPT with a diagnostic, never trusted. */
#ifndef QUESTGRID_CACHE_H
#define QUESTGRID_CACHE_H

#include <signal.h>

#include <questgrid/core.h>
#include <questgrid/fd.h>
#include <questgrid/lua.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QG_CACHE_FORMAT_VERSION 3u
/* Returned by the lookups when nothing matches. */
#define QG_CACHE_NONE ((size_t)-1)

typedef enum qg_source_state {
    QG_SOURCE_FRESH = 0,
    QG_SOURCE_CHANGED,   /* its content hash differs */
    QG_SOURCE_MISSING    /* it cannot be read: the cache is the only copy */
} qg_source_state;

enum {
    QG_CACHE_CHECK_HASH = 1 << 0  /* hash even when size and mtime match */
};

/* ---- writing ---------------------------------------------------------- */

/* A source file as it was read: its bytes and the stat() data that lets a
 * later staleness check skip hashing (mtime 0 forces the hash). */
typedef struct qg_cache_source {
    const char *path;
    qg_format format;
    const char *data;
    size_t len;
    int64_t mtime_sec;
    long mtime_nsec;
} qg_cache_source;

typedef struct qg_cache_writer qg_cache_writer;

typedef struct qg_cache_write_options {
    int jobs;                          /* compression threads; 0 = 1 */
    volatile sig_atomic_t *cancel;     /* polled; non-zero aborts, or NULL */
    int follow_symlinks;               /* 1: a symbolic link at path is
                                          followed and the file it names
                                          replaced; 0: the link is replaced */
} qg_cache_write_options;

qg_cache_writer *qg_cache_writer_new(void);
void qg_cache_writer_free(qg_cache_writer *writer);
/* Adds a source file and the map definitions read from it (their fields are
 * copied at once). A map name already added is an error. */
qg_status qg_cache_writer_add_file(qg_cache_writer *writer,
                                   const qg_cache_source *source,
                                   const qg_mapdef *const *defs, size_t count,
                                   qg_diags *diags);
size_t qg_cache_writer_map_count(const qg_cache_writer *writer);
/* Writes the cache to path atomically: a temporary file in the same
 * directory, fsync, a check of the temporary file (opened as a reader
 * opens it, then every blob's CRC), rename.
 * On any failure (or cancellation) the temporary file is removed and a
 * previous file at path is left untouched; one a killed writer left
 * behind is removed by the next write to path. A new cache gets the mode
 * the umask gives, a replaced one keeps its mode; a symbolic link at path
 * is replaced, not followed (follow_symlinks); anything but a regular file
 * there is refused. */
qg_status qg_cache_writer_write(qg_cache_writer *writer, const char *path,
                                const qg_cache_write_options *options,
                                qg_diags *diags);

/* ---- the files a compile (and every command) reads ------------------- */

/* What a file is, told once for every reader: by its first bytes (a
 * cache, a REXPaint or Tiled file), its name (.des; a file the game of
 * its edit directory reads with another parser than its map loader) and
 * its records (qg_fd_sniff). */
typedef enum qg_file_kind {
    QG_FILE_OTHER = 0,     /* nothing questgrid reads */
    QG_FILE_DES,           /* Crawl .des maps */
    QG_FILE_LEVEL,         /* an F:/D: level: quest, town or wilderness rows */
    QG_FILE_PART,          /* F:/D: records without rows: letters, includes */
    QG_FILE_HUB,           /* a quest or town hub (q_info.txt) */
    QG_FILE_VOCABULARY,    /* a lib/edit vocabulary (f_info.txt, …) */
    QG_FILE_GAME_DATA,     /* other game data (misc.txt, *.jsonc, …) */
    QG_FILE_CACHE,         /* a compiled cache (.qgc) */
    QG_FILE_TMX,           /* Tiled */
    QG_FILE_XP,            /* REXPaint */
    QG_FILE_UNREAD         /* an F:/D: file its game never reads */
} qg_file_kind;

/* The kind of a file from its path and bytes; dialect is the one its
 * edit directory says (qg_fd_detect_edit_dir), QG_FD_AUTO when none.
 * *entries, when not NULL, gets a vocabulary's N: entries. */
qg_file_kind qg_file_kind_of(const char *path, const void *data, size_t len,
                             qg_fd_dialect dialect, size_t *entries);
/* "a .des file", "an F:/D: level", … for messages. */
const char *qg_file_kind_name(qg_file_kind kind);

typedef struct qg_input {
    char *path;            /* as given, or joined below a directory given */
    qg_file_kind kind;
    int named;             /* given itself, not found in a directory */
} qg_input;

/* Expands files and directories (searched recursively, entries in byte
 * order) into the files questgrid reads, each with its kind. Vocabularies
 * and other game data are left out with a note each; a file named that
 * questgrid does not read is an error, one found in a directory is left
 * out silently. *out (free with qg_inputs_free) holds the rest in order. */
qg_status qg_inputs_find(const char *const *paths, size_t count, qg_input **out,
                         size_t *out_count, qg_diags *diags);
void qg_inputs_free(qg_input *inputs, size_t count);

/* ---- compiling ------------------------------------------------------- */

typedef struct qg_compile_options {
    const char *const *lua_paths;   /* game Lua libraries (Crawl: dat/dlua) */
    size_t lua_path_count;
    int jobs;                       /* threads compiling (and compressing);
                                       0: the cores the process may run on */
    int keep_going;                 /* 1: leave out maps that fail and write
                                       the rest; 0: any error writes nothing */
    volatile sig_atomic_t *cancel;  /* polled; non-zero aborts, or NULL */
    /* Called as each input file is compiled (done files of total), in
     * file order, one call at a time but from the compiling threads; or
     * NULL. */
    void (*progress)(void *user, size_t done, size_t total);
    void *user;
    /* Relative inputs are read from this directory, and recorded in the
     * cache as given (relative to it); NULL = the current directory. */
    const char *base_dir;
    /* The game's branch table for the maps' Lua (qg_runtime_options
     * .branches); NULL = the newest game's. */
    const qg_branches *branches;
    int follow_symlinks;            /* as qg_cache_write_options' */
} qg_compile_options;

typedef struct qg_compile_stats {
    size_t files;
    size_t reused;        /* files whose entries came from the cache written over */
    size_t maps;          /* maps written */
    size_t failed;        /* maps left out (keep_going) */
    uint64_t source_bytes;
    uint64_t cache_bytes;
} qg_compile_stats;

/* Compiles the files and directories given into one cache at output.
 * Directories are searched recursively, in name order, for .des files and
 * F:/D: map files (.txt or .map files holding D: rows, except the
 * *_info.txt vocabularies). Each .des map's compile-time Lua runs so that
 * the index holds the real tags, depths and weights.
 *
 * The .des files compile on options->jobs threads, each with a Lua state
 * of its own, the largest files first. A file compiles from the state the
 * game's library left, with the global Lua of the .des files before it
 * run first, in their order, as Crawl's compiler reads them: a map sees
 * the functions its own file and the earlier files define, never a later
 * file's, and what a file's maps change reaches no other file (as when
 * Crawl loads the other files from its map cache). The cache is the same,
 * byte for byte, for any number of threads; diagnostics come in file
 * order. A global prelude that runs out of its instruction budget
 * defines nothing for the files after it.
 *
 * When output is a cache this questgrid compiled with the same Lua
 * library, the entries of every .des file whose text, and whose preludes
 * before it, are unchanged are taken from it (stats->reused) and only the
 * other files are compiled; the cache written is the one a compile of
 * every file writes. F:/D: files are always read again (what they include
 * is not in their text). A file that had errors is compiled again, so its
 * errors are reported again; a reused file's warnings are not.
 *
 * Each file is freed once the writer has it: memory grows with the
 * threads, not with the number of files (the writer keeps its pieces in
 * scratch files under $TMPDIR or /tmp). The write is atomic (see
 * qg_cache_writer_write). stats may be NULL. */
qg_status qg_cache_compile(const char *const *inputs, size_t count,
                           const char *output, const qg_compile_options *options,
                           qg_compile_stats *stats, qg_diags *diags);

/* ---- reading ---------------------------------------------------------- */

typedef struct qg_cache qg_cache;

/* What qg_cache_open does about sources that changed since the cache was
 * written (see qg_cache_check_sources). */
typedef enum qg_stale_policy {
    QG_STALE_IGNORE = 0,  /* do not look at the sources */
    QG_STALE_READ_TEXT,   /* qg_cache_load_map reads changed files' maps from
                             their text (the index keeps the compiled fields) */
    QG_STALE_RECOMPILE    /* compile the sources again into the same file
                             (atomically; the unchanged files' entries are
                             reused, see qg_cache_compile) and open that;
                             when a source is missing or the compile fails,
                             read the text */
} qg_stale_policy;

typedef struct qg_cache_open_options {
    int no_mmap;                 /* 1: read() the file instead of mapping it */
    qg_stale_policy stale;
    unsigned check_flags;        /* QG_CACHE_CHECK_HASH */
    const char *source_dir;      /* relative source paths start here; NULL =
                                    the current directory */
    const qg_compile_options *compile; /* Lua paths and jobs to recompile */
} qg_cache_open_options;

/* Opens a cache: checks the header, its CRC, the index CRC and every
 * offset and size the index holds, then applies options->stale. options
 * may be NULL. */
qg_status qg_cache_open(const char *path, const qg_cache_open_options *options,
                        qg_cache **out, qg_diags *diags);
/* The same over a cache held in memory (copied; name is used in
 * diagnostics). Only options->stale == QG_STALE_IGNORE is meaningful. */
qg_status qg_cache_open_memory(const void *data, size_t len, const char *name,
                               qg_cache **out, qg_diags *diags);
void qg_cache_close(qg_cache *cache);

typedef struct qg_cache_info {
    uint32_t format_version;
    uint32_t questgrid_version;  /* QG_VERSION_NUMBER of the writer */
    uint32_t lua_version;        /* LUA_VERSION_NUM of the writer */
    size_t map_count;
    size_t file_count;
    uint64_t file_size;
    uint64_t index_size;         /* compressed */
    uint64_t index_raw_size;
    uint64_t blob_size;          /* all blobs, compressed */
    uint64_t blob_raw_size;
    size_t dictionary_size;
    int mapped;                  /* 1 when the file is mmapped */
} qg_cache_info;

void qg_cache_get_info(const qg_cache *cache, qg_cache_info *out);
const char *qg_cache_path(const qg_cache *cache);

/* One index entry. The strings live as long as the cache; fields the map
 * does not have are "". quest is -1 for maps that are not quests. */
typedef struct qg_cache_entry {
    const char *name;
    int quest;
    qg_map_kind kind;
    qg_format format;
    const char *tags;     /* sorted, space separated */
    const char *depth;    /* depth ranges as written: "D:2-8, Lair" */
    const char *place;
    const char *orient;
    const char *chance;
    const char *weight;
    const char *desc;
    size_t file;          /* index of the source file */
    int line;
    uint64_t blob_offset; /* from the start of the blob area */
    uint32_t blob_size;   /* compressed */
    uint32_t raw_size;
    uint32_t crc32;       /* of the compressed bytes */
} qg_cache_entry;

typedef struct qg_cache_file {
    const char *path;
    qg_format format;
    uint64_t size;
    int64_t mtime_sec;
    long mtime_nsec;
    uint64_t hash;        /* FNV-1a 64 of the whole file */
    size_t map_count;     /* maps read from this file */
} qg_cache_file;

size_t qg_cache_map_count(const qg_cache *cache);
const qg_cache_entry *qg_cache_entry_at(const qg_cache *cache, size_t index);
size_t qg_cache_file_count(const qg_cache *cache);
const qg_cache_file *qg_cache_file_at(const qg_cache *cache, size_t index);

/* Index of the map called name, or QG_CACHE_NONE (binary search). */
size_t qg_cache_find(const qg_cache *cache, const char *name);
/* Index of the map of quest number quest, or QG_CACHE_NONE. */
size_t qg_cache_find_quest(const qg_cache *cache, int quest);

/* A query: every field given (non-NULL) must match. tags: all of these
 * space-separated tags; depth: a place such as "D:5" that lies in one of
 * the map's depth ranges; place: the map's PLACE equals this. */
typedef struct qg_cache_query {
    const char *tags;
    const char *depth;
    const char *place;
    qg_map_kind kind;     /* QG_KIND_UNKNOWN = any but QG_KIND_SKIPPED */
} qg_cache_query;

/* The first matching map at index >= start, or QG_CACHE_NONE:
 *   for (i = qg_cache_next(c, &q, 0); i != QG_CACHE_NONE;
 *        i = qg_cache_next(c, &q, i + 1)) ... */
size_t qg_cache_next(const qg_cache *cache, const qg_cache_query *query,
                     size_t start);

/* The state of a source file as found at open (QG_SOURCE_FRESH when the
 * sources were not checked). */
qg_source_state qg_cache_source_state(const qg_cache *cache, size_t file);

/* Rebuilds the map definition (rows, properties, name, file, line); from
 * the source text instead when the map's file changed and the cache was
 * opened with QG_STALE_READ_TEXT. */
qg_status qg_cache_load_map(const qg_cache *cache, size_t index,
                            qg_mapdef **out, qg_diags *diags);
/* The map's own source text (*text NUL-terminated, free() it) and the line
 * of the source file it starts at. */
qg_status qg_cache_map_source(const qg_cache *cache, size_t index,
                              char **text, size_t *len, int *first_line,
                              qg_diags *diags);
/* The map's source file as a front end must read it to rebuild the map
 * with its file context (global Lua, default depths): every line in place,
 * the lines of the file's other maps blank. */
qg_status qg_cache_map_file_text(const qg_cache *cache, size_t index,
                                 char **text, size_t *len, qg_diags *diags);

/* A source file as it was compiled: its context with every map's slice
 * put back (*text NUL-terminated, free() it), so that a front end reads
 * its maps together, as a SUBVAULT finds them. */
qg_status qg_cache_file_text(const qg_cache *cache, size_t file, char **text, size_t *len,
                             qg_diags *diags);

typedef struct qg_cache_resolve_options {
    unsigned long long seed;
    const qg_runtime_options *runtime; /* .des: Lua libraries, limits; or NULL */
    const qg_context *context;         /* .des: place, XL, you.* answers; or NULL */
    const qg_fd_options *fd;           /* F:/D:: dialect, vocabulary; or NULL */
    const qg_vars *vars;               /* F:/D:: ?: variables; or NULL */
} qg_cache_resolve_options;

/* Resolves a map into a level through its front end, from the text the
 * cache holds (qg_cache_map_file_text): a .des map runs, with its file's
 * global Lua, in a runtime of its own; an F:/D: map reads the files it
 * includes from beside its source path (under the source directory the
 * cache was opened with). */
qg_status qg_cache_resolve(const qg_cache *cache, size_t index,
                           const qg_cache_resolve_options *options, qg_level **out,
                           qg_diags *diags);

/* Checks every blob: bounds, CRC, inflation to exactly its raw size and
 * its structure. Reports every problem found. */
qg_status qg_cache_verify(const qg_cache *cache, qg_diags *diags);

/* ---- staleness -------------------------------------------------------- */

/* Compares every source file with what the cache recorded: size and mtime
 * equal means fresh (unless QG_CACHE_CHECK_HASH), else the content hash
 * decides. states gets file_count entries; *changed the number of changed
 * files. base_dir resolves relative source paths (NULL = as stored). */
qg_status qg_cache_check_sources(const qg_cache *cache, const char *base_dir,
                                 unsigned flags, qg_source_state *states,
                                 size_t *changed, qg_diags *diags);

/* 64-bit FNV-1a of data: the content hash the cache records. */
uint64_t qg_cache_hash(const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif
