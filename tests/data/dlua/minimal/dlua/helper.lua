-- Required by util.lua: proves crawl_require is followed from the library.
loaded_helper = (loaded_helper or 0) + 1
function helper_double(x) return 2 * x end
-- A count in a local the library's functions share (an upvalue).
local calls = 0
function helper_calls() calls = calls + 1 return calls end
