-- The library's own set-up fails: a diagnostic, never an abort.
setmetatable(_G, {__newindex = function(t, k) error("no new global " .. k) end})
new_global = 1
