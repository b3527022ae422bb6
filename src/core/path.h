/* Paths as the file system resolves them, for telling whether a file a
 * data file names lies inside a directory tree. */
#ifndef QG_CORE_PATH_H
#define QG_CORE_PATH_H

/* The absolute form of path with every symbolic link followed and "." and
 * ".." applied: realpath() of its longest existing part, the rest (which
 * no link can redirect, as it does not exist) applied to it. NULL on no
 * memory or when the current directory cannot be named; free with free(). */
char *qg_path_canonical(const char *path);

/* path with "." and ".." and repeated slashes applied by their text alone
 * (for names a host serves from memory): "a/./b/../c" is "a/c", "" and "a/.."
 * are ".", leading ".." stay. NULL on no memory. */
char *qg_path_lexical(const char *path);

/* Whether path is root or lies below it, comparing whole components
 * ("/a/bc" is not below "/a/b"). Both in the same form: canonical, or
 * lexical (where the root "." holds every relative path not leaving it). */
int qg_path_within(const char *root, const char *path);

#endif
