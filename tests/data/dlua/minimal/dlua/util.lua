-- A minimal Lua library for questgrid's tests, in Crawl's layout: the
-- entry files Crawl runs by name, without the optional ones (macro.lua,
-- tags.lua, mapinit.lua). util.lua follows a crawl_require.
crawl_require('dlua/helper.lua')
util = util or {}
function util.twice(x) return helper_double(x) end
