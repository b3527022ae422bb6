/* Matching a place such as "D:5" against Crawl depth ranges as written in
 * DEPTH: "D:2-8, Lair, !D:5, Depths:$, 3-7, *". */
#ifndef QG_CACHE_DEPTH_H
#define QG_CACHE_DEPTH_H

int qgc_depth_matches(const char *ranges, const char *place);

#endif
