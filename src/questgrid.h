/* questgrid: roguelike fixed levels (Angband-family F:/D: quest files and
 * Crawl .des vaults), one intermediate representation, converters, a
 * placement engine and compiled caches. This umbrella header includes the
 * whole public API. */
#ifndef QUESTGRID_H
#define QUESTGRID_H

#include <questgrid/core.h>
#include <questgrid/fd.h>
#include <questgrid/des.h>
#include <questgrid/lua.h>
#include <questgrid/render.h>
#include <questgrid/mapping.h>
#include <questgrid/games.h>
#include <questgrid/convert.h>
#include <questgrid/place.h>
#include <questgrid/cache.h>

#endif
