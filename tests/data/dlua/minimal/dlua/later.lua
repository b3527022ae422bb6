-- Required by no entry file: a map or a prelude requires it when it wants it.
later_runs = (later_runs or 0) + 1
function later() return later_runs end
